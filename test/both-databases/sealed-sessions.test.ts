import { Session } from "@shopify/shopify-api";
import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { env } from "../../app/env.server";
import { sealStoredSessions } from "../../app/models/sessions.server";
import { sessionStorage } from "../../app/shopify.server";
import { testDatabaseName } from "../support/database";
import { shopDomain } from "../support/shopify";

/** Shopify tokens at rest (issue 12): one storage wrapper for every adapter. */
const shop = shopDomain("sealed-tokens");
const other = shopDomain("sealed-neighbour");
const ACCESS = "shpat_0123456789abcdef0123456789abcdef";
const REFRESH = "shprt_fedcba9876543210fedcba9876543210";

function offlineSession(forShop: string) {
  return new Session({
    id: `offline_${forShop}`,
    shop: forShop,
    state: "",
    isOnline: false,
    scope: "read_orders",
    accessToken: ACCESS,
    refreshToken: REFRESH,
    expires: new Date(Date.now() + 3600_000),
    refreshTokenExpires: new Date(Date.now() + 90 * 24 * 3600_000),
  });
}

const row = (forShop: string) => prisma.session.findFirstOrThrow({ where: { shop: forShop } });

describe(`Shopify tokens at rest (${testDatabaseName()})`, () => {
  it("stores the access and refresh tokens sealed, never as they are", async () => {
    await sessionStorage.storeSession(offlineSession(shop));
    const stored = await row(shop);
    expect(stored.accessToken).not.toContain("shpat_");
    expect(stored.refreshToken).not.toContain("shprt_");
    expect(stored.accessToken).toMatch(/^v1\./);
    expect(stored.refreshToken).toMatch(/^v1\./);
  });

  it("gives the library the tokens back in plaintext", async () => {
    await sessionStorage.storeSession(offlineSession(shop));
    const loaded = await sessionStorage.loadSession(`offline_${shop}`);
    expect(loaded?.accessToken).toBe(ACCESS);
    expect(loaded?.refreshToken).toBe(REFRESH);
    const [found] = await sessionStorage.findSessionsByShop(shop);
    expect(found?.accessToken).toBe(ACCESS);
  });

  it("does not change the caller's session while sealing it", async () => {
    const session = offlineSession(shop);
    await sessionStorage.storeSession(session);
    expect(session.accessToken).toBe(ACCESS);
  });

  it("does not open a token copied into another shop's row", async () => {
    await sessionStorage.storeSession(offlineSession(shop));
    await sessionStorage.storeSession(offlineSession(other));
    const sealed = await row(shop);
    await prisma.session.update({
      where: { id: `offline_${other}` },
      data: { accessToken: sealed.accessToken },
    });
    expect(await sessionStorage.loadSession(`offline_${other}`)).toBeUndefined();
  });

  it("reads a plaintext row written before sealing, and seals it at boot", async () => {
    await prisma.session.create({
      data: { id: `offline_${shop}`, shop, state: "", accessToken: ACCESS, refreshToken: REFRESH },
    });
    expect((await sessionStorage.loadSession(`offline_${shop}`))?.accessToken).toBe(ACCESS);
    expect(await sealStoredSessions()).toBe(1);
    const stored = await row(shop);
    expect(stored.accessToken).toMatch(/^v1\./);
    expect(stored.refreshToken).toMatch(/^v1\./);
    expect((await sessionStorage.loadSession(`offline_${shop}`))?.refreshToken).toBe(REFRESH);
    expect(await sealStoredSessions()).toBe(0);
  });

  it("seals again with the newest key the tokens sealed with an older one", async () => {
    await sessionStorage.storeSession(offlineSession(shop));
    const keys = env().ENCRYPTION_KEYS;
    keys.unshift({ id: "newer", key: Buffer.alloc(32, 9) });
    try {
      expect(await sealStoredSessions()).toBe(1);
      expect((await row(shop)).accessToken).toMatch(/^v1\.newer\./);
      expect((await sessionStorage.loadSession(`offline_${shop}`))?.accessToken).toBe(ACCESS);
    } finally {
      keys.shift();
    }
  });
});
