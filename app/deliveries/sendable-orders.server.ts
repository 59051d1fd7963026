import { getPickupLocation } from "../models/pickup-locations.server";
import type { AdminGraphql } from "../shopify/graphql";
import type { SendableOrder } from "../shopify/orders";
import { fetchSendableOrderPage } from "../shopify/sending";

/** The orders the Send page offers, and which of an order's fulfillment orders a send takes. */

/** An order on the Send page. */
export interface SendableOrderListRow {
  id: string;
  name: string;
  createdAt: string;
  city: string | null;
  country: string | null;
  total: string;
  financialStatus: string | null;
}

/** A page of the orders that can be sent, newest first; `after` is the previous page's cursor. */
export async function listSendableOrders(
  admin: AdminGraphql,
  after: string | null,
): Promise<{ orders: SendableOrderListRow[]; nextCursor: string | null }> {
  const page = await fetchSendableOrderPage(admin, after);
  return {
    orders: page.orders.map((o) => ({
      id: o.id,
      name: o.name,
      createdAt: o.createdAt,
      city: o.shippingAddress?.city ?? null,
      country: o.shippingAddress?.countryCodeV2 ?? null,
      total: `${o.totalPriceSet.shopMoney.amount} ${o.totalPriceSet.shopMoney.currencyCode}`,
      financialStatus: o.displayFinancialStatus,
    })),
    nextCursor: page.nextCursor,
  };
}

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
