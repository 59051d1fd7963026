import { getPickupLocation } from "../models/pickup-locations.server";
import type { SendableOrder } from "../shopify/orders";
import { notice, type Notice } from "../domain/notices";

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
): Promise<ChosenFulfillmentOrder | { ok: false; error: Notice }> {
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
    error: notice(open.length === 0 ? "nothing_to_fulfil" : "no_pickup_address"),
  };
}
