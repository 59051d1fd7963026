import { afterEach, describe, expect, it } from "vitest";
import { answerOnShopperPage } from "../../app/actions/shopper-answer.server";
import { normalizeArabic } from "../../app/addresses";
import prisma from "../../app/db.server";
import { sendDueFlowEvents } from "../../app/pipeline/records/flow-outbox.server";
import { loadCourierDirectory } from "../../app/services/courier-directory.server";
import { unauthenticated } from "../../app/shopify.server";
import { runDueAsks } from "../../app/shopper/ask-loop.server";
import { gid } from "../../sandbox/shopify";
import { confirmationNumber } from "../../sandbox/shopify/payloads";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import { testWorker } from "../support/pipeline";
import { startStandInShop, type StandInShop } from "../support/standin-shop";

/**
 * Asking the shopper against the Shopify stand-in (issue 26): its orders/create webhook, its holds
 * (a held order cannot be fulfilled), its orderUpdate. From the order to the courier.
 */
const sandbox = setUpCourierSandbox();
let standIn: StandInShop | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

const loop = (shop: StandInShop) =>
  runDueAsks({
    owner: "test-loop",
    adminFor: async (s) => (await unauthenticated.admin(s)).admin,
  }).then(async (n) => {
    await shop.standIn.webhooks.flush();
    return n;
  });

async function salmiya(shop: string) {
  const directory = (await loadCourierDirectory(shop, "sandbox"))!;
  return directory.areas.find((a) => normalizeArabic(a.name) === normalizeArabic("السالمية"))!;
}

describe("asking the shopper through Shopify", () => {
  it("holds the order in Shopify until the shopper answers, then writes the answer and lets it be fulfilled", async () => {
    standIn = await startStandInShop("ask-standin", { now: new Date() });
    const { store, webhooks } = standIn.standIn;
    const order = store.addOrder({
      shippingAddress: {
        address1: "near the co-op, behind the mosque",
        address2: null,
        city: "Salmiya",
      },
      locationId: standIn.locationId,
    });
    await webhooks.flush();
    await loop(standIn);

    const ask = await prisma.shopperAsk.findFirstOrThrow({ where: { shop: standIn.shop } });
    expect(ask.state).toBe("asked");
    // The buyer's confirmation number, kept for the blocks in Shopify's pages (ADR 0061).
    expect(JSON.parse(ask.orderSnapshot!).confirmationNumber).toBe(confirmationNumber(order.id));
    expect(store.fulfillmentHolds(order.id)).toHaveLength(1);
    expect(store.fulfillmentHolds(order.id)[0]).toMatchObject({ reason: "INCORRECT_ADDRESS" });
    expect(store.tryFulfillOrder(order.id).ok).toBe(false);

    const area = await salmiya(standIn.shop);
    expect(
      await answerOnShopperPage(ask.token, {
        intent: "fix",
        areaId: String(area.id),
        block: "3",
        street: "12",
        house: "7",
      }),
    ).toEqual({ ok: true });
    await loop(standIn);

    const written = store.order(order.id)!;
    expect(written.shippingAddress).toMatchObject({
      address1: "Block 3, Street 12, House 7",
      city: "Salmiya",
      provinceCode: "KW-HA",
    });
    expect(store.metafield(order.id, "courier", "block")?.value).toBe("3");
    expect(store.fulfillmentHolds(order.id)).toHaveLength(0);

    // Now the merchant fulfils it; the delivery goes with the shopper's answer.
    store.fulfillOrder(order.id);
    await webhooks.flush();
    await testWorker().drain();
    const sent = [...sandbox().orders.values()];
    expect(sent).toHaveLength(1);
    expect(sent[0]!.request.deliveryAddress).toMatchObject({ areaId: area.id, block: "3" });
    expect(
      (await prisma.delivery.findFirstOrThrow({ where: { shop: standIn.shop } })).orderId,
    ).toBe(gid("Order", order.id));
  });

  it("waits for an order's fulfillment orders that Shopify has not made yet", async () => {
    standIn = await startStandInShop("ask-unrouted", { now: new Date() });
    const { store, webhooks } = standIn.standIn;
    const order = store.addOrder({
      shippingAddress: { address1: "behind the mosque", address2: null, city: "Salmiya" },
      locationId: standIn.locationId,
      routed: false,
    });
    await webhooks.flush();
    await loop(standIn);
    expect(
      (await prisma.shopperAsk.findFirstOrThrow({ where: { shop: standIn.shop } })).state,
    ).toBe("checking");
    store.routeOrder(order.id);
    await prisma.shopperAsk.updateMany({ data: { nextAttemptAt: new Date() } });
    await loop(standIn);
    expect(
      (await prisma.shopperAsk.findFirstOrThrow({ where: { shop: standIn.shop } })).state,
    ).toBe("asked");
  });

  it("fires the Flow trigger once per ask, though Shopify fails the first tries", async () => {
    standIn = await startStandInShop("ask-flow", { now: new Date() });
    const { store, webhooks, api } = standIn.standIn;
    const order = store.addOrder({
      shippingAddress: { address1: "behind the mosque", address2: null, city: "Salmiya" },
      locationId: standIn.locationId,
    });
    await webhooks.flush();
    const adminFor = async (s: string) => (await unauthenticated.admin(s)).admin;
    const due = () => prisma.shopperAsk.updateMany({ data: { nextAttemptAt: new Date() } });

    // Shopify down while the loop holds the order: nothing asked, nothing owed to Flow.
    api.failNext(1, 503);
    await loop(standIn);
    expect(await prisma.shopperAsk.findFirstOrThrow()).toMatchObject({
      state: "checking",
      lastError: expect.any(String),
    });
    expect(await prisma.flowEvent.count()).toBe(0);

    await due();
    await loop(standIn);
    // A pass over the asked order (as when it is due again) owes Flow nothing more.
    await due();
    await loop(standIn);
    const ask = await prisma.shopperAsk.findFirstOrThrow({ where: { shop: standIn.shop } });
    expect(ask.state).toBe("asked");
    expect(await prisma.flowEvent.count()).toBe(1);

    // Flow's first send refused by Shopify's 503, sent by the outbox's next try.
    api.failNext(1, 503);
    expect(await sendDueFlowEvents({ adminFor })).toBe(0);
    expect(await sendDueFlowEvents({ adminFor }, new Date(Date.now() + 10 * 60_000))).toBe(1);
    expect(await sendDueFlowEvents({ adminFor }, new Date(Date.now() + 60 * 60_000))).toBe(0);
    expect(store.flowTriggers).toHaveLength(1);
    expect(store.flowTriggers[0]).toMatchObject({
      handle: "shopper-asked-address",
      payload: {
        order_id: Number(order.id),
        "Customer page link": `${process.env.SHOPIFY_APP_URL}/tracking/${ask.token}`,
      },
    });
  });
});
