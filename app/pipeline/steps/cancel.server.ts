// Longer than 400 lines: every state a cancellation can meet (never sent, at the courier, outcome unknown, refused, courier down) is carried out here, in one place.
import {
  CourierAuthError,
  CourierCircuitOpenError,
  CourierTimeoutError,
  CourierUnavailableError,
  isCourierError,
  type CourierClient,
  type CourierError,
} from "../../courier";
import prisma from "../../db.server";
import { env } from "../../env.server";
import { courierUnavailableReason, loadCourierApiKey } from "../../models/courier-account.server";
import { recordShopifyFulfillmentCancelled } from "../../models/cancel-requests.server";
import {
  addDeliveryEvent,
  releaseLease,
  renewLease,
  type DeliveryRow,
} from "../../models/deliveries.server";
import { transition } from "../../models/delivery-state";
import type { CourierEnvironment } from "../../models/shop.server";
import { cancelFulfillment } from "../../shopify/fulfillment-cancel";
import type { AdminGraphql } from "../../shopify/graphql";
import { courierFailure, courierReply, type CourierAnswer } from "../../domain/courier-answers";
import { lateCommitWaitMs, notCreatedBelievedAt } from "../../domain/courier-timing";
import { LONGEST_STEP_WAIT_MS, MAX_STEP_FAILURES, stepBackoffMs } from "../../domain/lease-policy";
import { type DeliveryState } from "../../domain/states";
import { notice, type Notice } from "../../domain/notices";
import { searchHistory, type HistoryAnswer } from "../history.server";

/**
 * Cancelling a delivery: from the app, or because Shopify cancelled the fulfillment or the order.
 * The request is recorded on the row first (durably), then carried out by whoever holds the row:
 * at once when it is free, otherwise by the worker at its next step — after a create that was
 * under way, or after reconciling an unknown outcome, it cancels at the courier; what never
 * reached the courier is never sent. What the courier no longer allows to cancel is told to the
 * merchant on the delivery's page and timeline.
 */
export type CancelOutcome =
  | {
      ok: true;
      state: "cancelled";
      /**
       * The Shopify fulfillment, when the merchant asked for it to be cancelled too (ADR 0044):
       * cancelled (the order can be sent again), or still there (why, in `shopifyError`).
       */
      shopify?: ShopifyFulfillmentOutcome;
    }
  /** Recorded; the worker carries it out (a step under way, or the courier did not answer). */
  | { ok: true; state: "requested"; message: Notice }
  | { ok: false; error: Notice };

/** Who carries a cancellation out: a worker holding the row's lease, or the app for a click. */
export interface CancelActor {
  owner: string;
  now?: () => Date;
  courierFor(shop: string, environment: CourierEnvironment): Promise<CourierClient | null>;
  /** The shop's Admin API, to cancel the Shopify fulfillment when the merchant asked for it. */
  adminFor?(shop: string): Promise<AdminGraphql>;
  leaseMs: number;
  /**
   * How long after an unknown create a courier may still record it: its absence from history is
   * believed only at a second look after that (ADR 0018; default from COURIER_TIMEOUT_MS).
   */
  lateCommitWaitMs?: number;
}

export const clock = (actor: Pick<CancelActor, "now">) => actor.now?.() ?? new Date();

/** States the courier has never heard of: cancelled here. */
const NOT_AT_COURIER: readonly DeliveryState[] = ["pending", "needs_address", "ready", "rejected"];
/** States where nobody knows whether the courier created it: its history decides. */
const OUTCOME_UNKNOWN: readonly DeliveryState[] = ["creating", "unknown", "needs_review"];
export const FINAL: readonly DeliveryState[] = ["skipped", "delivered", "returned"];

/**
 * Carries out the cancellation asked for on a delivery `actor` leases, whatever its state, and
 * gives the lease back: cancelled here (never sent), cancelled at the courier, refused (told to
 * the merchant, request cleared), or left for a later try when the courier did not answer.
 */
export async function carryOutCancel(
  delivery: DeliveryRow,
  actor: CancelActor,
): Promise<CancelOutcome> {
  const state = delivery.state;
  const why = delivery.cancelReason ?? "cancelled";
  if (state === "cancelled") {
    await releaseLease(delivery.shop, delivery.id, actor.owner, { cancelRequestedAt: null });
    return { ok: true, state: "cancelled" };
  }
  if (FINAL.includes(state)) {
    return refuse(
      delivery,
      actor,
      `A delivery that is ${state.replaceAll("_", " ")} can no longer be cancelled.`,
    );
  }
  if (NOT_AT_COURIER.includes(state) || (state === "needs_attention" && !delivery.courierOrderId)) {
    return cancelHere(delivery, actor, `Cancelled before reaching the courier: ${why}.`);
  }
  const client = await actor.courierFor(delivery.shop, delivery.environment);
  if (!client)
    return waitForCourier(delivery, actor, await courierUnavailableReason(delivery.shop), {
      said: await noCourierNotice(delivery.shop),
    });
  if (delivery.courierOrderId) {
    return cancelAtCourier(delivery, actor, client, {
      orderId: delivery.courierOrderId,
      orderNumber: delivery.courierOrderNumber ?? delivery.courierOrderId,
      status: delivery.courierStatus,
    });
  }
  // Maybe created, maybe not (creating, unknown, needs_review): the courier's history says.
  let answer: HistoryAnswer;
  try {
    await renewLease(delivery.shop, delivery.id, actor.owner, actor.leaseMs, clock(actor));
    answer = await searchHistory(client, delivery.reference, delivery.createdAt);
  } catch (error) {
    if (!isCourierError(error)) throw error;
    return isOutage(error)
      ? waitForCourier(delivery, actor, error.message, {
          until: error instanceof CourierCircuitOpenError ? error.retryAt : undefined,
        })
      : tryLater(delivery, actor, error.message);
  }
  if (answer.outcome === "undetermined") {
    return tryLater(
      delivery,
      actor,
      `The courier's history could not tell whether the order exists: ${answer.reason}.`,
    );
  }
  if (answer.outcome === "absent") {
    // Believed only at a second look, late enough for a courier that records orders late.
    const believedAt = notCreatedBelievedAt({
      sentAt: delivery.unknownSince ?? delivery.updatedAt,
      firstMissAt: delivery.notInHistorySince,
      now: clock(actor),
      lateCommitWaitMs: actor.lateCommitWaitMs ?? lateCommitWaitMs(env().COURIER_TIMEOUT_MS),
    });
    if (believedAt) {
      return waitForCourier(
        delivery,
        actor,
        "Not in the courier's history yet; it is looked for again before it is believed never created.",
        {
          until: believedAt,
          data: { notInHistorySince: delivery.notInHistorySince ?? clock(actor) },
        },
      );
    }
    return cancelHere(
      delivery,
      actor,
      `Cancelled: the courier's history has no order with reference ${delivery.reference}, so it was never created there. ${why}.`,
    );
  }
  const found = answer.order;
  return cancelAtCourier(delivery, actor, client, {
    orderId: found.orderId,
    orderNumber: found.orderNumber ?? found.orderId,
    status: found.status,
  });
}

interface CourierOrder {
  orderId: string;
  orderNumber: string;
  status: string | null;
}

async function cancelAtCourier(
  delivery: DeliveryRow,
  actor: CancelActor,
  client: CourierClient,
  order: CourierOrder,
): Promise<CancelOutcome> {
  const why = delivery.cancelReason ?? "cancelled";
  let reply;
  try {
    await renewLease(delivery.shop, delivery.id, actor.owner, actor.leaseMs, clock(actor));
    reply = await client.cancel(order.orderId, { reason: why.slice(0, 200) });
  } catch (error) {
    if (!isCourierError(error)) throw error;
    const message = `The courier did not confirm the cancellation: ${error.message}`;
    // A key the courier refuses says nothing about the order: kept until a working key is saved.
    if (isOutage(error)) return waitForCourier(delivery, actor, message);
    // "rejected": the courier answered no (already picked up, not found); anything else may pass.
    if (error.outcome === "rejected")
      return refuse(
        delivery,
        actor,
        `The courier refused to cancel: ${error.message}`,
        order,
        courierFailure(error),
      );
    return tryLater(delivery, actor, message);
  }
  await transition({
    shop: delivery.shop,
    id: delivery.id,
    from: delivery.state,
    to: "cancelled",
    leaseOwner: actor.owner,
    leaseGeneration: delivery.leaseGeneration,
    at: clock(actor),
    data: {
      courierOrderId: order.orderId,
      courierOrderNumber: order.orderNumber,
      courierStatus: reply.status ?? order.status,
      ...done(why),
    },
    event: {
      kind: "cancelled",
      message: `Cancelled at the courier (order ${order.orderNumber}): ${why}.${await collectionNote(delivery)}`,
      data: courierReply({ cancelled: order.orderId, status: reply.status }),
    },
  });
  return cancelledThenShopify(delivery, actor);
}

/** The row once the cancellation is settled: request cleared, lease given back, nothing due. */
function done(why: string) {
  return {
    stateReason: why,
    cancelRequestedAt: null,
    cancelReason: null,
    nextAttemptAt: null,
    failures: 0,
    leaseOwner: null,
    leaseExpiresAt: null,
  };
}

async function cancelHere(
  delivery: DeliveryRow,
  actor: CancelActor,
  message: string,
): Promise<CancelOutcome> {
  await transition({
    shop: delivery.shop,
    id: delivery.id,
    from: delivery.state,
    to: "cancelled",
    leaseOwner: actor.owner,
    leaseGeneration: delivery.leaseGeneration,
    at: clock(actor),
    data: done(delivery.cancelReason ?? "cancelled"),
    event: { kind: "cancelled", message: message + (await collectionNote(delivery)) },
  });
  return cancelledThenShopify(delivery, actor);
}

export type ShopifyFulfillmentOutcome =
  { fulfillment: "cancelled" } | { fulfillment: "not_cancelled"; error: Notice };

/**
 * The delivery is cancelled; when the merchant asked for it, its Shopify fulfillment is cancelled
 * now too (never before: a courier that refused the cancellation still carries the parcel, and
 * the order must stay fulfilled). Shopify refusing or not answering leaves the delivery cancelled
 * and says so on the timeline; the delivery's page offers the Shopify part again.
 */
async function cancelledThenShopify(
  delivery: DeliveryRow,
  actor: CancelActor,
): Promise<CancelOutcome> {
  if (!delivery.cancelFulfillment || !delivery.fulfillmentId || delivery.shopifyCancelledAt) {
    return { ok: true, state: "cancelled" };
  }
  return {
    ok: true,
    state: "cancelled",
    shopify: await cancelShopifyFulfillment(delivery, actor.adminFor, clock(actor)),
  };
}

/**
 * Cancels the delivery's Shopify fulfillment (the delivery itself is cancelled already) and
 * records it: the order is unfulfilled again and "Send to courier" offers it (ADR 0044).
 */
export async function cancelShopifyFulfillment(
  delivery: Pick<DeliveryRow, "shop" | "id" | "fulfillmentId">,
  adminFor: CancelActor["adminFor"],
  at = new Date(),
): Promise<ShopifyFulfillmentOutcome> {
  const notCancelled = async (why: string, error: Notice): Promise<ShopifyFulfillmentOutcome> => {
    const message = `The Shopify fulfillment was not cancelled: ${why}`.slice(0, 500);
    await addDeliveryEvent(delivery.shop, delivery.id, "shopify_refused", message);
    return { fulfillment: "not_cancelled", error };
  };
  if (!delivery.fulfillmentId)
    return notCancelled("the delivery has no Shopify fulfillment.", notice("no_fulfillment"));
  if (!adminFor)
    return notCancelled("the app could not reach Shopify.", notice("shopify_unreachable"));
  try {
    const admin = await adminFor(delivery.shop);
    await cancelFulfillment(admin, delivery.fulfillmentId);
  } catch (error) {
    // Shopify's own words are quoted to the merchant as data (ADR 0045).
    return error instanceof Error
      ? notCancelled(error.message, notice("shopify_said", { detail: error.message.slice(0, 300) }))
      : notCancelled("Shopify did not answer.", notice("shopify_unreachable"));
  }
  await recordShopifyFulfillmentCancelled(
    delivery.shop,
    delivery.id,
    "The Shopify fulfillment was cancelled: the order is unfulfilled again and can be sent to the courier again.",
    at,
  );
  return { fulfillment: "cancelled" };
}

/** A delivery that was to collect its order's balance and is cancelled: who collects it now. */
async function collectionNote(delivery: DeliveryRow): Promise<string> {
  if (!delivery.cashToCollect) return "";
  const others = await prisma.delivery.count({
    where: {
      shop: delivery.shop,
      orderId: delivery.orderId,
      id: { not: delivery.id },
      request: { not: null },
      state: { notIn: ["cancelled", "skipped", "returned"] },
    },
  });
  return others > 0
    ? ` It was to collect ${delivery.cashToCollect} KWD for the order; the order's other deliveries were built prepaid, so collect that balance another way.`
    : ` It was to collect ${delivery.cashToCollect} KWD for the order; a part of the order built from now on collects it.`;
}

/**
 * The courier said no, or it can no longer be cancelled: the request is cleared and the merchant
 * told. A delivery whose outcome was unknown and that history found becomes `created` with that
 * order, so tracking follows it; one that history did not settle becomes `needs_review`: the worker
 * never sends it again on its own (its reconcile would, finding nothing in history yet).
 */
async function refuse(
  delivery: DeliveryRow,
  actor: CancelActor,
  message: string,
  found?: CourierOrder,
  answer?: CourierAnswer,
): Promise<CancelOutcome> {
  const state = delivery.state;
  const unknownOutcome = OUTCOME_UNKNOWN.includes(state);
  const to: DeliveryState = unknownOutcome ? (found ? "created" : "needs_review") : state;
  await transition({
    shop: delivery.shop,
    id: delivery.id,
    from: state,
    to,
    leaseOwner: actor.owner,
    leaseGeneration: delivery.leaseGeneration,
    at: clock(actor),
    data: {
      ...(to === "created" && found
        ? {
            courierOrderId: found.orderId,
            courierOrderNumber: found.orderNumber,
            courierStatus: found.status,
            unknownSince: null,
          }
        : {}),
      stateReason: (to === "needs_review"
        ? `Not cancelled, and it is not known whether the courier created it (reference ${delivery.reference}). Check with the courier: if the order is there, cancel it there or enter its number under "Mark created"; if not, cancel it here or send it again. Why: ${message}`
        : `Not cancelled: ${message}`
      ).slice(0, 500),
      lastError: message.slice(0, 500),
      cancelRequestedAt: null,
      cancelReason: null,
      failures: 0,
      // A created delivery goes on to get its tracking number on Shopify.
      nextAttemptAt: to === "created" ? clock(actor) : null,
      leaseOwner: null,
      leaseExpiresAt: null,
    },
    event: {
      kind: "cancel_refused",
      message: `Not cancelled (${delivery.cancelReason ?? "cancelled"}): ${message}`,
      data: answer,
    },
  });
  return { ok: false, error: notice("cancel_refused") };
}

/**
 * Failures that pass by themselves or when the merchant saves a working key (the courier down,
 * slow or rate limiting, the key refused): a cancellation waits them out however long they last
 * (ADR 0028), so they are not counted toward giving up.
 */
function isOutage(error: CourierError): boolean {
  return (
    error instanceof CourierCircuitOpenError ||
    error instanceof CourierUnavailableError ||
    error instanceof CourierTimeoutError ||
    error instanceof CourierAuthError
  );
}

/**
 * No courier to ask (no readable key), or it is down: the request stays and the worker tries
 * again, waiting as long as the request has waited so far (5 s, doubling, at most 15 minutes),
 * without end; saving a working key makes it due at once (`resumeWaitingDeliveries`). Not counted
 * in `failures`, so an outage never makes the app give up.
 */
async function waitForCourier(
  delivery: DeliveryRow,
  actor: CancelActor,
  message: string,
  {
    until,
    data = {},
    said = notice("cancel_waits_for_courier"),
  }: { until?: Date; data?: { notInHistorySince?: Date }; said?: Notice } = {},
): Promise<CancelOutcome> {
  const now = clock(actor).getTime();
  const waited = now - (delivery.cancelRequestedAt ?? clock(actor)).getTime();
  const next =
    until ?? new Date(now + Math.min(LONGEST_STEP_WAIT_MS, Math.max(stepBackoffMs(1), waited)));
  await releaseLease(delivery.shop, delivery.id, actor.owner, {
    ...data,
    lastError: message.slice(0, 500),
    nextAttemptAt: next,
  });
  return { ok: true, state: "requested", message: said };
}

/** Why there is no courier to ask, as the merchant is told it: what to fix in Settings. */
async function noCourierNotice(shop: string): Promise<Notice> {
  const stored = await loadCourierApiKey(shop);
  if (stored.status === "unreadable") return notice("courier_key_unreadable");
  if (stored.status === "none") return notice("connect_courier_first");
  return notice("environment_not_configured");
}

/**
 * An answer the app cannot use (a reply it cannot read, a refused history search): the request
 * stays and the worker tries again later and later, and after {@link MAX_STEP_FAILURES} such
 * tries in a row the merchant is told to cancel with the courier directly.
 */
async function tryLater(
  delivery: DeliveryRow,
  actor: CancelActor,
  message: string,
): Promise<CancelOutcome> {
  const failures = delivery.failures + 1;
  if (failures >= MAX_STEP_FAILURES) {
    return refuse(
      delivery,
      actor,
      `the app could not get the courier to confirm it after ${failures} tries (${message}). Cancel it with the courier directly.`,
    );
  }
  await releaseLease(delivery.shop, delivery.id, actor.owner, {
    failures,
    lastError: message.slice(0, 500),
    nextAttemptAt: new Date(clock(actor).getTime() + stepBackoffMs(failures)),
  });
  return { ok: true, state: "requested", message: notice("cancel_waits_for_courier") };
}
