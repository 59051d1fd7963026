import fs from "node:fs";
import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { sqliteFilePath } from "../../app/db/sqlite-path";
import { sealStoredSessions } from "../../app/models/sessions.server";
import { ensureShopInstalled } from "../../app/models/shop.server";
import { action as appUninstalled } from "../../app/routes/webhooks.app.uninstalled";
import { action as customersRedact } from "../../app/routes/webhooks.customers.redact";
import { action as shopRedact } from "../../app/routes/webhooks.shop.redact";
import { callRoute, installShop, shopDomain, webhookRequest } from "../support/shopify";

/**
 * Erased means gone from the disk, not only from the tables: the bytes of the SQLite file and its
 * write-ahead log are searched after each erasure (issue 12). Each test writes strings of its own,
 * since rows the harness empties between tests are not securely deleted.
 */
const shop = shopDomain("erase-on-disk");

function fileBytes(): Buffer {
  const file = sqliteFilePath(process.env.DATABASE_URL);
  return Buffer.concat(
    [file, `${file}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)),
  );
}

const onDisk = (text: string) => fileBytes().includes(Buffer.from(text, "utf8"));

async function deliveryFor(order: number, name: string, phone: string) {
  await prisma.delivery.create({
    data: {
      shop,
      orderId: `gid://shopify/Order/${order}`,
      orderName: `#${order}`,
      fulfillmentId: `gid://shopify/Fulfillment/${order}`,
      source: "webhook",
      state: "created",
      environment: "sandbox",
      reference: `SHPFY-erase-${order}`,
      courierOrderId: `C-${order}`,
      request: JSON.stringify({ deliveryAddress: { contactName: name, contactPhone: phone } }),
      addressMatch: JSON.stringify({ input: { address1: `${name}'s house` } }),
      stateReason: `Waiting for ${name}`,
      events: {
        create: { shop, kind: "note", message: `Called ${phone}`, data: JSON.stringify({ phone }) },
      },
    },
  });
}

const send = (route: typeof customersRedact, topic: string, payload: Record<string, unknown>) =>
  callRoute(route, webhookRequest({ topic, shop, payload }));

describe("erased data on disk", () => {
  it("leaves no trace of a redacted customer's name and phone in the database file or its log", async () => {
    await deliveryFor(7101, "Zainab Qx7Redact", "+96599887711");
    expect(onDisk("Zainab Qx7Redact")).toBe(true);
    const reply = await send(customersRedact, "customers/redact", {
      shop_id: 1,
      shop_domain: shop,
      customer: { id: 1 },
      orders_to_redact: [7101],
    });
    expect(reply.status).toBe(200);
    expect(onDisk("Zainab Qx7Redact")).toBe(false);
    expect(onDisk("+96599887711")).toBe(false);
  });

  it("leaves no trace of a shop's customers after shop/redact", async () => {
    await ensureShopInstalled(shop);
    await deliveryFor(7201, "Fahad Qx7ShopGone", "+96599887722");
    expect((await send(shopRedact, "shop/redact", { shop_id: 1, shop_domain: shop })).status).toBe(
      200,
    );
    expect(onDisk("Fahad Qx7ShopGone")).toBe(false);
    expect(onDisk("+96599887722")).toBe(false);
  });

  it("leaves no trace of an uninstalled shop's tokens", async () => {
    const session = await installShop(shop);
    const stored = await prisma.session.findFirstOrThrow({ where: { id: session.id } });
    expect(onDisk(stored.accessToken)).toBe(true);
    expect((await send(appUninstalled, "app/uninstalled", { id: 1, domain: shop })).status).toBe(
      200,
    );
    expect(onDisk(stored.accessToken)).toBe(false);
    expect(onDisk(session.accessToken!)).toBe(false);
  });

  it("leaves no plaintext token of an earlier version's session once it is sealed at boot", async () => {
    const access = "shpat_0123456789abcdef0123456789qx7boot";
    await prisma.session.create({
      data: { id: `offline_${shop}`, shop, state: "", accessToken: access },
    });
    expect(onDisk(access)).toBe(true);
    await sealStoredSessions();
    expect(onDisk(access)).toBe(false);
  });
});
