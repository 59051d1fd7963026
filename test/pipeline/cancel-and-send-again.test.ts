import { afterEach, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { action as cancelAction } from "../../app/routes/app.deliveries.$id.cancel";
import { loader as deliveryLoader } from "../../app/routes/app.deliveries.$id";
import { action as listAction } from "../../app/routes/app.deliveries._index";
import { loader as sendLoader } from "../../app/routes/app.send";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import { readyShop, testWorker } from "../support/pipeline";
import { adminFetchRequest, callRoute, shopDomain } from "../support/shopify";
import { startStandInShop, type StandInShop } from "../support/standin-shop";

/**
 * Cancel with or without the Shopify fulfillment, and sending the order again (ADR 0044), against
 * the Shopify stand-in (its real fulfillmentCancel, fulfillment orders and webhooks) and the
 * courier sandbox.
 */
const clock = { now: new Date() };
const sandbox = setUpCourierSandbox({ clock: () => clock.now.getTime() });
let shopify: StandInShop;
const otherShop = shopDomain("cancel-again-other");

// Tables are emptied before each test: each starts with its own stand-in and shops.
beforeEach(async () => {
  clock.now = new Date();
  shopify = await startStandInShop("cancel-again", clock);
  await readyShop(otherShop);
});
afterEach(async () => {
  await shopify.close();
});

/** A new order fulfilled in Shopify, its delivery created at the courier. */
async function createdDelivery() {
  const { orderId, fulfillmentId } = shopify.fulfilNewOrder();
  await shopify.standIn.webhooks.flush();
  clock.now = new Date();
  await testWorker({ clock }).drain();
  const delivery = await prisma.delivery.findFirstOrThrow({
    where: { shop: shopify.shop, fulfillmentId },
  });
  expect(delivery).toMatchObject({ state: "created", lastError: null });
  return { orderId, fulfillmentId, delivery };
}

async function post(id: string, form: Record<string, string>, shop = shopify.shop) {
  const response = await callRoute(
    cancelAction,
    await adminFetchRequest(shop, `/app/deliveries/${id}/cancel`, { form }),
    { id },
  );
  return { status: response.status, body: response.status === 404 ? null : await response.json() };
}

const fulfillmentCancels = () =>
  shopify.standIn.store.graphqlLog.filter((c) => c.operationName === "DeliveryFulfillmentCancel");
const fulfillmentStatus = (fulfillmentId: string) =>
  shopify.standIn.store.fulfillment(Number(fulfillmentId.split("/").pop())).status;
const liveDeliveries = (orderId: string) =>
  prisma.delivery.count({
    where: { shop: shopify.shop, orderId, state: { notIn: ["cancelled", "skipped"] } },
  });

async function sendPageOrderIds(): Promise<string[]> {
  const response = await callRoute(sendLoader, await adminFetchRequest(shopify.shop, "/app/send"));
  const page = (await response.json()) as { orders: { id: string }[] };
  return page.orders.map((o) => o.id);
}

async function choicesOf(id: string) {
  const response = await callRoute(
    deliveryLoader,
    await adminFetchRequest(shopify.shop, `/app/deliveries/${id}`),
    { id },
  );
  return ((await response.json()) as { cancel: Record<string, unknown> }).cancel;
}

describe("cancelling with or without the Shopify fulfillment", () => {
  it("keeps the order fulfilled in Shopify when the merchant keeps the fulfillment, and offers no Send again", async () => {
    const { orderId, fulfillmentId, delivery } = await createdDelivery();
    const callsBefore = fulfillmentCancels().length;
    const cancelsBefore = sandbox().requestLog.filter((r) => r.endpoint === "cancel").length;

    const { status, body } = await post(delivery.id, { intent: "cancel", fulfillment: "keep" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, state: "cancelled", fulfillment: "kept" });
    expect(sandbox().requestLog.filter((r) => r.endpoint === "cancel")).toHaveLength(
      cancelsBefore + 1,
    );
    expect(fulfillmentCancels()).toHaveLength(callsBefore);
    expect(fulfillmentStatus(fulfillmentId)).toBe("SUCCESS");
    expect(await sendPageOrderIds()).not.toContain(orderId);
    expect(await choicesOf(delivery.id)).toMatchObject({
      canCancel: false,
      fulfillment: "kept",
      canSendAgain: false,
    });
    const again = await post(delivery.id, { intent: "send_again" });
    expect(again).toMatchObject({
      status: 400,
      body: { ok: false, error: { code: "still_fulfilled_in_shopify", params: {} } },
    });
    expect(await liveDeliveries(orderId)).toBe(0);

    // Changing their mind later: the fulfillment alone is cancelled, and the order can go again.
    const later = await post(delivery.id, { intent: "cancel_fulfillment" });
    expect(later.body).toMatchObject({ ok: true, state: "cancelled", fulfillment: "cancelled" });
    expect(fulfillmentStatus(fulfillmentId)).toBe("CANCELLED");
    expect(await sendPageOrderIds()).toContain(orderId);
  });

  it("cancels the Shopify fulfillment after the courier, and the order sent again is exactly one new delivery", async () => {
    const { orderId, fulfillmentId, delivery } = await createdDelivery();
    const callsBefore = fulfillmentCancels().length;

    const { body } = await post(delivery.id, { intent: "cancel", fulfillment: "cancel" });
    expect(body).toMatchObject({ ok: true, state: "cancelled", fulfillment: "cancelled" });
    const calls = fulfillmentCancels().slice(callsBefore);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ outcome: "ok", userErrors: [] });
    expect(calls[0]!.variables).toEqual({ id: fulfillmentId });
    expect(fulfillmentStatus(fulfillmentId)).toBe("CANCELLED");
    const cancelled = await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(cancelled).toMatchObject({ state: "cancelled", cancelFulfillment: true });
    expect(cancelled.shopifyCancelledAt).toBeInstanceOf(Date);
    const events = await prisma.deliveryEvent.findMany({ where: { deliveryId: delivery.id } });
    expect(events.map((e) => e.kind)).toContain("shopify_fulfillment_cancelled");

    // The order is unfulfilled again: Send to courier offers it, and the delivery page says so.
    expect(await sendPageOrderIds()).toContain(orderId);
    expect(await choicesOf(delivery.id)).toMatchObject({
      fulfillment: "cancelled",
      canSendAgain: true,
    });

    const sent = await post(delivery.id, { intent: "send_again" });
    expect(sent.body).toMatchObject({ ok: true, intent: "send_again" });
    const newId = (sent.body as { deliveryId: string }).deliveryId;
    expect(newId).not.toBe(delivery.id);
    await shopify.standIn.webhooks.flush();
    clock.now = new Date();
    await testWorker({ clock }).drain();
    const fresh = await prisma.delivery.findUniqueOrThrow({ where: { id: newId } });
    expect(fresh).toMatchObject({ state: "created", orderId });
    expect(fresh.fulfillmentId).not.toBe(fulfillmentId);
    expect(fresh.reference).not.toBe(delivery.reference);
    expect(await liveDeliveries(orderId)).toBe(1);
    // The cancelled delivery's page no longer offers Send again: it links to the new one.
    expect(await choicesOf(delivery.id)).toMatchObject({ canSendAgain: false, sentAgainAs: newId });

    // Clicked again: refused, still one live delivery; the order is no longer offered.
    const twice = await post(delivery.id, { intent: "send_again" });
    expect(twice.body).toMatchObject({ ok: false });
    await shopify.standIn.webhooks.flush();
    expect(await liveDeliveries(orderId)).toBe(1);
    expect(await sendPageOrderIds()).not.toContain(orderId);
  });

  it("cancels a selection from the list with the same choice", async () => {
    const first = await createdDelivery();
    const second = await createdDelivery();
    const form = new URLSearchParams({ intent: "cancel", fulfillment: "cancel" });
    form.append("id", first.delivery.id);
    form.append("id", second.delivery.id);
    const response = await callRoute(
      listAction,
      await adminFetchRequest(shopify.shop, "/app/deliveries", {
        form: Object.fromEntries(form) as Record<string, string>,
      }).then(
        (signed) =>
          new Request(signed.url, { method: "POST", headers: signed.headers, body: form }),
      ),
    );
    expect(response.status).toBe(200);
    for (const { fulfillmentId, delivery } of [first, second]) {
      expect(fulfillmentStatus(fulfillmentId)).toBe("CANCELLED");
      expect((await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).state).toBe(
        "cancelled",
      );
    }
  });

  it("leaves the fulfillment alone when the courier refuses the cancellation", async () => {
    const { fulfillmentId, delivery } = await createdDelivery();
    // The driver has it: the courier refuses to cancel.
    sandbox().advance(delivery.courierOrderId!, "picked_up");
    const callsBefore = fulfillmentCancels().length;
    const { body } = await post(delivery.id, { intent: "cancel", fulfillment: "cancel" });
    expect(body).toMatchObject({ ok: false });
    expect(fulfillmentCancels()).toHaveLength(callsBefore);
    expect(fulfillmentStatus(fulfillmentId)).toBe("SUCCESS");
    expect((await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).state).toBe(
      "created",
    );
  });

  it("answers another shop's delivery with 404 and changes nothing", async () => {
    const { fulfillmentId, delivery } = await createdDelivery();
    const forms: Record<string, string>[] = [
      { intent: "cancel", fulfillment: "cancel" },
      { intent: "cancel_fulfillment" },
      { intent: "send_again" },
    ];
    for (const form of forms) {
      expect((await post(delivery.id, form, otherShop)).status).toBe(404);
    }
    expect((await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).state).toBe(
      "created",
    );
    expect(fulfillmentStatus(fulfillmentId)).toBe("SUCCESS");
  });

  it("asks which way when the form does not say", async () => {
    const { delivery } = await createdDelivery();
    const { status, body } = await post(delivery.id, { intent: "cancel" });
    expect(status).toBe(400);
    expect(body).toEqual({ ok: false, error: { code: "choose_fulfillment", params: {} } });
  });
});
