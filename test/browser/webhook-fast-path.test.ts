import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@prisma/client";
import { API_SECRET_KEY, getHmac } from "@shopify/shopify-api/test-helpers";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ADMIN_API_VERSION } from "../../app/shopify/api-version";

/**
 * server.js answers POST /webhooks/fulfillments/create itself, calling the route's action without
 * Remix around it (ADR 0007): the built server must answer exactly as the route does.
 */
const appUrl = inject("appUrl");
const shop = "fast-path.myshopify.com";
const prisma = new PrismaClient({
  adapter: new PrismaBetterSQLite3({ url: inject("appDatabaseFile") }),
});

function webhook(fulfillment: number, overrides: { secret?: string; omit?: string[] } = {}) {
  const body = JSON.stringify({
    id: fulfillment,
    admin_graphql_api_id: `gid://shopify/Fulfillment/${fulfillment}`,
    order_id: fulfillment + 1,
    location_id: 701,
    name: `#${fulfillment + 1}.1`,
    status: "success",
    destination: { country_code: "KW" },
  });
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-Shopify-Topic": "fulfillments/create",
    "X-Shopify-Shop-Domain": shop,
    "X-Shopify-API-Version": ADMIN_API_VERSION,
    "X-Shopify-Webhook-Id": randomUUID(),
    "X-Shopify-Hmac-Sha256": getHmac(body, overrides.secret ?? API_SECRET_KEY),
  };
  for (const name of overrides.omit ?? []) delete headers[name];
  return { body, headers };
}

const post = (w: { body: string; headers: Record<string, string> }) =>
  fetch(`${appUrl}/webhooks/fulfillments/create`, { method: "POST", ...w });

const rows = () => prisma.delivery.findMany({ where: { shop }, include: { events: true } });

beforeAll(async () => {
  // Installed, automatic sending off: intake records a skip and the server's worker has nothing
  // to send.
  await prisma.shopSettings.create({ data: { shop, autoSend: false } });
});

afterAll(async () => {
  await prisma.delivery.deleteMany({ where: { shop } });
  await prisma.shopSettings.deleteMany({ where: { shop } });
  await prisma.$disconnect();
});

describe("fulfillments/create on the built server", () => {
  it("records a signed webhook once, however often it is delivered", async () => {
    const signed = webhook(88001);
    expect((await post(signed)).status).toBe(200);
    expect((await post(signed)).status).toBe(200);
    const stored = await rows();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      fulfillmentId: "gid://shopify/Fulfillment/88001",
      orderName: "#88002",
      state: "skipped",
      stateReason: "Automatic sending is off (Settings).",
    });
    expect(stored[0]!.events.map((e) => e.kind)).toEqual(["skipped"]);
  });

  it("answers 401 to a forged signature and 400 to missing headers or body, writing nothing", async () => {
    const before = (await rows()).length;
    expect((await post(webhook(88002, { secret: "not-the-app-secret" }))).status).toBe(401);
    expect((await post(webhook(88003, { omit: ["X-Shopify-Topic"] }))).status).toBe(400);
    expect((await post(webhook(88004, { omit: ["X-Shopify-Hmac-Sha256"] }))).status).toBe(400);
    const empty = await fetch(`${appUrl}/webhooks/fulfillments/create`, { method: "POST" });
    expect(empty.status).toBe(400);
    const notJson = "not json";
    const garbled = await post({
      body: notJson,
      headers: {
        ...webhook(88005).headers,
        "X-Shopify-Hmac-Sha256": getHmac(notJson, API_SECRET_KEY),
      },
    });
    expect(garbled.status).toBe(400);
    expect((await rows()).length).toBe(before);
  });
});

describe("the benchmark's bare route", () => {
  it("is not served unless the benchmark starts the server with BENCH_BARE_ROUTE=1", async () => {
    const signed = webhook(88006);
    const reply = await fetch(`${appUrl}/webhooks/bare`, { method: "POST", ...signed });
    expect(reply.status).not.toBe(200);
    expect(reply.status).toBeGreaterThanOrEqual(400);
  });
});
