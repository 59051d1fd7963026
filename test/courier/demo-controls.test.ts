import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { buildCreateOrderBody } from "../../app/courier";
import { customersDataRequestPayload } from "../../app/shopify/webhook-payloads";
import {
  DEFAULT_SANDBOX_KEY,
  startCourierSandbox,
  type CourierSandbox,
} from "../../sandbox/courier";
import { verifyShopifyWebhook } from "../../app/shopify/webhook-hmac";
import { seedDemoStore, ShopifyStandInStore } from "../../sandbox/shopify";
import { demoControls } from "../../scripts/support/demo-controls";
import { orderInput } from "./fixtures";

// The demo's bar and curl commands (npm run demo), against the courier sandbox and the Shopify
// stand-in's store, the app stood in for by a receiver of its privacy webhook.
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

const SECRET = "demo-client-secret";

async function demo(options: { stepIntervalMs?: number } = {}) {
  const courier = await startCourierSandbox(options);
  closing.push(() => courier.close());
  const received: { body: string; headers: http.IncomingHttpHeaders }[] = [];
  const app = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ body: Buffer.concat(chunks).toString(), headers: req.headers });
      res.end();
    });
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  closing.push(() => new Promise((resolve) => app.close(() => resolve())));
  const store = new ShopifyStandInStore({ shop: "demo-store.myshopify.com", name: "Demo" });
  seedDemoStore(store);
  const controls = demoControls({
    courier,
    store,
    appUrl: `http://127.0.0.1:${(app.address() as AddressInfo).port}`,
    apiSecret: SECRET,
    dataRequestPath: "/webhooks/customers/data_request",
    apiVersion: "2025-10",
  });
  return { courier, store, controls, received };
}

async function courierOrder(courier: CourierSandbox) {
  const response = await fetch(`${courier.url}/api/orders/create`, {
    method: "POST",
    headers: { authorization: `ApiKey ${DEFAULT_SANDBOX_KEY}`, "content-type": "application/json" },
    body: JSON.stringify(buildCreateOrderBody(orderInput(courier))),
  });
  const { orderId } = ((await response.json()) as { results: { orderId: string } }).results;
  return courier.orders.get(orderId)!;
}

describe("the demo's controls", () => {
  it("makes the newest delivery fail, then fail again with an address exception, then return", async () => {
    const { courier, controls } = await demo();
    await courierOrder(courier);
    const newest = await courierOrder(courier);
    expect(await controls.run("fail")).toEqual({
      ok: true,
      command: "fail",
      orderNumber: newest.orderNumber,
      status: "delivery_failed",
    });
    expect(courier.exceptions.at(-1)).toMatchObject({
      orderNumber: newest.orderNumber,
      type: "delivery_failed",
    });
    // Failed already, it goes out for delivery again and fails anew.
    expect(await controls.run("exception")).toMatchObject({
      ok: true,
      orderNumber: newest.orderNumber,
    });
    expect(courier.exceptions.at(-1)).toMatchObject({
      orderNumber: newest.orderNumber,
      type: "address_problem",
    });
    expect(newest.history.map((h) => h.status).slice(-3)).toEqual([
      "delivery_failed",
      "out_for_delivery",
      "delivery_failed",
    ]);
    expect(await controls.run("return")).toMatchObject({ ok: true, status: "returned" });
    expect(newest.status).toBe("returned");
    expect(await controls.run("fail", newest.orderNumber)).toMatchObject({
      ok: false,
      error: `Order ${newest.orderNumber} is returned to sender, a final status: it moves no further.`,
    });
  });

  it("moves the next order when the newest has finished, and says why when none can", async () => {
    const { courier, controls } = await demo();
    const older = await courierOrder(courier);
    const newest = await courierOrder(courier);
    courier.advance(newest.orderId, "delivered");
    expect(await controls.run("return")).toMatchObject({ orderNumber: older.orderNumber });
    expect(await controls.run("fail")).toEqual({
      ok: false,
      command: "fail",
      error: expect.stringMatching(/^No courier order can get there now\. Order KW\d+ is/),
    });
    expect(await controls.run("fail", newest.orderNumber)).toEqual({
      ok: false,
      command: "fail",
      error: `Order ${newest.orderNumber} is delivered, a final status: it moves no further.`,
    });
  });

  it("sets the courier's speed and pauses it", async () => {
    const { courier, controls } = await demo({ stepIntervalMs: 60_000 });
    expect(await controls.run("speed/fast")).toEqual({
      ok: true,
      command: "speed",
      stepSeconds: 10,
      paused: false,
    });
    expect(courier.clock.stepMs).toBe(10_000);
    expect(await controls.run("pause")).toMatchObject({ paused: true });
    expect(courier.clock.paused).toBe(true);
    expect(await controls.run("resume")).toMatchObject({ paused: false });
    expect(await controls.run("speed/0")).toMatchObject({ ok: false });
  });

  it("sends a privacy request signed as Shopify signs it, for an order sent to the courier", async () => {
    const { store, controls, received } = await demo();
    const order = store.orders()[0]!;
    store.fulfillOrder(order.id);
    expect(await controls.run("privacy")).toEqual({
      ok: true,
      command: "privacy",
      orderNumber: order.name,
    });
    expect(received).toHaveLength(1);
    const [request] = received;
    // As the app's webhook routes check it: signature and every header Shopify sends.
    expect(
      verifyShopifyWebhook(request!.body, (name) => request!.headers[name] as string, SECRET),
    ).toMatchObject({ ok: true, topic: "CUSTOMERS_DATA_REQUEST", shop: store.shop.domain });
    const payload = customersDataRequestPayload.parse(JSON.parse(request!.body));
    expect(payload.orders_requested).toEqual([String(order.id)]);
  });

  it("answers the bar over HTTP, and lets the app's pages read the answer", async () => {
    const { controls } = await demo({ stepIntervalMs: 60_000 });
    const server = http.createServer((req, res) => {
      void controls.handle(req, res).then((handled) => {
        if (!handled) res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closing.push(() => new Promise((resolve) => server.close(() => resolve())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const answer = await fetch(`${base}/demo/speed/slow`, { method: "POST" });
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(await answer.json()).toMatchObject({ stepSeconds: 120 });
    expect((await fetch(`${base}/demo/fail`, { method: "GET" })).status).toBe(405);
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
  });
});
