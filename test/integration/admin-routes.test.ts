import { API_KEY, API_SECRET_KEY, getJwt } from "@shopify/shopify-api/test-helpers";
import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { loader as appLayoutLoader } from "../../app/routes/app";
import { loader as homeLoader } from "../../app/routes/app._index";
import { action as settingsAction, loader as settingsLoader } from "../../app/routes/app.settings";
import { loader as healthLoader } from "../../app/routes/healthz";
import { sessionStorage } from "../../app/shopify.server";
import { adminApi } from "../support/admin-api";
import {
  adminDocumentRequest,
  adminFetchRequest,
  APP_URL,
  callRoute,
  installShop,
  shopDomain,
} from "../support/shopify";

const shop = shopDomain("admin-routes");

describe("admin routes without a session token", () => {
  it.each([
    ["the layout", appLayoutLoader, "/app"],
    ["the home page", homeLoader, "/app"],
    ["the settings page", settingsLoader, "/app/settings"],
  ])("%s sends a bare document request to log in", async (_name, loader, path) => {
    const response = await callRoute(loader, new Request(new URL(path, APP_URL)));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/\/auth\/login/);
  });

  it("answers a fetch with a forged session token with 401 and asks App Bridge to retry", async () => {
    await installShop(shop);
    const request = new Request(new URL("/app/settings", APP_URL), {
      headers: { Authorization: "Bearer not.a.jwt" },
    });
    const response = await callRoute(settingsLoader, request);
    expect(response.status).toBe(401);
    expect(response.headers.get("X-Shopify-Retry-Invalid-Session-Request")).toBe("1");
  });

  it.each([
    ["another site", "https://evil.example"],
    ["not a URL", "not a url"],
  ])("answers 401 to a correctly signed session token whose shop is %s", async (_name, dest) => {
    // The library threw on it, and the route answered 500 (issue 24).
    await installShop(shop);
    const { token } = await getJwt("admin-routes", API_KEY, API_SECRET_KEY, { dest });
    const request = new Request(new URL("/app/settings", APP_URL), {
      headers: { Authorization: `Bearer ${token}` },
    });
    const response = await callRoute(settingsLoader, request);
    expect(response.status).toBe(401);
  });

  it("refuses to save settings without a session token, and saves nothing", async () => {
    await installShop(shop);
    const request = new Request(new URL("/app/settings", APP_URL), {
      method: "POST",
      body: new URLSearchParams({ courierEnvironment: "production" }),
    });
    const response = await callRoute(settingsAction, request);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/\/auth\/login/);
    expect(await prisma.shopSettings.count({ where: { shop } })).toBe(0);
  });
});

describe("admin routes with a valid session token", () => {
  it("renders the layout for an installed shop and records the shop", async () => {
    await installShop(shop);
    const response = await callRoute(appLayoutLoader, await adminDocumentRequest(shop, "/app"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      apiKey: process.env.SHOPIFY_API_KEY,
      appBridgeUrl: null,
      // The staff member's language (ADR 0040): no choice stored and no Shopify locale given.
      locale: "en",
      // Not a phone's request: the server renders the wide layout (ADR 0048).
      phone: false,
    });
    // Framed by the admin of the shop whose session token this is.
    expect(response.headers.get("Content-Security-Policy")).toContain(
      `frame-ancestors https://${shop} https://admin.shopify.com`,
    );
    const settings = await prisma.shopSettings.findUniqueOrThrow({ where: { shop } });
    expect(settings.uninstalledAt).toBeNull();
    expect(adminApi.tokenExchanges).toHaveLength(0);
  });

  it("exchanges the session token for an offline token on first visit (install)", async () => {
    const response = await callRoute(appLayoutLoader, await adminDocumentRequest(shop, "/app"));
    expect(response.status).toBe(200);
    expect(adminApi.tokenExchanges).toEqual([
      { shop, requestedTokenType: "urn:shopify:params:oauth:token-type:offline-access-token" },
    ]);
    const row = await prisma.session.findFirstOrThrow({ where: { shop, isOnline: false } });
    // Sealed at rest (ADR 0012); the library gets them back in plaintext.
    expect(row.accessToken).not.toContain("standin-token");
    expect(row.refreshToken).not.toContain("standin-refresh");
    expect(row.expires).toBeInstanceOf(Date);
    const session = await sessionStorage.loadSession(row.id);
    expect(session?.accessToken).toBe(`standin-token-${shop}`);
    expect(session?.refreshToken).toBe(`standin-refresh-${shop}`);
    // afterAuth created the shop's settings.
    expect(await prisma.shopSettings.count({ where: { shop } })).toBe(1);
  });

  it("scopes what it reads to the shop in the session token", async () => {
    const other = shopDomain("someone-else");
    await installShop(shop);
    await installShop(other);
    await prisma.shopSettings.create({ data: { shop: other, courierEnvironment: "production" } });
    // A fulfillment the missed-webhook check found for the other shop is not counted here.
    await prisma.delivery.create({
      data: {
        shop: other,
        orderId: "gid://shopify/Order/1",
        fulfillmentId: "gid://shopify/Fulfillment/1",
        source: "recovered",
        state: "pending",
        environment: "production",
        reference: "SHPFY-other-1",
      },
    });
    const response = await callRoute(homeLoader, await adminFetchRequest(shop, "/app"));
    const home = await response.json();
    expect({
      courierEnvironment: home.courierEnvironment,
      connection: home.connection,
      connectionError: home.connectionError,
      toSend: home.dashboard.toSend,
      steps: home.steps,
      recovered: home.recovered,
      shopifyAccessLost: home.shopifyAccessLost,
    }).toEqual({
      courierEnvironment: "sandbox",
      connection: "missing",
      connectionError: null,
      toSend: 0,
      steps: { connected: false, pickup: false, firstSent: false },
      recovered: 0,
      shopifyAccessLost: null,
    });
  });
});

describe("health", () => {
  it("answers ok when the database answers", async () => {
    const response = await callRoute(healthLoader, new Request(new URL("/healthz", APP_URL)));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });
});
