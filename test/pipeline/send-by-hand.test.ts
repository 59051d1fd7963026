import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { receiveFulfillment } from "../../app/deliveries/intake.server";
import { action as sendAction, loader as sendLoader } from "../../app/routes/app.send";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
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

function programSendable(options: { duringFulfil?: () => void } = {}) {
  const fulfilled: string[] = [];
  const orderNode = () => ({
    id: `gid://shopify/Order/${order.orderNumber}`,
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
          id: "gid://shopify/FulfillmentOrder/9001",
          status: fulfilled.length ? "CLOSED" : "OPEN",
          assignedLocation: { location: { id: PICKUP_LOCATION_ID } },
        },
      ],
    },
  });
  adminApi.on("SendableOrders", () => ({ data: { orders: { nodes: [orderNode()] } } }));
  adminApi.on("SendOrdersById", (variables) => ({
    data: {
      nodes: (variables.ids as string[]).map((id) => (id === orderNode().id ? orderNode() : null)),
    },
  }));
  adminApi.on("SendFulfillment", (variables) => {
    fulfilled.push(JSON.stringify(variables));
    options.duringFulfil?.();
    return {
      data: {
        fulfillmentCreate: {
          fulfillment: {
            id: `gid://shopify/Fulfillment/${order.fulfillmentNumber}`,
            status: "SUCCESS",
          },
          userErrors: [],
        },
      },
    };
  });
  return { fulfilled };
}

async function send(orderIds: string[]) {
  const form = new URLSearchParams({ intent: "send" });
  for (const id of orderIds) form.append("orderIds", id);
  const request = await adminFetchRequest(shop, "/app/send", { method: "POST" });
  const withBody = new Request(request.url, {
    method: "POST",
    headers: request.headers,
    body: form,
  });
  return (await callRoute(sendAction, withBody)).json();
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

    const result = await send([`gid://shopify/Order/${order.orderNumber}`]);
    expect(result.outcomes).toMatchObject([{ ok: true, orderName: "#4001" }]);
    expect(fulfilled).toHaveLength(1);

    const webhook = await callRoute(
      fulfillmentsCreate,
      webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(order) }),
    );
    expect(webhook.status).toBe(200);
    await testWorker().drain();
    const deliveries = await prisma.delivery.findMany({ where: { shop } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      source: "manual",
      state: "created",
      fulfillmentId: `gid://shopify/Fulfillment/${order.fulfillmentNumber}`,
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
          admin_graphql_api_id: `gid://shopify/Fulfillment/${order.fulfillmentNumber}`,
          order_id: String(order.orderNumber),
          location_id: PICKUP_LOCATION_ID.split("/").pop()!,
          name: "#4001.1",
          status: "success",
          destination: { country_code: "KW" },
        });
      },
    });
    await send([`gid://shopify/Order/${order.orderNumber}`]);
    await early;
    await testWorker().drain();
    expect(await prisma.delivery.count({ where: { shop } })).toBe(1);
    expect(sandbox().orders.size).toBe(1);
  });

  it("refuses to send the same order twice", async () => {
    await readyShop(shop);
    programShopify([order]);
    programSendable();
    const id = `gid://shopify/Order/${order.orderNumber}`;
    await send([id]);
    const again = await send([id]);
    expect(again.outcomes[0]).toMatchObject({ ok: false });
    expect(await prisma.delivery.count({ where: { shop } })).toBe(1);
  });

  it("says why an order cannot be sent and fulfils nothing", async () => {
    await readyShop(shop);
    await prisma.pickupLocation.deleteMany({ where: { shop } });
    const { fulfilled } = programSendable();
    const result = await send([`gid://shopify/Order/${order.orderNumber}`]);
    expect(result.outcomes[0].error).toMatch(/no confirmed pickup address/);
    expect(fulfilled).toHaveLength(0);
  });

  it("quotes the courier's price before sending", async () => {
    await readyShop(shop);
    programSendable();
    const request = await adminFetchRequest(shop, "/app/send", {
      form: { intent: "quote", orderId: `gid://shopify/Order/${order.orderNumber}` },
    });
    const result = await (await callRoute(sendAction, request)).json();
    expect(result.quote).toMatchObject({ ok: true, area: "Salmiya" });
    expect(typeof result.quote.price).toBe("number");
    expect(sandbox().requestLog.filter((r) => r.endpoint === "calculatePrice")).toHaveLength(1);
    expect(sandbox().orders.size).toBe(0);
  });
});
