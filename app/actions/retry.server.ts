import { isCourierError } from "../courier";
import { getDelivery, type DeliveryRow } from "../models/deliveries.server";
import { transition } from "../models/delivery-state";
import type { AdminGraphql } from "../shopify/graphql";
import { searchHistory, type HistoryAnswer } from "../pipeline/history.server";
import { kickDeliveryWorker } from "../pipeline/drain-loop.server";
import { Unreadable } from "../domain/json-column";
import { notice } from "../domain/notices";
import { eventText } from "../domain/timeline-text";
import { buildAndQueue } from "../pipeline/steps/prepare.server";
import { courierFor, markCreatedWith } from "./mark-created.server";
import { partsFrom, rebuildContext, type FixOutcome } from "./review.server";
import { refusedWhenMoved } from "./merchant-action.server";

/**
 * "Try again" for a delivery that needed the merchant's attention: it resumes where it stopped,
 * from the start (the order is loaded again) or, when the courier already has it, at putting the
 * tracking number on Shopify.
 */
async function resumeDelivery(delivery: DeliveryRow): Promise<FixOutcome> {
  await transition({
    shop: delivery.shop,
    id: delivery.id,
    from: "needs_attention",
    to: delivery.courierOrderId ? "created" : "pending",
    leaseOwner: null,
    // Its tries are counted afresh: the move to needs_attention kept the ten that stopped it.
    data: { stateReason: null, lastError: null, failures: 0, nextAttemptAt: new Date() },
    event: {
      kind: "retry",
      message: "Tried again by the merchant.",
      data: { text: eventText("tried_again") },
    },
  });
  kickDeliveryWorker();
  return { ok: true };
}

/**
 * "Send again" cannot rebuild the request without the place chosen before: the delivery waits on
 * the address review page for the merchant to choose it again.
 */
async function askForAddress(delivery: DeliveryRow, reason: string): Promise<FixOutcome> {
  await transition({
    shop: delivery.shop,
    id: delivery.id,
    from: delivery.state,
    to: "needs_address",
    leaseOwner: null,
    data: { stateReason: reason, nextAttemptAt: null },
    event: {
      kind: "needs_address",
      message: reason,
      data: { text: eventText("place_unreadable") },
    },
  });
  return { ok: true, message: notice("place_unreadable") };
}

/**
 * Before a delivery whose outcome nobody could confirm is sent again, the courier's history
 * decides (ADR 0018, 0027): found, it becomes created with that order and is not sent; history
 * unreadable or undecided, nothing is sent and the merchant is told. Null: not there, send it.
 */
export async function historyDecides(delivery: DeliveryRow): Promise<FixOutcome | null> {
  const client = await courierFor(delivery);
  if (!client) return { ok: false, error: notice("connect_courier_first") };
  let answer: HistoryAnswer;
  try {
    answer = await searchHistory(client, delivery.reference, delivery.createdAt);
  } catch (error) {
    if (!isCourierError(error)) throw error;
    console.warn(`History search for ${delivery.reference} failed: ${error.message}`);
    return { ok: false, error: notice("history_unreadable") };
  }
  if (answer.outcome === "undetermined") {
    console.warn(`History of ${delivery.reference} undetermined: ${answer.reason}`);
    return {
      ok: false,
      error: notice("history_undetermined", { reference: delivery.reference }),
    };
  }
  if (answer.outcome === "found") {
    const found = answer.order;
    return markCreatedWith(
      delivery,
      { ...found, orderId: found.orderId },
      `Found in the courier's history as order ${found.orderNumber ?? found.orderId}: it had been created, so it was not sent again.`,
      notice("found_in_history", { number: found.orderNumber ?? found.orderId }),
    );
  }
  return null;
}

/**
 * "Send again" after the courier rejected it or its outcome needed the merchant's decision: the
 * request is built afresh from the order, settings and pickup address as they are now (the
 * merchant may have fixed them), for the place decided before.
 */
export const retryDelivery = refusedWhenMoved(async function retryDelivery(
  shop: string,
  admin: AdminGraphql,
  deliveryId: string,
): Promise<FixOutcome> {
  const delivery = await getDelivery(shop, deliveryId);
  if (delivery?.state === "needs_attention") return resumeDelivery(delivery);
  if (!delivery || !["rejected", "needs_review"].includes(delivery.state)) {
    return { ok: false, error: notice("only_rejected_send_again") };
  }
  if (delivery.state === "needs_review") {
    const decided = await historyDecides(delivery);
    if (decided) return decided;
  }
  if (delivery.addressMatch instanceof Unreadable) {
    return askForAddress(
      delivery,
      `The place chosen for this delivery's address can no longer be read (${delivery.addressMatch.problem}): choose it again on the address review page.`,
    );
  }
  const previous = delivery.addressMatch ?? {};
  if (!previous.courier) return { ok: false, error: notice("place_address_first") };
  const context = await rebuildContext(shop, admin, delivery);
  if (!context.ok) return { ok: false, error: context.error };
  const queued = await buildAndQueue(
    delivery,
    { owner: null },
    {
      order: context.fulfillment.order,
      settings: context.settings,
      pickup: context.pickup,
      destination: {
        ...previous.courier,
        parts: partsFrom(previous.parts ?? {}),
        contactPhone: previous.contactPhone ?? null,
      },
      matchRecord: previous,
    },
  );
  // Why (the built request's refusal) is on the delivery's timeline, in its kind's sentence.
  if (queued?.state !== "ready") return { ok: false, error: notice("request_not_built") };
  kickDeliveryWorker();
  return { ok: true };
});
