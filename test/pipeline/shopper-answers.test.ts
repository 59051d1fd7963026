import { describe, expect, it } from "vitest";
import { answerOnShopperPage } from "../../app/actions/shopper-answer.server";
import { normalizeArabic } from "../../app/addresses";
import prisma from "../../app/db.server";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { loadCourierDirectory } from "../../app/services/courier-directory.server";
import { receiveOrder } from "../../app/shopper/order-intake.server";
import { ordersCreatePayload } from "../../app/shopify/webhook-payloads";
import { unauthenticated } from "../../app/shopify.server";
import { runDueAsks } from "../../app/shopper/ask-loop.server";
import { adminApi } from "../support/admin-api";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import {
  fulfillmentPayload,
  programShopify,
  readyShop,
  testWorker,
  type FakeOrder,
} from "../support/pipeline";
import { callRoute, shopDomain, webhookRequest } from "../support/shopify";

/**
 * The shopper's answer reaching the courier (issue 26): a delivery that waited for its address
 * is built again with what the shopper gave, and its timeline says who gave it.
 */
const shop = shopDomain("shopper-answers");
const sandbox = setUpCourierSandbox();

const withoutBlock: FakeOrder = {
  fulfillmentNumber: 9301,
  orderNumber: 4501,
  city: "Salmiya",
  address1: "near the co-op, behind the mosque",
  provinceCode: "KW-HA",
};
const ORDER = `gid://shopify/Order/${withoutBlock.orderNumber}`;

async function salmiyaAreaId() {
  const directory = (await loadCourierDirectory(shop, "sandbox"))!;
  return directory.areas.find((a) => normalizeArabic(a.name) === normalizeArabic("السالمية"))!.id;
}

/** The order as orders/create brought it, then fulfilled: its delivery waits for an address. */
async function deliveryWaitingForItsAddress() {
  await readyShop(shop);
  programShopify([withoutBlock]);
  await receiveOrder(
    shop,
    ordersCreatePayload.parse({
      admin_graphql_api_id: ORDER,
      name: "#4501",
      currency: "KWD",
      financial_status: "paid",
      total_outstanding: "0.000",
      shipping_address: {
        address1: withoutBlock.address1,
        city: withoutBlock.city,
        province_code: "KW-HA",
        country_code: "KW",
        phone: "+96599001234",
      },
      line_items: [{ title: "Abaya", quantity: 2 }],
    }),
  );
  // The merchant fulfilled it before the app could hold it: Shopify refuses the hold, and the
  // order goes today's way; the shopper still has the link.
  adminApi
    .on("ShopperAskShopName", () => ({ data: { shop: { name: "Dar Al Abaya" } } }))
    .on("ShopperAskFulfillmentOrders", () => ({
      data: {
        order: {
          id: ORDER,
          fulfillmentOrders: {
            nodes: [
              { id: "gid://shopify/FulfillmentOrder/1", status: "CLOSED", fulfillmentHolds: [] },
            ],
          },
        },
      },
    }));
  await runDueAsks({
    owner: "test-loop",
    adminFor: async (s) => (await unauthenticated.admin(s)).admin,
  });
  expect((await prisma.shopperAsk.findFirstOrThrow({ where: { shop } })).state).toBe("not_held");
  await callRoute(
    fulfillmentsCreate,
    webhookRequest({
      topic: "fulfillments/create",
      shop,
      payload: fulfillmentPayload(withoutBlock),
    }),
  );
  await testWorker().drain();
  const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
  expect(delivery.state).toBe("needs_address");
  const ask = await prisma.shopperAsk.findFirstOrThrow({ where: { shop } });
  return { delivery, ask };
}

describe("the shopper's answer and the courier", () => {
  it("sends a delivery that waited for its address with the block and street the shopper gave", async () => {
    const { ask } = await deliveryWaitingForItsAddress();
    const outcome = await answerOnShopperPage(ask.token, {
      intent: "fix",
      areaId: String(await salmiyaAreaId()),
      block: "3",
      street: "12",
      house: "7",
      notes: "Green door",
    });
    expect(outcome).toEqual({ ok: true });
    expect((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state).toBe("pending");

    await testWorker().drain();
    const sent = [...sandbox().orders.values()];
    expect(sent).toHaveLength(1);
    expect(sent[0]!.request.deliveryAddress).toMatchObject({
      areaId: await salmiyaAreaId(),
      block: "3",
      street: "12",
      house: "7",
    });
    expect(sent[0]!.request.deliveryAddress.notes).toContain("Green door");
  });

  it("says on the delivery's timeline that the customer gave the address", async () => {
    const { ask, delivery } = await deliveryWaitingForItsAddress();
    await answerOnShopperPage(ask.token, {
      intent: "fix",
      areaId: String(await salmiyaAreaId()),
      block: "3",
      street: "12",
    });
    const events = await prisma.deliveryEvent.findMany({
      where: { deliveryId: delivery.id, kind: "shopper_answered" },
    });
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.data!).text.key).toBe("shopper_fixed");
  });
});
