import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { answerOnShopperPage } from "../../app/actions/shopper-answer.server";
import { sendAgainWithAnswer } from "../../app/actions/send-again-with-answer.server";
import { normalizeArabic } from "../../app/addresses";
import prisma from "../../app/db.server";
import { whenChoices } from "../../app/domain/second-chance";
import { loadDeliveryListPage } from "../../app/pages/deliveries.server";
import { loadCourierDirectory } from "../../app/services/courier-directory.server";
import {
  action as deliveryAction,
  loader as deliveryLoader,
} from "../../app/routes/app.deliveries.$id";
import { adminFetchRequest, callRoute } from "../support/shopify";
import { FIRST_TRACKING_LOOK_MS } from "../../app/domain/lease-policy";
import { saveCourierExceptions } from "../../app/models/courier-exceptions.server";
import { runTrackingSync } from "../../app/pipeline/tracking/sync.server";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import { testWorker } from "../support/pipeline";
import { startStandInShop, type StandInShop } from "../support/standin-shop";

/**
 * A second chance after a failed attempt (issue 27, item 5): the courier's failed status or its
 * exception opens the order's ask again for that delivery, once per failure, with the WhatsApp
 * message and the Flow trigger owed in the same transaction. Against the Shopify stand-in and
 * the courier sandbox, through the tracking sync as the worker runs it.
 */
const clock = { now: new Date() };
const sandbox = setUpCourierSandbox({ clock: () => clock.now.getTime() });
let shopify: StandInShop;

beforeEach(async () => {
  clock.now = new Date();
  shopify = await startStandInShop("second-chance", clock);
});
afterEach(async () => {
  await shopify.close();
});

/** A new order fulfilled in Shopify, its delivery created at the courier. */
async function createdDelivery(standIn: StandInShop = shopify) {
  // The marker makes the sandbox fail the first attempt.
  const { orderId, fulfillmentId } = standIn.fulfilNewOrder({ note: "[sandbox:fail-once]" });
  await standIn.standIn.webhooks.flush();
  clock.now = new Date(Math.max(clock.now.getTime(), Date.now()));
  const worker = testWorker({ clock });
  await worker.drain();
  const delivery = await prisma.delivery.findFirstOrThrow({
    where: { shop: standIn.shop, fulfillmentId },
  });
  expect(delivery.state).toBe("created");
  return { orderId, fulfillmentId, delivery, worker };
}

/** The courier reports `status` for the order, and the tracking sync reads it. */
async function courierSays(
  worker: ReturnType<typeof testWorker>,
  courierOrderId: string,
  status: "out_for_delivery" | "delivery_failed" | "delivered",
) {
  clock.now = new Date(clock.now.getTime() + 60_000);
  sandbox().advance(courierOrderId, status);
  worker.advance(FIRST_TRACKING_LOOK_MS + 60 * 60_000);
  clock.now = worker.clock.now;
  await runTrackingSync(worker.deps);
}

const askOf = (orderId: string) =>
  prisma.shopperAsk.findUniqueOrThrow({
    where: { shop_orderId: { shop: shopify.shop, orderId } },
  });
const flowAsks = () =>
  prisma.flowEvent.count({ where: { shop: shopify.shop, trigger: "shopper-asked-address" } });
const messages = () =>
  prisma.shopperMessage.findMany({ where: { shop: shopify.shop, purpose: "failed_attempt" } });

async function enableWhatsApp() {
  await prisma.whatsAppAccount.create({
    data: {
      shop: shopify.shop,
      phoneNumberId: "1234567890",
      accessTokenSealed: "sealed-token",
      appSecretSealed: "sealed-secret",
      webhookToken: `hook-${shopify.shop}`,
      verifyToken: "verify",
      enabled: true,
    },
  });
}

describe("a failed attempt opens the shopper's second chance", () => {
  it("opens the order's ask again once however often the failed status is read", async () => {
    const { orderId, delivery, worker } = await createdDelivery();
    const before = await askOf(orderId);
    expect(before).toMatchObject({ kind: "before_sending", round: 1 });
    await courierSays(worker, delivery.courierOrderId!, "out_for_delivery");
    await courierSays(worker, delivery.courierOrderId!, "delivery_failed");
    expect((await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).state).toBe(
      "failed",
    );
    const opened = await askOf(orderId);
    expect(opened).toMatchObject({
      kind: "after_failed_attempt",
      round: 2,
      deliveryId: delivery.id,
      state: "asked",
      answer: null,
      token: before.token,
    });
    expect(JSON.parse(opened.questions!)).toEqual(["address"]);
    expect(JSON.parse(opened.reasons!)).toEqual(["courier_failed_attempt"]);
    expect(opened.linkExpiresAt.getTime()).toBeGreaterThanOrEqual(
      clock.now.getTime() + 7 * 24 * 3_600_000,
    );
    expect(opened.answerBy!.getTime()).toBe(clock.now.getTime() + 24 * 3_600_000);
    expect(await flowAsks()).toBe(1);

    // The same status read again, and the exception the courier lists for the same attempt.
    await runTrackingSync(worker.deps);
    await saveCourierExceptions(shopify.shop, "sandbox", [
      {
        orderId: delivery.courierOrderId,
        type: "delivery_failed",
        description: "Customer not answering",
        createdAt: null,
        raw: { exceptionId: 991, orderId: delivery.courierOrderId },
      },
    ]);
    expect(await askOf(orderId)).toMatchObject({ round: 2, state: "asked" });
    expect(await flowAsks()).toBe(1);
  });

  it("opens a new round when a new delivery of the order fails after the shopper answered", async () => {
    const { orderId, delivery, worker } = await createdDelivery();
    await courierSays(worker, delivery.courierOrderId!, "out_for_delivery");
    await courierSays(worker, delivery.courierOrderId!, "delivery_failed");
    // The shopper answered, and the order went out again as a new delivery that failed too.
    await prisma.shopperAsk.updateMany({
      where: { shop: shopify.shop, orderId },
      data: { state: "answered", answeredAt: clock.now },
    });
    const next = await createdDelivery();
    await prisma.delivery.update({ where: { id: next.delivery.id }, data: { orderId } });
    await prisma.shopperAsk.deleteMany({ where: { shop: shopify.shop, orderId: next.orderId } });
    await courierSays(worker, next.delivery.courierOrderId!, "out_for_delivery");
    await courierSays(worker, next.delivery.courierOrderId!, "delivery_failed");
    expect(await askOf(orderId)).toMatchObject({
      kind: "after_failed_attempt",
      round: 3,
      deliveryId: next.delivery.id,
      state: "asked",
    });
  });

  it("makes the ask from the delivery when the order was never asked about", async () => {
    const { orderId, delivery, worker } = await createdDelivery();
    await prisma.shopperAsk.deleteMany({ where: { shop: shopify.shop } });
    await courierSays(worker, delivery.courierOrderId!, "out_for_delivery");
    await courierSays(worker, delivery.courierOrderId!, "delivery_failed");
    const made = await askOf(orderId);
    expect(made).toMatchObject({ kind: "after_failed_attempt", round: 1, state: "asked" });
    expect(made.token).toMatch(/^[0-9a-f]{32}$/);
    const snapshot = JSON.parse(made.orderSnapshot!);
    expect(snapshot.phone).toBe(delivery.customerPhone);
    expect(snapshot.address.address1).toMatch(/^Block /);
  });

  it("closes a second chance not answered yet when the courier goes out again", async () => {
    const { orderId, delivery, worker } = await createdDelivery();
    await courierSays(worker, delivery.courierOrderId!, "out_for_delivery");
    await courierSays(worker, delivery.courierOrderId!, "delivery_failed");
    expect((await askOf(orderId)).state).toBe("asked");
    await courierSays(worker, delivery.courierOrderId!, "out_for_delivery");
    expect(await askOf(orderId)).toMatchObject({ state: "expired", round: 2 });
  });

  it("opens nothing for a shop that does not ask its customers", async () => {
    const { orderId, delivery, worker } = await createdDelivery();
    await prisma.shopSettings.update({
      where: { shop: shopify.shop },
      data: { askShoppers: false },
    });
    await courierSays(worker, delivery.courierOrderId!, "out_for_delivery");
    await courierSays(worker, delivery.courierOrderId!, "delivery_failed");
    expect(await askOf(orderId)).toMatchObject({ kind: "before_sending", round: 1 });
    expect(await flowAsks()).toBe(0);
  });
});

describe("a courier exception opens the shopper's second chance", () => {
  it("opens the ask once for a new exception about a delivery, with the courier's reason", async () => {
    const { orderId, delivery } = await createdDelivery();
    const exception = {
      orderId: delivery.courierOrderId,
      type: "address_problem",
      description: "Address not found",
      createdAt: null,
      raw: { exceptionId: 77, orderId: delivery.courierOrderId },
    };
    expect(await saveCourierExceptions(shopify.shop, "sandbox", [exception])).toBe(1);
    const opened = await askOf(orderId);
    expect(opened).toMatchObject({
      kind: "after_failed_attempt",
      round: 2,
      deliveryId: delivery.id,
    });
    expect(JSON.parse(opened.reasons!)).toEqual(["courier_exception", "courier_address_problem"]);
    // Read again, and a second exception about the same delivery: nothing more.
    expect(await saveCourierExceptions(shopify.shop, "sandbox", [exception])).toBe(0);
    await saveCourierExceptions(shopify.shop, "sandbox", [
      { ...exception, raw: { exceptionId: 78, orderId: delivery.courierOrderId } },
    ]);
    expect((await askOf(orderId)).round).toBe(2);
    expect(await flowAsks()).toBe(1);
  });
});

describe("the WhatsApp message of a second chance", () => {
  it("is owed once when the shop has WhatsApp on", async () => {
    await enableWhatsApp();
    const { orderId, delivery, worker } = await createdDelivery();
    await courierSays(worker, delivery.courierOrderId!, "out_for_delivery");
    await courierSays(worker, delivery.courierOrderId!, "delivery_failed");
    await runTrackingSync(worker.deps);
    const ask = await askOf(orderId);
    const owed = await messages();
    expect(owed).toHaveLength(1);
    expect(owed[0]).toMatchObject({
      askId: ask.id,
      deliveryId: delivery.id,
      dedupeKey: `ask:${ask.id}:2:failed_attempt`,
    });
  });

  it("is not owed when the shop has no WhatsApp", async () => {
    const { delivery, worker } = await createdDelivery();
    await courierSays(worker, delivery.courierOrderId!, "out_for_delivery");
    await courierSays(worker, delivery.courierOrderId!, "delivery_failed");
    expect(await messages()).toHaveLength(0);
    expect(await flowAsks()).toBe(1);
  });
});

/** The failed delivery, its second chance open, and a Salmiya area id for the answer. */
async function failedDelivery() {
  const created = await createdDelivery();
  await courierSays(created.worker, created.delivery.courierOrderId!, "out_for_delivery");
  await courierSays(created.worker, created.delivery.courierOrderId!, "delivery_failed");
  const ask = await askOf(created.orderId);
  expect(ask.state).toBe("asked");
  const directory = (await loadCourierDirectory(shopify.shop, "sandbox"))!;
  const areaId = directory.areas.find(
    (a) => normalizeArabic(a.name) === normalizeArabic("السالمية"),
  )!.id;
  return { ...created, ask, areaId };
}

function rescueForm(areaId: number, extra: Record<string, string> = {}) {
  return {
    intent: "rescue",
    areaId: String(areaId),
    block: "4",
    street: "12",
    house: "7",
    phone: "+44 7700 900123",
    whenDay: whenChoices(new Date())[0]!,
    whenPart: "evening",
    whenNote: "Ring twice",
    ...extra,
  };
}

const creates = () => sandbox().requestLog.filter((r) => r.endpoint === "createOrder").length;
const liveDeliveries = (orderId: string) =>
  prisma.delivery.findMany({
    where: { shop: shopify.shop, orderId, state: { notIn: ["cancelled", "skipped"] } },
  });

/** What Shopify and the worker do after a send: the new fulfillment's webhook, the build. */
async function worksOff(worker: ReturnType<typeof testWorker>) {
  await shopify.standIn.webhooks.flush();
  clock.now = new Date(Math.max(worker.clock.now.getTime(), Date.now()));
  worker.clock.now = clock.now;
  await worker.drain();
}

/** The delivery page's second chance card, as the merchant's browser loads it. */
async function secondChanceCard(id: string) {
  const response = await callRoute(
    deliveryLoader,
    await adminFetchRequest(shopify.shop, `/app/deliveries/${id}`),
    { id },
  );
  return ((await response.json()) as { secondChance: unknown }).secondChance;
}

async function postOnDeliveryPage(id: string, form: Record<string, string>) {
  const response = await callRoute(
    deliveryAction,
    await adminFetchRequest(shopify.shop, `/app/deliveries/${id}`, { form }),
    { id },
  );
  return { status: response.status, body: await response.json() };
}

describe("the shopper's answer after a failed attempt", () => {
  it("refuses a phone that is neither a Kuwaiti mobile nor an international number", async () => {
    const { ask, areaId } = await failedDelivery();
    const outcome = await answerOnShopperPage(
      ask.token,
      rescueForm(areaId, { phone: "2222 1234" }),
    );
    expect(outcome).toEqual({ ok: false, errors: { phone: "phone_any" } });
    const missing = await answerOnShopperPage(ask.token, rescueForm(areaId, { whenPart: "" }));
    expect(missing).toMatchObject({ ok: false, errors: { whenPart: "when_part_missing" } });
    expect((await askOf(ask.orderId)).state).toBe("asked");
  });

  it("keeps the answer with the phone and when they will be in, and the merchant's Send again makes exactly one new courier order with it", async () => {
    const { ask, areaId, delivery, orderId, worker } = await failedDelivery();
    expect(await answerOnShopperPage(ask.token, rescueForm(areaId))).toEqual({ ok: true });
    const answered = await askOf(orderId);
    expect(answered.state).toBe("answered");
    const answer = JSON.parse(answered.answer!);
    expect(answer).toMatchObject({
      kind: "fixed",
      phone: "+447700900123",
      availability: { part: "evening", note: "Ring twice" },
    });
    expect(JSON.parse(answered.pendingWork!)).toContain("write_order");
    // Nothing is sent again on the answer alone: the merchant has not chosen that.
    const before = creates();
    await worksOff(worker);
    expect(creates()).toBe(before);

    // Needs attention lists the failed delivery with its customer's answer.
    const attention = await loadDeliveryListPage(
      shopify.shop,
      new URLSearchParams("tab=attention"),
    );
    expect(attention.rows.find((r) => r.id === delivery.id)).toMatchObject({
      state: "failed",
      customerAnswered: true,
    });
    // The merchant's card on the delivery page, and its one action.
    expect(await secondChanceCard(delivery.id)).toMatchObject({
      state: "answered",
      canSendAgain: true,
      sentAgainAs: null,
      answer: {
        parts: { block: "4", street: "12", house: "7" },
        phone: "+447700900123",
        when: { part: "evening", note: "Ring twice" },
      },
    });
    const sent = await postOnDeliveryPage(delivery.id, { intent: "send_again_with_answer" });
    expect(sent).toMatchObject({ status: 200, body: { ok: true, state: "sent" } });
    await worksOff(worker);
    expect(creates()).toBe(before + 1);
    const live = await liveDeliveries(orderId);
    expect(live).toHaveLength(1);
    expect(live[0]!.state).toBe("created");
    const request = JSON.parse(live[0]!.request!);
    expect(request.deliveryAddress).toMatchObject({ areaId, block: "4", street: "12", house: "7" });
    expect(request.deliveryAddress.notes).toMatch(/Customer is in on .*evening.*Ring twice/);
    expect((await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).state).toBe(
      "cancelled",
    );

    expect(await secondChanceCard(delivery.id)).toMatchObject({
      canSendAgain: false,
      sentAgainAs: live[0]!.id,
    });
    // Pressed again: refused in words, still one new courier order.
    expect(await postOnDeliveryPage(delivery.id, { intent: "send_again_with_answer" })).toEqual({
      status: 400,
      body: { ok: false, error: { code: "rescue_already_sent", params: {} } },
    });
    await worksOff(worker);
    expect(creates()).toBe(before + 1);
  });

  it("sends again on the answer once when the merchant chose so, however often the answer comes", async () => {
    await prisma.shopSettings.update({
      where: { shop: shopify.shop },
      data: { resendOnRescueAnswer: true },
    });
    const { ask, areaId, delivery, orderId, worker } = await failedDelivery();
    const before = creates();
    expect(await answerOnShopperPage(ask.token, rescueForm(areaId))).toEqual({ ok: true });
    const resent = await liveDeliveries(orderId);
    expect(resent).toHaveLength(1);
    expect(resent[0]!.id).not.toBe(delivery.id);
    // The same answer sent twice more (a double tap, a replayed post) and the trigger replayed.
    await answerOnShopperPage(ask.token, rescueForm(areaId));
    await Promise.all([
      sendAgainWithAnswer(shopify.shop, delivery.id),
      sendAgainWithAnswer(shopify.shop, delivery.id),
    ]);
    await worksOff(worker);
    await answerOnShopperPage(ask.token, rescueForm(areaId, { whenPart: "morning" }));
    await worksOff(worker);
    expect(creates()).toBe(before + 1);
    expect(await liveDeliveries(orderId)).toHaveLength(1);
  });
});
