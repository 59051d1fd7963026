import { randomUUID } from "node:crypto";
import prisma from "../db.server";
import { env } from "../env.server";
import { loadCourierApiKey } from "../models/courier-account.server";
import { requestCancel } from "../models/cancel-requests.server";
import {
  addDeliveryEvent,
  findDelivery,
  releaseLease,
  takeLease,
} from "../models/deliveries.server";
import { courierClientFor } from "../services/courier-connection.server";
import { lateCommitWaitMs } from "./domain/courier-timing";
import { leaseMsFor } from "./domain/lease-policy";
import { kickDeliveryWorker } from "./drain-loop.server";
import {
  carryOutCancel,
  clock,
  FINAL,
  type CancelActor,
  type CancelOutcome,
} from "./steps/cancel.server";

export type { CancelActor, CancelOutcome } from "./steps/cancel.server";

/**
 * Asking for a cancellation: from the app, or because Shopify cancelled the fulfillment or the
 * order. The request is recorded on the row first (durably); the cancel step
 * (steps/cancel.server.ts) carries it out, at once when the row is free, otherwise by the worker.
 */
function appActor(): CancelActor {
  return {
    owner: `cancel:${randomUUID()}`,
    courierFor: async (shop, environment) => {
      const stored = await loadCourierApiKey(shop);
      return stored.status === "readable" ? courierClientFor(environment, stored.apiKey) : null;
    },
    leaseMs: leaseMsFor(env().COURIER_TIMEOUT_MS),
    lateCommitWaitMs: lateCommitWaitMs(env().COURIER_TIMEOUT_MS),
  };
}

/**
 * The merchant's "Cancel delivery": recorded, then carried out now when no step is under way for
 * the delivery; otherwise the worker does it as soon as that step ends.
 */
export async function cancelDelivery(
  shop: string,
  deliveryId: string,
  why: string,
  actor: CancelActor = appActor(),
): Promise<CancelOutcome> {
  const delivery = await findDelivery(shop, deliveryId);
  if (!delivery) return { ok: false, error: "No such delivery." };
  const state = delivery.state;
  if (state === "cancelled") return { ok: true, state: "cancelled" };
  if (FINAL.includes(state) || !(await requestCancel(shop, deliveryId, why, clock(actor)))) {
    const error = `A delivery that is ${state.replaceAll("_", " ")} can no longer be cancelled.`;
    await addDeliveryEvent(shop, deliveryId, "cancel_refused", `Not cancelled (${why}): ${error}`);
    return { ok: false, error };
  }
  const leased = await takeLease(shop, deliveryId, actor.owner, actor.leaseMs, clock(actor));
  if (!leased) {
    kickDeliveryWorker();
    return {
      ok: true,
      state: "requested",
      message:
        "A step is under way for this delivery: it will be cancelled as soon as that step ends (at the courier too, if it was being sent).",
    };
  }
  try {
    return await carryOutCancel(leased, actor);
  } catch (error) {
    // Every settled outcome gives the lease back itself; an unexpected error must not keep the
    // row from the worker until the lease lapses. The request stays recorded, so it carries it out.
    await releaseLease(shop, deliveryId, actor.owner);
    throw error;
  }
}

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
  if (deliveries.length > 0) kickDeliveryWorker();
  return deliveries.length;
}
