import { getGlobalDispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { receiveFulfillment } from "../../app/deliveries/intake.server";
import { INTENT_GRACE_MS, intentReference } from "../../app/deliveries/send.server";
import { action as sendAction, loader as sendLoader } from "../../app/routes/app.send";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { gid, routeShopifyToStandIn, type ShopifyStandIn } from "../../sandbox/shopify";
import { startTestStandIn } from "../shopify-standin/support";
import { adminApi } from "../support/admin-api";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import {
  fulfillmentPayload,
  PICKUP_LOCATION_ID,
  programShopify,
  readyShop,
  testWorker,
  type FakeOrder,
} from "../support/pipeline";
import { adminFetchRequest, callRoute, shopDomain, webhookRequest } from "../support/shopify";

const shop = shopDomain("by-hand");
const sandbox = setUpCourierSandbox();

const order: FakeOrder = {
  fulfillmentNumber: 8001,
  orderNumber: 4001,
  city: "Salmiya",
  address1: "Block 10 Street 5 House 12",
  provinceCode: "KW-HA",
};
const orderId = `gid://shopify/Order/${order.orderNumber}`;
const FULFILLMENT_ORDER_ID = "gid://shopify/FulfillmentOrder/9001";
const FULFILLMENT_ID = `gid://shopify/Fulfillment/${order.fulfillmentNumber}`;

/**
 * What Shopify does with fulfillmentCreate: fulfils and answers ("ok"), refuses with a user
 * error ("refuse"), or fulfils and the answer never arrives ("lose").
 */
type FulfilBehaviour = "ok" | "refuse" | "lose";

function programSendable(
  options: {
    duringFulfil?: () => void;
    fulfil?: (attempt: number) => FulfilBehaviour;
    /** Shopify answers the question what became of the fulfillment order (default), or not. */
    outcomeAnswered?: boolean;
  } = {},
) {
  const fulfilled: string[] = [];
  const attempts: string[] = [];
  const orderNode = () => ({
    id: orderId,
    name: `#${order.orderNumber}`,
    createdAt: "2026-11-22T08:00:00Z",
    displayFinancialStatus: "PAID",
    totalPriceSet: { shopMoney: { amount: "24.500", currencyCode: "KWD" } },
    shippingAddress: {
      address1: order.address1,
      address2: null,
      city: order.city,
      zip: null,
      provinceCode: "KW-HA",
      countryCodeV2: "KW",
    },
    fulfillmentOrders: {
      nodes: [
        {
          id: FULFILLMENT_ORDER_ID,
          status: fulfilled.length ? "CLOSED" : "OPEN",
          assignedLocation: { location: { id: PICKUP_LOCATION_ID } },
        },
      ],
    },
  });
  adminApi.on("SendableOrders", () => ({ data: { orders: { nodes: [orderNode()] } } }));
  adminApi.on("SendOrdersById", (variables) => ({
    data: {
      nodes: (variables.ids as string[]).map((id) => (id === orderId ? orderNode() : null)),
    },
  }));
  adminApi.on("SendFulfillment", (variables) => {
    attempts.push(JSON.stringify(variables));
    const behaviour = options.fulfil?.(attempts.length) ?? "ok";
    if (behaviour === "refuse") {
      return {
        data: {
          fulfillmentCreate: {
            fulfillment: null,
            userErrors: [{ field: ["fulfillment"], message: "The location is not active." }],
          },
        },
      };
    }
    fulfilled.push(JSON.stringify(variables));
    options.duringFulfil?.();
    // The connection drops after Shopify did the work: the app never hears of it.
    if (behaviour === "lose") throw new Error("socket hang up");
    return {
      data: {
        fulfillmentCreate: {
          fulfillment: { id: FULFILLMENT_ID, status: "SUCCESS" },
          userErrors: [],
        },
      },
    };
  });
  adminApi.on("SendFulfillmentOrderOutcome", () => {
    if (options.outcomeAnswered === false) throw new Error("socket hang up");
    return {
      data: {
        fulfillmentOrder: {
          status: fulfilled.length ? "CLOSED" : "OPEN",
          fulfillments: {
            nodes: fulfilled.length ? [{ id: FULFILLMENT_ID, status: "SUCCESS" }] : [],
          },
        },
      },
    };
  });
  return { fulfilled, attempts };
}

async function post(shopDomainName: string, form: URLSearchParams) {
  const request = await adminFetchRequest(shopDomainName, "/app/send", { method: "POST" });
  const withBody = new Request(request.url, {
    method: "POST",
    headers: request.headers,
    body: form,
  });
  return callRoute(sendAction, withBody);
}

async function send(orderIds: string[], options: { shop?: string; selected?: number } = {}) {
  const form = new URLSearchParams({ intent: "send" });
  if (options.selected !== undefined) form.set("selected", String(options.selected));
  for (const id of orderIds) form.append("orderIds", id);
  return (await post(options.shop ?? shop, form)).json();
}

async function webhookFor(fake: FakeOrder) {
  return callRoute(
    fulfillmentsCreate,
    webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(fake) }),
  );
}

describe("Send to courier, by hand", () => {
  it("fulfils the order in Shopify, and the webhook that follows does not make a second delivery", async () => {
    await readyShop(shop);
    programShopify([order]);
    const { fulfilled } = programSendable();
    const page = await (
      await callRoute(sendLoader, await adminFetchRequest(shop, "/app/send"))
    ).json();
    expect(page.orders.map((o: { name: string }) => o.name)).toEqual(["#4001"]);

    const result = await send([orderId]);
    expect(result.outcomes).toMatchObject([{ ok: true, orderName: "#4001" }]);
    expect(fulfilled).toHaveLength(1);

    const webhook = await webhookFor(order);
    expect(webhook.status).toBe(200);
    await testWorker().drain();
    const deliveries = await prisma.delivery.findMany({ where: { shop } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      source: "manual",
      state: "created",
      fulfillmentId: FULFILLMENT_ID,
    });
    expect(sandbox().orders.size).toBe(1);
  });

  it("makes one delivery when the webhook overtakes the app's own bookkeeping", async () => {
    await readyShop(shop);
    programShopify([order]);
    let early: Promise<unknown> | undefined;
    programSendable({
      duringFulfil: () => {
        early = receiveFulfillment(shop, {
          id: String(order.fulfillmentNumber),
          admin_graphql_api_id: FULFILLMENT_ID,
          order_id: String(order.orderNumber),
          location_id: PICKUP_LOCATION_ID.split("/").pop()!,
          name: "#4001.1",
          status: "success",
          destination: { country_code: "KW" },
        });
      },
    });
    await send([orderId]);
    await early;
    await testWorker().drain();
    expect(await prisma.delivery.count({ where: { shop } })).toBe(1);
    expect(sandbox().orders.size).toBe(1);
  });

  it("refuses to send the same order twice", async () => {
    await readyShop(shop);
    programShopify([order]);
    programSendable();
    await send([orderId]);
    const again = await send([orderId]);
    expect(again.outcomes[0]).toMatchObject({ ok: false });
    expect(await prisma.delivery.count({ where: { shop } })).toBe(1);
  });

  it("says why an order cannot be sent and fulfils nothing", async () => {
    await readyShop(shop);
    await prisma.pickupLocation.deleteMany({ where: { shop } });
    const { fulfilled } = programSendable();
    const result = await send([orderId]);
    expect(result.outcomes[0].error).toMatch(/no confirmed pickup address/);
    expect(fulfilled).toHaveLength(0);
  });

  it("lets the merchant send an order again after Shopify refused to fulfil it", async () => {
    await readyShop(shop);
    programShopify([order]);
    const { fulfilled } = programSendable({ fulfil: (n) => (n === 1 ? "refuse" : "ok") });

    const refused = await send([orderId]);
    expect(refused.outcomes[0]).toMatchObject({
      ok: false,
      error: expect.stringContaining("The location is not active."),
    });
    const given = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(given).toMatchObject({ state: "skipped", fulfillmentId: null });
    expect(given.stateReason).toContain("The location is not active.");

    const again = await send([orderId]);
    expect(again.outcomes[0]).toMatchObject({ ok: true });
    expect(fulfilled).toHaveLength(1);
    await testWorker().drain();
    const sent = await prisma.delivery.findFirstOrThrow({
      where: { shop, id: again.outcomes[0].deliveryId },
    });
    expect(sent).toMatchObject({ state: "created", fulfillmentId: FULFILLMENT_ID });
    expect(sent.reference).toBe(`${intentReference(shop, FULFILLMENT_ORDER_ID)}-r2`);
    expect(sandbox().orders.size).toBe(1);
  });

  it("goes on when Shopify fulfilled the order but its answer was lost", async () => {
    await readyShop(shop);
    programShopify([order]);
    const { fulfilled } = programSendable({ fulfil: () => "lose" });
    const result = await send([orderId]);
    expect(result.outcomes[0]).toMatchObject({ ok: true });
    expect(fulfilled).toHaveLength(1);
    // No webhook needed: the fulfillment order named the fulfillment.
    await testWorker().drain();
    const delivery = await prisma.delivery.findFirstOrThrow({
      where: { shop },
      include: { events: true },
    });
    expect(delivery).toMatchObject({ state: "created", fulfillmentId: FULFILLMENT_ID });
    expect(delivery.events.map((e) => e.message).join("\n")).toMatch(/answer was lost/);
    expect(sandbox().orders.size).toBe(1);
  });

  it("keeps the intent when Shopify does not answer, and its webhook attaches to it with automatic sending off", async () => {
    await readyShop(shop);
    await prisma.shopSettings.update({ where: { shop }, data: { autoSend: false } });
    programShopify([order]);
    programSendable({ fulfil: () => "lose", outcomeAnswered: false });
    const result = await send([orderId]);
    expect(result.outcomes[0]).toMatchObject({ ok: true });
    const waiting = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(waiting).toMatchObject({ state: "pending", fulfillmentId: null });

    expect((await webhookFor(order)).status).toBe(200);
    await testWorker().drain();
    const deliveries = await prisma.delivery.findMany({ where: { shop } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      id: waiting.id,
      state: "created",
      fulfillmentId: FULFILLMENT_ID,
    });
    expect(sandbox().orders.size).toBe(1);
  });

  it("sends an order again whose intent a stopped app left behind, once Shopify shows it still open", async () => {
    await readyShop(shop);
    programShopify([order]);
    const { fulfilled } = programSendable();
    const orphan = await prisma.delivery.create({
      data: {
        shop,
        orderId,
        orderName: "#4001",
        locationId: PICKUP_LOCATION_ID,
        source: "manual",
        state: "pending",
        environment: "sandbox",
        reference: intentReference(shop, FULFILLMENT_ORDER_ID),
      },
    });

    // A moment ago it may still be on its way to Shopify: the order is being sent.
    const busy = await send([orderId]);
    expect(busy.outcomes[0]).toMatchObject({
      ok: false,
      error: "This order is already being sent.",
    });
    expect(fulfilled).toHaveLength(0);

    await prisma.delivery.update({
      where: { id: orphan.id },
      data: { updatedAt: new Date(Date.now() - INTENT_GRACE_MS - 1_000) },
    });
    const result = await send([orderId]);
    expect(result.outcomes[0]).toMatchObject({ ok: true });
    expect(fulfilled).toHaveLength(1);
    expect(await prisma.delivery.findUniqueOrThrow({ where: { id: orphan.id } })).toMatchObject({
      state: "skipped",
      stateReason: expect.stringContaining("app stopped"),
    });
    await testWorker().drain();
    expect(sandbox().orders.size).toBe(1);
  });
});

describe("Send to courier, against the Shopify stand-in store", () => {
  const bulkShop = shopDomain("send-bulk");
  let standIn: ShopifyStandIn;
  let uninstall: () => Promise<void>;

  beforeAll(async () => {
    standIn = await startTestStandIn({ shop: bulkShop });
    uninstall = routeShopifyToStandIn(standIn.url, {
      shops: /^send-bulk\.myshopify\.com$/,
      fallback: getGlobalDispatcher(),
    });
  });
  afterAll(async () => {
    await uninstall();
    await standIn.close();
  });

  /** The stand-in's shop, ready to send from a Salmiya store mapped to the courier. */
  async function readyStandInShop() {
    await readyShop(bulkShop);
    standIn.auth.issueAccessToken({ token: `offline-token-${bulkShop}` });
    const salmiya =
      standIn.store.locations().find((l) => l.name === "Salmiya store") ??
      standIn.store.addLocation({
        name: "Salmiya store",
        address: { city: "Salmiya", provinceCode: "KW-HA", address1: "Block 10" },
      });
    await prisma.pickupLocation.updateMany({
      where: { shop: bulkShop },
      data: { locationId: gid("Location", salmiya.id) },
    });
    return { salmiya };
  }

  it("quotes the delivery sending would create: its parcel's weight, from the mapped pickup location", async () => {
    const { salmiya } = await readyStandInShop();
    const warehouse = standIn.store.addLocation({ name: "Unmapped warehouse" });
    // The first fulfillment order ships from a location without a pickup mapping; the second,
    // from the mapped store, carries 2 × 3.5 kg.
    const mixed = standIn.store.addOrder({
      shippingAddress: {
        city: "Khaitan",
        provinceCode: "KW-FA",
        address1: "Block 1, Street 2, House 3",
      },
      lineItems: [
        {
          title: "Rug",
          quantity: 1,
          weight: { value: 20, unit: "KILOGRAMS" },
          locationId: warehouse.id,
        },
        {
          title: "Dates Crate",
          quantity: 2,
          weight: { value: 3.5, unit: "KILOGRAMS" },
          locationId: salmiya.id,
        },
      ],
    });
    const request = await adminFetchRequest(bulkShop, "/app/send", {
      form: { intent: "quote", orderId: gid("Order", mixed.id) },
    });
    const { quote } = await (await callRoute(sendAction, request)).json();
    expect(quote).toMatchObject({
      ok: true,
      currency: "KWD",
      basis: {
        weightKg: 7,
        weightKnown: true,
        from: expect.stringMatching(/^Salmiya store \(/),
        to: expect.stringMatching(/^Khaitan \(/),
      },
    });
    // The sandbox's tariff: 1.750 across governances, 0.250 for each started kg above 5.
    expect(quote.price).toBe(2.25);
    expect(sandbox().orders.size).toBe(0);

    // Sending it creates the delivery the quote was for.
    const result = await send([gid("Order", mixed.id)], { shop: bulkShop });
    expect(result.outcomes[0]).toMatchObject({ ok: true });
    await testWorker().drain();
    const delivery = await prisma.delivery.findUniqueOrThrow({
      where: { id: result.outcomes[0].deliveryId },
    });
    expect(delivery.state).toBe("created");
    const sentBody = JSON.parse(delivery.request!);
    expect(sentBody.packageDetails.weight).toBe(quote.basis.weightKg);
    expect(sentBody.pickupAddress.areaId).toBe(
      (await prisma.pickupLocation.findFirstOrThrow({ where: { shop: bulkShop } })).areaId,
    );
  });
});
