import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { action as deliveryAction } from "../../app/routes/app.deliveries.$id";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { action as fulfillmentsUpdate } from "../../app/routes/webhooks.fulfillments.update";
import { action as ordersCancelled } from "../../app/routes/webhooks.orders.cancelled";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import {
  fulfillmentPayload,
  programShopify,
  readyShop,
  testWorker,
  type FakeOrder,
} from "../support/pipeline";
import { adminFetchRequest, callRoute, shopDomain, webhookRequest } from "../support/shopify";

const shop = shopDomain("cancels");
const sandbox = setUpCourierSandbox();
const order: FakeOrder = {
  fulfillmentNumber: 9101,
  orderNumber: 5101,
  city: "Salmiya",
  address1: "Block 1 Street 2 House 3",
  provinceCode: "KW-HA",
};

async function createdDelivery() {
  await readyShop(shop);
  programShopify([order]);
  await callRoute(
    fulfillmentsCreate,
    webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(order) }),
  );
  await testWorker().drain();
  const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
  expect(delivery.state).toBe("created");
  return delivery;
}

const cancelFromApp = async (id: string) =>
  (
    await callRoute(
      deliveryAction,
      await adminFetchRequest(shop, `/app/deliveries/${id}`, { form: { intent: "cancel" } }),
      { id },
    )
  ).json();

describe("cancelling deliveries", () => {
  it("cancels at the courier from the app while it has not been picked up", async () => {
    const delivery = await createdDelivery();
    expect(await cancelFromApp(delivery.id)).toEqual({ ok: true, state: "cancelled" });
    expect((await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).state).toBe(
      "cancelled",
    );
    expect(sandbox().requestLog.filter((r) => r.endpoint === "cancel")).toHaveLength(1);
    expect(sandbox().orders.get(delivery.courierOrderId!)?.status).toMatch(/cancel/i);
  });

  it("tells the merchant when the courier no longer allows it", async () => {
    const delivery = await createdDelivery();
    sandbox().advance(delivery.courierOrderId!, "picked_up");
    const outcome = await cancelFromApp(delivery.id);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/refused to cancel/);
    const after = await prisma.delivery.findUniqueOrThrow({
      where: { id: delivery.id },
      include: { events: true },
    });
    expect(after.state).toBe("created");
    expect(after.events.map((e) => e.kind)).toContain("cancel_refused");
  });

  it("follows a fulfillment cancelled in Shopify", async () => {
    const delivery = await createdDelivery();
    const payload = { ...fulfillmentPayload(order), status: "cancelled" };
    const response = await callRoute(
      fulfillmentsUpdate,
      webhookRequest({ topic: "fulfillments/update", shop, payload }),
    );
    expect(response.status).toBe(200);
    expect((await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).state).toBe(
      "cancelled",
    );
  });

  it("asks the courier once when Shopify redelivers the cancellation", async () => {
    const delivery = await createdDelivery();
    sandbox().advance(delivery.courierOrderId!, "picked_up");
    const payload = { ...fulfillmentPayload(order), status: "cancelled" };
    for (let i = 0; i < 3; i += 1) {
      const request = webhookRequest({
        topic: "fulfillments/update",
        shop,
        payload,
        webhookId: "cancel-once",
      });
      expect((await callRoute(fulfillmentsUpdate, request)).status).toBe(200);
    }
    expect(sandbox().requestLog.filter((r) => r.endpoint === "cancel")).toHaveLength(1);
  });

  it("follows an order cancelled in Shopify", async () => {
    const delivery = await createdDelivery();
    const payload = {
      id: order.orderNumber,
      admin_graphql_api_id: `gid://shopify/Order/${order.orderNumber}`,
    };
    await callRoute(ordersCancelled, webhookRequest({ topic: "orders/cancelled", shop, payload }));
    expect((await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).state).toBe(
      "cancelled",
    );
  });

  it("cancels here, without calling the courier, what has not reached it", async () => {
    await readyShop(shop);
    programShopify([order]);
    await callRoute(
      fulfillmentsCreate,
      webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(order) }),
    );
    const pending = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(await cancelFromApp(pending.id)).toEqual({ ok: true, state: "cancelled" });
    await testWorker().drain();
    expect(
      sandbox().requestLog.filter((r) => r.endpoint === "createOrder" || r.endpoint === "cancel"),
    ).toHaveLength(0);
  });
});
