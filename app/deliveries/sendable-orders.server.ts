import { getPickupLocation } from "../models/pickup-locations.server";
import type { SendableOrder } from "../shopify/orders";

/** Which of an order's fulfillment orders "Send to courier" takes (the page's orders: send-page.server.ts). */

export type ChosenFulfillmentOrder = {
  ok: true;
  fulfillmentOrderId: string;
  locationId: string;
  pickup: NonNullable<Awaited<ReturnType<typeof getPickupLocation>>>;
};

/**
 * The fulfillment order "Send to courier" fulfils: the first open one at a location with a
 * confirmed pickup address. The price quote uses the same, so it is for the delivery that would
 * be created.
 */
export async function chooseFulfillmentOrder(
  shop: string,
  order: SendableOrder,
): Promise<ChosenFulfillmentOrder | { ok: false; error: string }> {
  const open = order.fulfillmentOrders.nodes.flatMap((fo) =>
    fo.status === "OPEN" && fo.assignedLocation.location
      ? [{ id: fo.id, locationId: fo.assignedLocation.location.id }]
      : [],
  );
  for (const fo of open) {
    const pickup = await getPickupLocation(shop, fo.locationId);
    if (pickup) return { ok: true, fulfillmentOrderId: fo.id, locationId: fo.locationId, pickup };
  }
  return {
    ok: false,
    error:
      open.length === 0
        ? "The order has nothing left to fulfil."
        : "The location it ships from has no confirmed pickup address (Pickup locations).",
  };
}
