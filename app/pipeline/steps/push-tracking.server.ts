import { renewTrackingLease, type DeliveryRow } from "../../models/deliveries.server";
import { StaleDeliveryError, transition } from "../../models/delivery-state";
import { getShopSettings } from "../../models/shop.server";
import { fulfillmentHasTracking, updateFulfillmentTracking } from "../../shopify/fulfillments";
import { sendWindowMs } from "../../domain/courier-timing";
import { FIRST_TRACKING_LOOK_MS, MAX_STEP_FAILURES } from "../../domain/lease-policy";
import {
  adminOf,
  leaseMsOf,
  needsAttention,
  now,
  stepFailed,
  type Step,
  type WorkerDependencies,
} from "./shared.server";

/**
 * created: the courier's order number and tracking URL go on the Shopify fulfillment, once
 * (ADR 0054). A write Shopify accepted may be missing from the row, whoever made it: a holder
 * that stopped, or lost the row, between Shopify's answer and its commit. So what the fulfillment
 * carries decides every time, and the write leaves only from the row's holder, within
 * `sendWindowMs` of confirming its hold: a worker that stalled past its lease writes nothing.
 */
export const pushTracking: Step = async (delivery, deps) => {
  if (!delivery.fulfillmentId || !delivery.courierOrderNumber) {
    // Nothing to put on Shopify (never expected of a created delivery): said, not looped on.
    return needsAttention(
      delivery,
      deps,
      "Created at the courier, but without a Shopify fulfillment or a courier order number to link.",
    );
  }
  const settings = await getShopSettings(delivery.shop);
  const url = deps.trackingUrl(delivery);
  const admin = await adminOf(delivery, deps);
  const tracking = {
    fulfillmentId: delivery.fulfillmentId,
    number: delivery.courierOrderNumber,
    url,
  };
  let already: boolean;
  try {
    let writeBy = await holdForWrite(delivery, deps);
    already = await fulfillmentHasTracking(admin, tracking);
    if (!already) {
      // The read took long (a slow Shopify, a stalled process): the hold is confirmed again.
      if (performance.now() > writeBy) writeBy = await holdForWrite(delivery, deps);
      await updateFulfillmentTracking(admin, {
        ...tracking,
        company: deps.courierDisplayName,
        notifyCustomer: settings?.notifyCustomer ?? true,
      });
    }
  } catch (error) {
    return stepFailed(
      delivery,
      deps,
      error,
      (message) =>
        `The courier created order ${delivery.courierOrderNumber}, but Shopify did not take its tracking number after ${MAX_STEP_FAILURES} tries: ${message} Add it to the fulfillment by hand, or press Try again.`,
    );
  }
  await transition({
    shop: delivery.shop,
    id: delivery.id,
    from: "created",
    to: "created",
    leaseOwner: deps.owner,
    leaseGeneration: delivery.leaseGeneration,
    data: {
      trackingPushedAt: now(deps),
      trackingUrl: url,
      failures: 0,
      waitingSince: null,
      waitingFor: null,
      // The tracking sync takes over from here (tracking/sync.server.ts); a first look soon.
      syncAt: new Date(now(deps).getTime() + FIRST_TRACKING_LOOK_MS),
      leaseOwner: null,
      leaseExpiresAt: null,
      nextAttemptAt: null,
    },
    event: {
      kind: "tracking",
      message: already
        ? `Tracking number ${delivery.courierOrderNumber} was already on the Shopify fulfillment (written by an earlier attempt that could not record it); not written again.`
        : `Tracking number ${delivery.courierOrderNumber} added to the Shopify fulfillment.`,
    },
    at: now(deps),
  });
  return null;
};

/**
 * Confirms the hold on the row under the lease it was taken with, renewed past the write; returns
 * when the write must have left by (on the monotonic clock, from before the confirmation). Throws
 * StaleDeliveryError when another worker has the row.
 */
async function holdForWrite(delivery: DeliveryRow, deps: WorkerDependencies): Promise<number> {
  const writeBy = performance.now() + sendWindowMs(leaseMsOf(deps));
  const expires = new Date(now(deps).getTime() + leaseMsOf(deps));
  const held = await renewTrackingLease(
    delivery.shop,
    delivery.id,
    deps.owner,
    delivery.leaseGeneration,
    expires,
  );
  if (!held) throw new StaleDeliveryError(delivery.id, "created");
  return writeBy;
}
