import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { API_SECRET_KEY, APP_URL, getHmac } from "@shopify/shopify-api/test-helpers";
import { afterEach, describe, expect, it } from "vitest";
import { authenticate } from "../../app/shopify.server";
import { ADMIN_API_VERSION } from "../../app/shopify/api-version";
import { gid, subscriptionsFromAppToml, type ShopifyStandIn } from "../../sandbox/shopify";
import { ROOT } from "../support/paths";
import {
  asRequest,
  postGraphql,
  startTestStandIn,
  startWebhookReceiver,
  type ReceivedWebhook,
  type WebhookReceiver,
} from "./support";

let standIn: ShopifyStandIn | undefined;
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await standIn?.close();
  await receiver?.close();
  standIn = undefined;
  receiver = undefined;
});

async function start(
  reply?: (webhook: ReceivedWebhook, index: number) => number,
  webhooks: Parameters<typeof startTestStandIn>[0] = {},
) {
  receiver = await startWebhookReceiver(reply);
  standIn = await startTestStandIn({
    appUrl: receiver.url,
    ...webhooks,
    webhooks: { retryDelayMs: 5, ...webhooks.webhooks },
  });
  return { standIn, receiver };
}

function header(webhook: ReceivedWebhook | undefined, name: string): string | undefined {
  const value = webhook?.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

describe("webhooks from the stand-in", () => {
  it("sends fulfillments/create when the merchant fulfills, signed so the app's webhook authentication accepts it", async () => {
    const { standIn, receiver } = await start(undefined, {
      webhooks: { topics: ["fulfillments/create"] },
    });
    const order = standIn.store.addOrder({ payment: "cod", lineItems: [{ quantity: 2 }] });
    const fulfillment = standIn.store.fulfillOrder(order.name, {
      tracking: {
        company: "Kuwait Courier",
        number: "KW100001",
        url: "https://track.example/KW100001",
      },
    });
    await standIn.webhooks.flush();

    expect(receiver.received).toHaveLength(1);
    const [webhook] = receiver.received;
    expect(webhook?.path).toBe("/webhooks/fulfillments/create");
    expect(header(webhook, "X-Shopify-Hmac-Sha256")).toBe(getHmac(webhook!.body, API_SECRET_KEY));
    expect(header(webhook, "X-Shopify-Triggered-At")).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(header(webhook, "X-Shopify-Event-Id")).toMatch(/^[0-9a-f-]{36}$/);

    const verified = await authenticate.webhook(asRequest(webhook!, APP_URL));
    expect(verified).toMatchObject({
      topic: "FULFILLMENTS_CREATE",
      shop: standIn.shop,
      apiVersion: ADMIN_API_VERSION,
      webhookId: header(webhook, "X-Shopify-Webhook-Id"),
    });
    expect(verified.payload).toMatchObject({
      id: fulfillment.id,
      admin_graphql_api_id: gid("Fulfillment", fulfillment.id),
      order_id: order.id,
      name: "#1001.1",
      status: "success",
      location_id: order.fulfillmentOrders[0]!.locationId,
      tracking_company: "Kuwait Courier",
      tracking_number: "KW100001",
      tracking_numbers: ["KW100001"],
      tracking_url: "https://track.example/KW100001",
      shipment_status: null,
      destination: { city: "Salmiya", province_code: "KW-HA", country_code: "KW", zip: null },
      line_items: [
        expect.objectContaining({
          id: order.lineItems[0]!.id,
          admin_graphql_api_id: gid("LineItem", order.lineItems[0]!.id),
          quantity: 2,
          sku: "OUD-50",
          grams: 350,
          price: "12.500",
        }),
      ],
    });
    // REST payloads give times in the shop's zone.
    expect((verified.payload as { created_at: string }).created_at).toMatch(/\+03:00$/);
  });

  it("is refused by the app when the body was tampered with", async () => {
    const { standIn, receiver } = await start(undefined, {
      webhooks: { topics: ["fulfillments/create"] },
    });
    standIn.store.fulfillOrder(standIn.store.addOrder().id);
    await standIn.webhooks.flush();
    const tampered = {
      ...receiver.received[0]!,
      body: receiver.received[0]!.body.replace("success", "cancelled"),
    };
    const outcome = await authenticate
      .webhook(asRequest(tampered, APP_URL))
      .catch((e: unknown) => e);
    expect(outcome).toBeInstanceOf(Response);
    expect((outcome as Response).status).toBe(401);
  });

  it("sends fulfillments/create when the app fulfills through the Admin API", async () => {
    const { standIn, receiver } = await start(undefined, {
      webhooks: { topics: ["fulfillments/create", "orders/fulfilled"] },
    });
    const order = standIn.store.addOrder();
    const { token } = standIn.auth.issueAccessToken();
    const reply = await postGraphql(
      standIn,
      token,
      `mutation FulfillOrder($fulfillment: FulfillmentInput!) {
        fulfillmentCreate(fulfillment: $fulfillment) { fulfillment { id } userErrors { field message } }
      }`,
      {
        fulfillment: {
          lineItemsByFulfillmentOrder: [
            { fulfillmentOrderId: gid("FulfillmentOrder", order.fulfillmentOrders[0]!.id) },
          ],
          trackingInfo: { number: "KW100009" },
        },
      },
    );
    expect(reply.status).toBe(200);
    expect(reply.body.data?.fulfillmentCreate.userErrors).toEqual([]);
    await standIn.webhooks.flush();
    expect(receiver.received.map((w) => w.path)).toEqual([
      "/webhooks/fulfillments/create",
      "/webhooks/orders/fulfilled",
    ]);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      order_id: order.id,
      tracking_number: "KW100009",
    });
  });

  it("retries a webhook the app failed, with the same id and signature, until it is accepted", async () => {
    const { standIn, receiver } = await start((_webhook, index) => [500, 503, 200][index] ?? 200, {
      webhooks: { topics: ["fulfillments/create"] },
    });
    standIn.store.fulfillOrder(standIn.store.addOrder().id);
    await standIn.webhooks.flush();

    const [delivery] = standIn.webhooks.of("fulfillments/create");
    expect(delivery?.state).toBe("delivered");
    expect(delivery?.attempts.map((a) => a.status)).toEqual([500, 503, 200]);
    const created = receiver.received.filter((w) => w.path === "/webhooks/fulfillments/create");
    expect(created).toHaveLength(3);
    expect(new Set(created.map((w) => header(w, "X-Shopify-Webhook-Id")))).toEqual(
      new Set([delivery!.webhookId]),
    );
    expect(new Set(created.map((w) => header(w, "X-Shopify-Hmac-Sha256"))).size).toBe(1);
  });

  it("gives up after the last attempt, and records an unreachable app as no status", async () => {
    const { standIn } = await start(() => 500, {
      webhooks: { attempts: 2, topics: ["fulfillments/create"] },
    });
    standIn.store.fulfillOrder(standIn.store.addOrder().id);
    await standIn.webhooks.flush();
    expect(standIn.webhooks.deliveries[0]).toMatchObject({
      state: "failed",
      attempts: [{ status: 500 }, { status: 500 }],
    });

    await receiver!.close();
    receiver = undefined;
    standIn.store.fulfillOrder(standIn.store.addOrder().id);
    await standIn.webhooks.flush();
    expect(standIn.webhooks.deliveries[1]).toMatchObject({
      state: "failed",
      attempts: [
        { status: null, error: expect.any(String) },
        { status: null, error: expect.any(String) },
      ],
    });
  });

  it("redelivers one webhook many times at once with the same id, body and signature", async () => {
    const { standIn, receiver } = await start(undefined, {
      webhooks: { topics: ["fulfillments/create"] },
    });
    standIn.store.fulfillOrder(standIn.store.addOrder().id);
    await standIn.webhooks.flush();
    const [original] = standIn.webhooks.deliveries;

    const copies = await standIn.webhooks.redeliver(original!.webhookId, {
      times: 5,
      concurrent: true,
    });
    expect(copies).toHaveLength(5);
    expect(
      copies.every((c) => c.state === "delivered" && c.redeliveryOf === original!.webhookId),
    ).toBe(true);
    expect(receiver.received).toHaveLength(6);
    expect(new Set(receiver.received.map((w) => header(w, "X-Shopify-Webhook-Id")))).toEqual(
      new Set([original!.webhookId]),
    );
    expect(new Set(receiver.received.map((w) => w.body)).size).toBe(1);
    expect(new Set(receiver.received.map((w) => header(w, "X-Shopify-Event-Id"))).size).toBe(1);
    expect(standIn.webhooks.of("fulfillments/create")).toHaveLength(1);
    expect(standIn.webhooks.of("fulfillments/create", true)).toHaveLength(6);
  });

  it("announces a cancelled fulfillment and a cancelled order, and only the topics the app subscribed to", async () => {
    const { standIn, receiver } = await start(undefined, {
      webhooks: { topics: ["fulfillments/create", "fulfillments/update", "orders/cancelled"] },
    });
    const order = standIn.store.addOrder({ payment: "cod" });
    const fulfillment = standIn.store.fulfillOrder(order.id);
    standIn.store.addFulfillmentEvent(fulfillment.id, { status: "IN_TRANSIT" });
    standIn.store.cancelFulfillment(fulfillment.id);
    standIn.store.cancelOrder(order.id, { reason: "CUSTOMER" });
    standIn.store.addOrder({ payment: "cod" });
    standIn.store.markOrderAsPaid("#1002");
    await standIn.webhooks.flush();

    const topics = standIn.webhooks.deliveries.map((d) => d.topic);
    expect(topics).toEqual([
      "fulfillments/create",
      "fulfillments/update",
      "fulfillments/update",
      "orders/cancelled",
    ]);
    const [, inTransit, cancelled, orderCancelled] = standIn.webhooks.deliveries.map(
      (d) => d.payload,
    ) as Record<string, unknown>[];
    expect(inTransit).toMatchObject({ status: "success", shipment_status: "in_transit" });
    expect(cancelled).toMatchObject({ id: fulfillment.id, status: "cancelled" });
    expect(orderCancelled).toMatchObject({
      id: order.id,
      name: "#1001",
      cancel_reason: "customer",
      financial_status: "voided",
      fulfillment_status: null,
      cancelled_at: expect.stringMatching(/\+03:00$/),
    });
    expect(receiver.received).toHaveLength(4);
  });

  it("sends only what shopify.app.toml subscribes to, each to its uri", async () => {
    receiver = await startWebhookReceiver();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "standin-toml-"));
    const toml = path.join(dir, "shopify.app.toml");
    fs.writeFileSync(
      toml,
      `[webhooks]
api_version = "2026-10"

  [[webhooks.subscriptions]]
  topics = ["app/uninstalled"]
  uri = "/webhooks/app/uninstalled"

  [[webhooks.subscriptions]]
  topics = ["fulfillments/create", "fulfillments/update"]
  uri = "/webhooks/fulfillments"

  [[webhooks.subscriptions]]
  topics = ["orders/cancelled"]
  uri = "${receiver.url}/elsewhere/orders-cancelled"
`,
    );
    try {
      const subscriptions = subscriptionsFromAppToml(toml);
      expect(subscriptions).toMatchObject({
        topics: ["fulfillments/create", "fulfillments/update", "orders/cancelled"],
        apiVersion: "2026-10",
        unsupported: ["app/uninstalled"],
      });
      standIn = await startTestStandIn({
        appUrl: receiver.url,
        webhooks: { topics: subscriptions.topics, path: subscriptions.path },
      });
      const order = standIn.store.addOrder({ payment: "cod" });
      standIn.store.cancelFulfillment(standIn.store.fulfillOrder(order.id).id);
      standIn.store.cancelOrder(order.id);
      await standIn.webhooks.flush();
      expect(receiver.received.map((w) => [w.path, header(w, "X-Shopify-Topic")])).toEqual([
        ["/webhooks/fulfillments", "fulfillments/create"],
        ["/webhooks/fulfillments", "fulfillments/update"],
        ["/elsewhere/orders-cancelled", "orders/cancelled"],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads the app's own shopify.app.toml at the app's API version", () => {
    expect(subscriptionsFromAppToml(path.join(ROOT, "shopify.app.toml")).apiVersion).toBe(
      ADMIN_API_VERSION,
    );
  });
});
