import { transition } from "../../models/delivery-state";
import { getShopSettings } from "../../models/shop.server";
import { fulfillmentHasTracking, updateFulfillmentTracking } from "../../shopify/fulfillments";
import { FIRST_TRACKING_LOOK_MS, MAX_STEP_FAILURES } from "../domain/lease-policy";
import { adminOf, needsAttention, now, stepFailed, type Step } from "./shared.server";

/** created: the courier's order number and tracking URL go on the Shopify fulfillment. */
export const pushTracking: Step = async (delivery, deps, context) => {
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
  let already = false;
  try {
    // What Shopify already has decides, not the row: the write may have landed before a crash.
    already = context.trackingMayBeOnShopify && (await fulfillmentHasTracking(admin, tracking));
    if (!already) {
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
        ? `Tracking number ${delivery.courierOrderNumber} was already on the Shopify fulfillment (added before the app stopped); not written again.`
        : `Tracking number ${delivery.courierOrderNumber} added to the Shopify fulfillment.`,
    },
    at: now(deps),
  });
  return null;
};
