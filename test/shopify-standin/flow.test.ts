import { createHmac } from "node:crypto";
import { getGlobalDispatcher, type Dispatcher } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import prisma from "../../app/db.server";
import {
  deliveryTriggerPayload,
  FLOW_TRIGGERS,
  settlementReceivedPayload,
  shopperAskedPayload,
  shopperAskedTrigger,
  triggersForMove,
  type DeliveryFlowTrigger,
} from "../../app/domain/flow-triggers";
import { fils } from "../../app/domain/kwd";
import { transition } from "../../app/models/delivery-state";
import { ensureShopInstalled } from "../../app/models/shop.server";
import { sendDueFlowEvents } from "../../app/pipeline/records/flow-outbox.server";
import { action as flowAction } from "../../app/routes/flow.action.send-order-to-courier";
import { unauthenticated } from "../../app/shopify.server";
import { routeShopifyToStandIn, type ShopifyStandIn } from "../../sandbox/shopify";
import { checkFlowTrigger, flowTriggersFromExtensions } from "../../sandbox/shopify/flow";
import { API_SECRET_KEY, APP_URL, callRoute, installShop, shopDomain } from "../support/shopify";
import { startTestStandIn } from "./support";

const shop = shopDomain("flow-triggers");
const definitions = flowTriggersFromExtensions();
const delivery = {
  id: "d1",
  orderId: "gid://shopify/Order/4401",
  orderName: "#1044",
  courierOrderNumber: "CO-77",
  cashToCollect: "36.500",
  stateReason: null,
  trackingUrl: "https://courier-app.example/tracking/abc",
};

describe("the app's Flow triggers", () => {
  it("are all defined as flow_trigger extensions", () => {
    expect([...definitions.keys()].sort()).toEqual([...FLOW_TRIGGERS].sort());
  });

  it.each(
    FLOW_TRIGGERS.filter((t) => t !== "settlement-received" && !t.startsWith("shopper-asked")),
  )("%s carries exactly the fields its extension defines", (trigger) => {
    const payload = deliveryTriggerPayload(trigger as DeliveryFlowTrigger, delivery, "delivered");
    expect(checkFlowTrigger(definitions, trigger, payload)).toEqual([]);
    expect(payload.order_id).toBe(4401);
  });

  it("settlement-received carries exactly the fields its extension defines", () => {
    const payload = settlementReceivedPayload({
      settlementId: "s1",
      reference: "ST-9",
      receivedOn: "2026-11-25",
      lines: 3,
      total: fils(36_500),
      expected: fils(40_000),
      differences: 1,
    });
    expect(checkFlowTrigger(definitions, "settlement-received", payload)).toEqual([]);
    expect(payload["Amount paid in KWD"]).toBe("36.500");
  });

  it.each(["shopper-asked-address", "shopper-asked-cash"])(
    "%s carries exactly the fields its extension defines",
    (trigger) => {
      const payload = shopperAskedPayload({
        orderId: "gid://shopify/Order/4401",
        link: "https://courier-app.example/tracking/0123456789abcdef0123456789abcdef",
        language: "ar",
        reasons: ["area_not_recognised", "block"],
        answerBy: new Date("2026-11-29T09:30:00Z"),
      });
      expect(checkFlowTrigger(definitions, trigger, payload)).toEqual([]);
      expect(payload).toMatchObject({
        order_id: 4401,
        "Customer language": "ar",
        "Why asked": "The area was not recognised; the block number is missing",
        "Answer by": "2026-11-29 12:30",
      });
    },
  );

  it("fire one shopper trigger per ask, the address one when the address is asked", () => {
    expect(shopperAskedTrigger(["address", "cash"])).toBe("shopper-asked-address");
    expect(shopperAskedTrigger(["cash"])).toBe("shopper-asked-cash");
    expect(shopperAskedTrigger([])).toBeNull();
  });

  it("are refused by the stand-in when a field is missing or unknown", () => {
    const payload = deliveryTriggerPayload("delivery-delivered", delivery, "delivered");
    const { Reason: _reason, ...missing } = payload;
    expect(checkFlowTrigger(definitions, "delivery-delivered", missing)).toEqual([
      { field: ["payload", "Reason"], message: "Reason is missing." },
    ]);
    expect(
      checkFlowTrigger(definitions, "delivery-delivered", { ...payload, colour: "red" }),
    ).toHaveLength(1);
    expect(checkFlowTrigger(definitions, "no-such-trigger", payload)).toHaveLength(1);
  });

  it("fire for delivered, cash collected, failed or returned, and newly needing attention", () => {
    expect(triggersForMove("out_for_delivery", "delivered", delivery)).toEqual([
      "delivery-delivered",
      "cash-collected",
    ]);
    expect(triggersForMove("out_for_delivery", "delivered", { cashToCollect: null })).toEqual([
      "delivery-delivered",
    ]);
    expect(triggersForMove("in_transit", "failed", delivery)).toEqual([
      "delivery-failed-or-returned",
    ]);
    expect(triggersForMove("created", "needs_attention", delivery)).toEqual([
      "delivery-needs-attention",
    ]);
    expect(triggersForMove("created", "picked_up", delivery)).toEqual([]);
  });
});

describe("Flow triggers through the outbox and the stand-in", () => {
  let standIn: ShopifyStandIn;
  let previous: Dispatcher;
  let uninstall: () => Promise<void>;

  beforeAll(async () => {
    standIn = await startTestStandIn({ shop });
    previous = getGlobalDispatcher();
    uninstall = routeShopifyToStandIn(standIn.url, { fallback: previous });
  });

  // Every test starts from empty tables (test/setup/node.ts).
  beforeEach(async () => {
    await installShop(shop);
    await ensureShopInstalled(shop);
    standIn.auth.issueAccessToken({ token: `offline-token-${shop}` });
  });

  afterAll(async () => {
    await uninstall();
    await standIn.close();
  });

  async function deliveryOutForDelivery(id: string) {
    return prisma.delivery.create({
      data: {
        id,
        shop,
        orderId: "gid://shopify/Order/4401",
        orderName: "#1044",
        fulfillmentId: `gid://shopify/Fulfillment/${id}`,
        source: "webhook",
        state: "out_for_delivery",
        environment: "sandbox",
        reference: `SHPFY-flow-${id}`,
        courierOrderNumber: "CO-77",
        cashToCollect: "36.500",
      },
    });
  }

  it("writes the triggers with the move and sends them with flowTriggerReceive", async () => {
    await deliveryOutForDelivery("flow-1");
    await transition({
      shop,
      id: "flow-1",
      from: "out_for_delivery",
      to: "delivered",
      event: { kind: "courier_status", message: "Delivered" },
    });
    const owed = await prisma.flowEvent.findMany({ where: { shop, sentAt: null } });
    expect(owed.map((e) => e.trigger).sort()).toEqual(["cash-collected", "delivery-delivered"]);

    const sent = await sendDueFlowEvents({
      adminFor: async (s) => (await unauthenticated.admin(s)).admin,
    });
    expect(sent).toBe(2);
    expect(standIn.store.flowTriggers.map((t) => [t.handle, t.payload.order_id])).toEqual([
      ["delivery-delivered", 4401],
      ["cash-collected", 4401],
    ]);
    expect(standIn.store.flowTriggers[1]!.payload["Amount collected in KWD"]).toBe("36.500");
    expect(await prisma.flowEvent.count({ where: { shop, sentAt: null } })).toBe(0);
  });

  it("writes no trigger for a move that did not happen", async () => {
    await deliveryOutForDelivery("flow-2");
    const before = await prisma.flowEvent.count({ where: { shop } });
    await expect(
      transition({
        shop,
        id: "flow-2",
        from: "in_transit",
        to: "delivered",
        event: { kind: "courier_status", message: "Delivered" },
      }),
    ).rejects.toThrow();
    expect(await prisma.flowEvent.count({ where: { shop } })).toBe(before);
  });
});

describe("the Send order to courier action", () => {
  const signed = (body: string, secret = API_SECRET_KEY) =>
    new Request(new URL("/flow/action/send-order-to-courier", APP_URL), {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Shopify-Hmac-Sha256": createHmac("sha256", secret).update(body).digest("base64"),
      },
      body,
    });
  const body = (properties: object, domain = shop) =>
    JSON.stringify({
      shop_id: 1,
      shopify_domain: domain,
      action_run_id: "run-1",
      handle: "send-order-to-courier",
      properties,
    });

  it("refuses a request not signed with the app's secret", async () => {
    await installShop(shop);
    // The library logs the refusal; asserted here, so the setup does not fail the test for it.
    const logged = vi.mocked(console.error).mockImplementation(() => undefined);
    const response = await callRoute(
      flowAction,
      signed(body({ order_id: 4401 }), "not-the-secret"),
    );
    expect(response.status).toBe(400);
    expect(String(logged.mock.calls.at(-1)?.[0])).toMatch(/invalid flow request/i);
  });

  it("refuses a signed request without an order", async () => {
    await installShop(shop);
    const response = await callRoute(flowAction, signed(body({})));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The action needs an order." });
  });

  it("sends the order as Send to courier does, and says why when it cannot", async () => {
    await installShop(shop);
    await ensureShopInstalled(shop);
    const response = await callRoute(flowAction, signed(body({ order_id: 4401 })));
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: "Connect the courier in Settings first." });
  });
});
