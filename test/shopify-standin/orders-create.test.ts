import { API_SECRET_KEY, APP_URL, getHmac } from "@shopify/shopify-api/test-helpers";
import { afterEach, describe, expect, it } from "vitest";
import { authenticate } from "../../app/shopify.server";
import { gid, type ShopifyStandIn, type WebhookTopic } from "../../sandbox/shopify";
import {
  asRequest,
  runGraphql,
  startTestStandIn,
  startWebhookReceiver,
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

async function start(topics: WebhookTopic[] = ["orders/create"]) {
  receiver = await startWebhookReceiver();
  standIn = await startTestStandIn({
    appUrl: receiver.url,
    clock: () => Date.parse("2026-12-01T09:30:00Z"),
    webhooks: { topics, retryDelayMs: 5 },
  });
  return { standIn, receiver };
}

type Payload = Record<string, unknown>;

/** The orders/create payloads the receiver got, parsed. */
function received(receiver: WebhookReceiver): Payload[] {
  return receiver.received
    .filter((w) => w.path === "/webhooks/orders/create")
    .map((w) => JSON.parse(w.body) as Payload);
}

describe("orders/create from the stand-in", () => {
  it("is sent when an order is added, signed so the app's webhook authentication accepts it", async () => {
    const { standIn, receiver } = await start();
    const order = standIn.store.addOrder();
    await standIn.webhooks.flush();

    expect(receiver.received.map((w) => w.path)).toEqual(["/webhooks/orders/create"]);
    const [webhook] = receiver.received;
    expect(webhook!.headers["x-shopify-hmac-sha256"]).toBe(getHmac(webhook!.body, API_SECRET_KEY));
    const verified = await authenticate.webhook(asRequest(webhook!, APP_URL));
    expect(verified).toMatchObject({ topic: "ORDERS_CREATE", shop: standIn.shop });
    expect(verified.payload).toMatchObject({
      id: order.id,
      admin_graphql_api_id: gid("Order", order.id),
      name: "#1001",
      created_at: "2026-12-01T12:30:00+03:00",
    });
  });

  it("gives a cash on delivery order as pending with its whole total outstanding", async () => {
    const { standIn, receiver } = await start();
    standIn.store.addOrder({ payment: "cod", lineItems: [{ quantity: 2, price: "12.500" }] });
    await standIn.webhooks.flush();
    expect(received(receiver)[0]).toMatchObject({
      financial_status: "pending",
      total_price: "26.000",
      total_outstanding: "26.000",
      currency: "KWD",
      presentment_currency: "KWD",
      payment_gateway_names: ["Cash on Delivery (COD)"],
      fulfillment_status: null,
    });
  });

  it("gives a prepaid order as paid with nothing outstanding", async () => {
    const { standIn, receiver } = await start();
    standIn.store.addOrder({ payment: "paid" });
    await standIn.webhooks.flush();
    expect(received(receiver)[0]).toMatchObject({
      financial_status: "paid",
      total_price: "13.500",
      total_outstanding: "0.000",
      payment_gateway_names: ["shopify_payments"],
    });
  });

  it("carries the contact, note and language the shopper gave", async () => {
    const { standIn, receiver } = await start();
    standIn.store.addOrder({
      email: "maryam@example.com",
      phone: "+96555512345",
      note: "قرب الجمعية، الباب الأزرق",
      customerLocale: "ar",
    });
    await standIn.webhooks.flush();
    expect(received(receiver)[0]).toMatchObject({
      email: "maryam@example.com",
      phone: "+96555512345",
      note: "قرب الجمعية، الباب الأزرق",
      customer_locale: "ar",
    });
  });

  it("carries the shipping address with its codes, name and coordinates", async () => {
    const { standIn, receiver } = await start();
    standIn.store.addOrder({
      shippingAddress: {
        firstName: "Yousef",
        lastName: "Al-Rashidi",
        address1: "Block 3, Street 5, House 12",
        address2: "Avenue 2",
        city: "Jahra",
        provinceCode: "KW-JA",
        phone: "+96566677788",
        latitude: 29.3375,
        longitude: 47.6581,
      },
    });
    await standIn.webhooks.flush();
    expect(received(receiver)[0]!.shipping_address).toEqual({
      first_name: "Yousef",
      last_name: "Al-Rashidi",
      name: "Yousef Al-Rashidi",
      company: null,
      address1: "Block 3, Street 5, House 12",
      address2: "Avenue 2",
      city: "Jahra",
      province: "Al Jahra",
      province_code: "KW-JA",
      zip: null,
      country: "Kuwait",
      country_code: "KW",
      phone: "+96566677788",
      latitude: 29.3375,
      longitude: 47.6581,
    });
  });

  it("carries each line item with its ids, price, grams and variant title", async () => {
    const { standIn, receiver } = await start();
    const order = standIn.store.addOrder({
      lineItems: [
        { quantity: 2 },
        { title: "Dates Box", variantTitle: "1 kg", price: "9", grams: 1200 },
      ],
    });
    await standIn.webhooks.flush();
    const [first, second] = order.lineItems;
    expect(received(receiver)[0]!.line_items).toEqual([
      expect.objectContaining({
        id: first!.id,
        admin_graphql_api_id: gid("LineItem", first!.id),
        title: "Oud Perfume",
        variant_title: "50 ml",
        quantity: 2,
        price: "12.500",
        grams: 350,
      }),
      expect.objectContaining({
        id: second!.id,
        admin_graphql_api_id: gid("LineItem", second!.id),
        title: "Dates Box",
        variant_title: "1 kg",
        quantity: 1,
        price: "9.000",
        grams: 1200,
      }),
    ]);
  });

  it("is not sent to an app that did not subscribe to it", async () => {
    const { standIn, receiver } = await start(["fulfillments/create"]);
    standIn.store.addOrder();
    await standIn.webhooks.flush();
    expect(receiver.received).toEqual([]);
    expect(standIn.webhooks.deliveries).toEqual([]);
  });

  it("can be lost, and redelivered later with the same id and signature", async () => {
    const { standIn, receiver } = await start();
    standIn.webhooks.dropNext(1, "orders/create");
    standIn.store.addOrder();
    await standIn.webhooks.flush();
    const [lost] = standIn.webhooks.of("orders/create");
    expect(lost?.state).toBe("dropped");
    expect(receiver.received).toEqual([]);

    await standIn.webhooks.redeliver(lost!.webhookId);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers["x-shopify-webhook-id"]).toBe(lost!.webhookId);
    expect(receiver.received[0]!.headers["x-shopify-hmac-sha256"]).toBe(
      lost!.headers["X-Shopify-Hmac-Sha256"],
    );
  });

  it("comes before the fulfillment orders of an order routed later", async () => {
    const { standIn, receiver } = await start();
    const order = standIn.store.addOrder({ routed: false });
    await standIn.webhooks.flush();
    expect(received(receiver)).toHaveLength(1);
    const query = `query Routed($id: ID!) {
      order(id: $id) { fulfillmentOrders(first: 5) { nodes { id status } } }
    }`;
    const before = runGraphql(standIn.api, query, { id: gid("Order", order.id) });
    expect(before.data?.order.fulfillmentOrders.nodes).toEqual([]);

    standIn.store.routeOrder(order.id);
    const after = runGraphql(standIn.api, query, { id: gid("Order", order.id) });
    expect(after.data?.order.fulfillmentOrders.nodes).toEqual([
      { id: gid("FulfillmentOrder", order.fulfillmentOrders[0]!.id), status: "OPEN" },
    ]);
  });
});
