import { isCourierError } from "../courier";
import prisma from "../db.server";
import { addDeliveryEvent, getDelivery, transition } from "../models/deliveries.server";
import { loadCourierApiKey } from "../models/courier-account.server";
import type { CourierEnvironment } from "../models/shop.server";
import { courierClientFor } from "../services/courier-connection.server";
import { canMove, type DeliveryState } from "./states";

/**
 * Cancelling a delivery: from the app, or because Shopify cancelled the fulfillment or the order.
 * What the courier has not created yet is cancelled here; what it has is cancelled there if it
 * still allows it, and otherwise the merchant is told, on the delivery's timeline.
 */
export type CancelOutcome = { ok: true; state: "cancelled" } | { ok: false; error: string };

const NOT_AT_COURIER: readonly DeliveryState[] = [
  "pending",
  "needs_address",
  "ready",
  "rejected",
  "needs_review",
];

export async function cancelDelivery(
  shop: string,
  deliveryId: string,
  why: string,
): Promise<CancelOutcome> {
  const delivery = await getDelivery(shop, deliveryId);
  if (!delivery) return { ok: false, error: "No such delivery." };
  const state = delivery.state as DeliveryState;
  if (state === "cancelled") return { ok: true, state: "cancelled" };
  if (NOT_AT_COURIER.includes(state)) {
    await transition({
      shop,
      id: delivery.id,
      from: state,
      to: "cancelled",
      leaseOwner: null,
      data: { stateReason: why, nextAttemptAt: null },
      event: { kind: "cancelled", message: `Cancelled before reaching the courier: ${why}` },
    });
    return { ok: true, state: "cancelled" };
  }
  if (!delivery.courierOrderId || !canMove(state, "cancelled")) {
    const error =
      state === "creating" || state === "unknown"
        ? "The courier is still being asked whether it has this order; cancel again in a minute."
        : `A delivery that is ${state.replaceAll("_", " ")} can no longer be cancelled.`;
    await addDeliveryEvent(
      shop,
      delivery.id,
      "cancel_refused",
      `Cancellation not possible (${why}): ${error}`,
    );
    return { ok: false, error };
  }
  const stored = await loadCourierApiKey(shop);
  if (stored.status === "unreadable") return { ok: false, error: stored.error };
  const client =
    stored.status === "readable"
      ? courierClientFor(delivery.environment as CourierEnvironment, stored.apiKey)
      : null;
  if (!client) return { ok: false, error: "Connect the courier in Settings first." };
  try {
    await client.cancel(delivery.courierOrderId, { reason: why.slice(0, 200) });
  } catch (error) {
    if (!isCourierError(error)) throw error;
    const message =
      error.outcome === "unknown"
        ? `The courier did not confirm the cancellation: ${error.message}`
        : `The courier refused to cancel: ${error.message}`;
    await prisma.delivery.updateMany({
      where: { id: delivery.id, shop },
      data: { lastError: message.slice(0, 500) },
    });
    await addDeliveryEvent(shop, delivery.id, "cancel_refused", message);
    return { ok: false, error: message };
  }
  await transition({
    shop,
    id: delivery.id,
    from: state,
    to: "cancelled",
    leaseOwner: delivery.leaseOwner,
    data: { stateReason: why, nextAttemptAt: null },
    event: { kind: "cancelled", message: `Cancelled at the courier: ${why}` },
  });
  return { ok: true, state: "cancelled" };
}

/** Shopify cancelled a fulfillment (fulfillments/update) or a whole order (orders/cancelled). */
export async function cancelForShopify(
  shop: string,
  target: { fulfillmentId: string } | { orderId: string },
  why: string,
): Promise<CancelOutcome[]> {
  const deliveries = await prisma.delivery.findMany({
    where: { shop, ...target, state: { notIn: ["cancelled", "skipped"] } },
    select: { id: true },
  });
  const outcomes: CancelOutcome[] = [];
  for (const { id } of deliveries) outcomes.push(await cancelDelivery(shop, id, why));
  return outcomes;
}
