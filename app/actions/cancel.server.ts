import { randomUUID } from "node:crypto";
import prisma from "../db.server";
import { env } from "../env.server";
import {
  recordFulfillmentCancelledInShopify,
  requestCancel,
} from "../models/cancel-requests.server";
import {
  addDeliveryEvent,
  findDelivery,
  releaseLease,
  takeLease,
} from "../models/deliveries.server";
import { merchantCourierCalls } from "../services/courier-breaker.server";
import { shopCourierClient } from "../services/courier-connection.server";
import { shopifyAdminFor } from "../services/shopify-admin.server";
import type { AdminGraphql } from "../shopify/graphql";
import { lateCommitWaitMs } from "../domain/courier-timing";
import { leaseMsFor } from "../domain/lease-policy";
import { notice } from "../domain/notices";
import { kickDeliveryWorker } from "../pipeline/drain-loop.server";
import { noticeInEnglish } from "./notice-english.server";
import {
  cancelShopifyFulfillment,
  carryOutCancel,
  clock,
  FINAL,
  type CancelActor,
  type CancelOutcome,
} from "../pipeline/steps/cancel.server";
import { refusedWhenMoved } from "./merchant-action.server";

export type {
  CancelActor,
  CancelOutcome,
  ShopifyFulfillmentOutcome,
} from "../pipeline/steps/cancel.server";

/**
 * Asking for a cancellation: from the app, or because Shopify cancelled the fulfillment or the
 * order. The request is recorded on the row first (durably); the cancel step
 * (steps/cancel.server.ts) carries it out, at once when the row is free, otherwise by the worker.
 */
function appActor(admin?: AdminGraphql): CancelActor {
  return {
    owner: `cancel:${randomUUID()}`,
    // The request's own Admin API client when there is one; else the shop's offline token.
    adminFor: admin ? async () => admin : shopifyAdminFor,
    courierFor: async (shop, environment) => {
      const client = await shopCourierClient(shop, environment);
      return client && merchantCourierCalls(client, { shop, environment });
    },
    leaseMs: leaseMsFor(env().COURIER_TIMEOUT_MS),
    lateCommitWaitMs: lateCommitWaitMs(env().COURIER_TIMEOUT_MS),
  };
}

export interface CancelOptions {
  /** Who carries it out (tests); by default the app, at once when the row is free. */
  actor?: CancelActor;
  /** The request's Admin API client, for the Shopify fulfillment. */
  admin?: AdminGraphql;
  /**
   * The merchant's choice (ADR 0044): once the delivery is cancelled, cancel its Shopify
   * fulfillment too, so the order is unfulfilled again and can be sent again. On a delivery
   * already cancelled whose fulfillment was kept, this cancels the fulfillment now.
   */
  cancelFulfillment?: boolean;
}

/**
 * The merchant's "Cancel delivery": recorded, then carried out now when no step is under way for
 * the delivery; otherwise the worker does it as soon as that step ends.
 */
export const cancelDelivery = refusedWhenMoved(async function cancelDelivery(
  shop: string,
  deliveryId: string,
  why: string,
  { admin, cancelFulfillment = false, actor = appActor(admin) }: CancelOptions = {},
): Promise<CancelOutcome> {
  const delivery = await findDelivery(shop, deliveryId);
  if (!delivery) return { ok: false, error: notice("no_such_delivery") };
  const state = delivery.state;
  if (state === "cancelled") {
    if (!cancelFulfillment || !delivery.fulfillmentId || delivery.shopifyCancelledAt) {
      return { ok: true, state: "cancelled" };
    }
    const shopify = await cancelShopifyFulfillment(delivery, actor.adminFor, clock(actor));
    return { ok: true, state: "cancelled", shopify };
  }
  if (
    FINAL.includes(state) ||
    !(await requestCancel(shop, deliveryId, why, clock(actor), { cancelFulfillment }))
  ) {
    const error = notice("cancel_not_possible", { state });
    await addDeliveryEvent(
      shop,
      deliveryId,
      "cancel_refused",
      `Not cancelled (${why}): ${await noticeInEnglish(error)}`,
    );
    return { ok: false, error };
  }
  const leased = await takeLease(shop, deliveryId, actor.owner, actor.leaseMs, clock(actor));
  if (!leased) {
    kickDeliveryWorker();
    return { ok: true, state: "requested", message: notice("cancel_waits_for_step") };
  }
  try {
    return await carryOutCancel(leased, actor);
  } catch (error) {
    // Every settled outcome gives the lease back itself; an unexpected error must not keep the
    // row from the worker until the lease lapses. The request stays recorded, so it carries it out.
    await releaseLease(shop, deliveryId, actor.owner);
    throw error;
  }
});

/**
 * Shopify cancelled a fulfillment (fulfillments/update) or a whole order (orders/cancelled): the
 * cancellation of each of its deliveries is recorded durably and left to the worker, so the
 * webhook is answered at once and no courier call runs inside it. Throws if any could not be
 * recorded: the webhook then fails and Shopify sends it again.
 */
export async function requestCancelForShopify(
  shop: string,
  target: { fulfillmentId: string } | { orderId: string },
  why: string,
  at = new Date(),
): Promise<number> {
  const deliveries = await prisma.delivery.findMany({
    where: { shop, ...target, state: { notIn: ["cancelled", "skipped", "delivered", "returned"] } },
    select: { id: true },
  });
  for (const { id } of deliveries) await requestCancel(shop, id, why, at);
  // The fulfillment is gone in Shopify: its order may be sent again once its delivery is cancelled.
  if ("fulfillmentId" in target)
    await recordFulfillmentCancelledInShopify(shop, target.fulfillmentId, at);
  if (deliveries.length > 0) kickDeliveryWorker();
  return deliveries.length;
}
