import { spawn } from "node:child_process";
import { API_KEY, API_SECRET_KEY, APP_URL } from "@shopify/shopify-api/test-helpers";
import { afterEach, describe, expect, it } from "vitest";
import {
  seedDemoStore,
  ShopifyStandInStore,
  verifySessionToken,
  type ShopifyStandIn,
} from "../../sandbox/shopify";
import { ROOT } from "../support/paths";
import { startTestStandIn, startWebhookReceiver, type WebhookReceiver } from "./support";

let standIn: ShopifyStandIn | undefined;
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await standIn?.close();
  await receiver?.close();
  standIn = undefined;
  receiver = undefined;
});

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${standIn!.url}/__standin/${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe("the control API", () => {
  it("adds, lists and fulfills orders by name, and redelivers the webhooks that follow", async () => {
    receiver = await startWebhookReceiver();
    standIn = await startTestStandIn({
      appUrl: receiver.url,
      webhooks: { topics: ["fulfillments/create"] },
    });

    const created = await call("POST", "orders", {
      payment: "cod",
      shippingAddress: { city: "Jahra", provinceCode: "KW-JA" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "#1001",
      financialStatus: "PENDING",
      totalOutstanding: "13.500",
      displayFulfillmentStatus: "UNFULFILLED",
      shippingAddress: { city: "Jahra", province: "Al Jahra" },
    });
    expect((await call("GET", "orders")).body).toHaveLength(1);

    const fulfilled = await call("POST", `orders/${encodeURIComponent("#1001")}/fulfill`, {
      tracking: { number: "KW100001" },
    });
    expect(fulfilled).toMatchObject({
      status: 201,
      body: { name: "#1001.1", trackingInfo: [{ number: "KW100001" }] },
    });
    expect((await call("POST", "orders/1001/fulfill")).status).toBe(400);
    expect((await call("POST", "orders/9999/fulfill")).status).toBe(404);

    await standIn.webhooks.flush();
    const [delivery] = (await call("GET", "webhooks")).body;
    const redelivered = await call("POST", `webhooks/${delivery.webhookId}/redeliver`, {
      times: 3,
      concurrent: true,
    });
    expect(redelivered.body.map((d: { state: string }) => d.state)).toEqual([
      "delivered",
      "delivered",
      "delivered",
    ]);
    expect(receiver.received).toHaveLength(4);

    const log = await call("GET", "graphql");
    expect(log.body).toEqual([]);
  });

  it("sends orders/create for an order added through it", async () => {
    receiver = await startWebhookReceiver();
    standIn = await startTestStandIn({
      appUrl: receiver.url,
      webhooks: { topics: ["orders/create"] },
    });
    const created = await call("POST", "orders", { payment: "cod" });
    await standIn.webhooks.flush();
    expect(receiver.received.map((w) => w.path)).toEqual(["/webhooks/orders/create"]);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      id: created.body.id,
      financial_status: "pending",
    });
  });

  it("holds a fulfillment order as the merchant and releases it", async () => {
    standIn = await startTestStandIn();
    const order = (await call("POST", "orders", {})).body;
    const foId = order.fulfillmentOrders[0].id;

    const held = await call("POST", `fulfillment-orders/${foId}/hold`, {
      reason: "INCORRECT_ADDRESS",
      reasonNotes: "Called the shopper",
    });
    expect(held).toMatchObject({
      status: 201,
      body: { reason: "INCORRECT_ADDRESS", heldBy: "merchant", releasedAt: null },
    });
    expect((await call("GET", `orders/${order.id}`)).body).toMatchObject({
      displayFulfillmentStatus: "ON_HOLD",
      fulfillmentHolds: [{ id: held.body.id }],
    });
    expect((await call("POST", `orders/${order.id}/fulfill`)).status).toBe(400);

    const released = await call("POST", `fulfillment-orders/${foId}/release-hold`, {
      holdIds: [held.body.id],
    });
    expect(released).toMatchObject({ status: 200, body: { status: "OPEN" } });
    expect((await call("POST", "fulfillment-orders/1/hold", {})).status).toBe(404);
  });

  it("updates an order's shipping address and metafields as the merchant", async () => {
    standIn = await startTestStandIn();
    await call("POST", "orders", {});
    const updated = await call("POST", "orders/1001/update", {
      shippingAddress: { city: "Jahra", provinceCode: "KW-JA" },
      metafields: [{ namespace: "kuwait_courier", key: "answer", type: "boolean", value: "true" }],
    });
    expect(updated).toMatchObject({
      status: 200,
      body: {
        shippingAddress: { city: "Jahra", province: "Al Jahra" },
        metafields: [{ namespace: "kuwait_courier", key: "answer", value: "true" }],
      },
    });
    const refused = await call("POST", "orders/1001/update", {
      shippingAddress: { provinceCode: "KW-XX" },
    });
    expect(refused).toEqual({
      status: 400,
      body: { error: "Province code KW-XX is not a province of Kuwait." },
    });
  });

  it("routes an order added without its fulfillment orders", async () => {
    standIn = await startTestStandIn();
    const order = (await call("POST", "orders", { routed: false })).body;
    expect(order.fulfillmentOrders).toEqual([]);
    const routed = await call("POST", `orders/${order.id}/route`);
    expect(routed.body.fulfillmentOrders).toHaveLength(1);
    expect((await call("POST", `orders/${order.id}/route`)).status).toBe(400);
  });

  it("hands out an admin URL with a valid session token for the demo's browser", async () => {
    standIn = await startTestStandIn({ appUrl: APP_URL });
    const { body } = await call("GET", "admin-url?path=/app/settings");
    const url = new URL(body.url);
    expect(url.origin + url.pathname).toBe(`${APP_URL}/app/settings`);
    expect(url.searchParams.get("shop")).toBe(standIn.shop);
    expect(Buffer.from(url.searchParams.get("host")!, "base64").toString()).toBe(
      "admin.shopify.com/store/demo-store",
    );
    const verified = verifySessionToken(url.searchParams.get("id_token")!, {
      apiKey: API_KEY,
      apiSecret: API_SECRET_KEY,
      shop: standIn.shop,
      now: Date.now(),
    });
    expect(verified.ok).toBe(true);
  });
});

describe("the demo seed and the command line", () => {
  it("seeds two locations and orders with the addresses Kuwaiti shoppers type", () => {
    const store = new ShopifyStandInStore();
    const orders = seedDemoStore(store);
    expect(store.locations().map((l) => l.name)).toEqual(["Shuwaikh Warehouse", "Salmiya Shop"]);
    expect(orders.length).toBeGreaterThanOrEqual(6);
    expect(orders.some((o) => o.financialStatus === "PENDING")).toBe(true);
    expect(orders.some((o) => /[\u0600-\u06FF]/.test(o.shippingAddress?.address1 ?? ""))).toBe(
      true,
    );
    // One order is split across both locations.
    expect(orders.some((o) => o.fulfillmentOrders.length === 2)).toBe(true);
  });

  it("starts from `tsx sandbox/shopify/cli.ts` and prints its URL first", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "sandbox/shopify/cli.ts", "--port", "0", "--quiet"],
      {
        cwd: ROOT,
        env: { ...process.env, SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET_KEY },
      },
    );
    try {
      const firstLine = await new Promise<string>((resolve, reject) => {
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes("\n")) resolve(output.split("\n")[0]!);
        });
        child.on("exit", (code) => reject(new Error(`the CLI exited with ${code}: ${output}`)));
      });
      const url = /^Shopify stand-in listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(
        firstLine,
      )?.[1];
      expect(url).toBeDefined();
      const orders = (await (await fetch(`${url}/__standin/orders`)).json()) as unknown[];
      expect(orders.length).toBeGreaterThanOrEqual(6);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
