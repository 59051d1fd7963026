import { matchAddress, resolveCourierIds } from "../addresses";
import { isCourierError } from "../courier";
import { listAreaOverrides } from "../models/area-overrides.server";
import { loadCourierApiKey } from "../models/courier-account.server";
import { findBalanceCollector } from "../models/deliveries.server";
import { getShopSettings } from "../models/shop.server";
import { courierClientFor } from "../services/courier-connection.server";
import { loadCourierDirectory } from "../services/courier-directory.server";
import type { AdminGraphql } from "../shopify/graphql";
import { fetchOrdersByIds } from "../shopify/orders";
import { fetchFulfillmentOrderParcel } from "../shopify/sending";
import { packageWeightKg, parcelCharge } from "./domain/request";
import { chooseFulfillmentOrder } from "./sendable-orders.server";

/** What a quote was asked for: the delivery that sending the order would create. */
export interface QuoteBasis {
  weightKg: number;
  /** False when no item has a weight in Shopify and the default parcel weight was used. */
  weightKnown: boolean;
  value: number;
  cashOnDelivery: boolean;
  /** The pickup location and its courier area. */
  from: string;
  /** The destination area, as the matcher placed it and as the courier names it. */
  to: string;
}

export type QuoteOutcome =
  | { ok: true; price: number | null; currency: string | null; basis: QuoteBasis }
  | { ok: false; error: string };

/**
 * The courier's price for an order before sending it by hand, for the delivery sending it would
 * create: from the pickup address of the fulfillment order Send would fulfil, for the weight of
 * what that fulfillment order carries, and the value the request would declare.
 */
export async function quoteOrder(
  shop: string,
  admin: AdminGraphql,
  orderId: string,
): Promise<QuoteOutcome> {
  const [settings, orders, stored] = await Promise.all([
    getShopSettings(shop),
    fetchOrdersByIds(admin, [orderId]),
    loadCourierApiKey(shop),
  ]);
  const order = orders.find((o) => o.id === orderId);
  if (stored.status === "unreadable") return { ok: false, error: stored.error };
  if (!settings || stored.status === "none")
    return { ok: false, error: "Connect the courier in Settings first." };
  if (!order?.shippingAddress) return { ok: false, error: "The order has no shipping address." };
  if (order.shippingAddress.countryCodeV2 !== "KW")
    return { ok: false, error: "The order does not ship to Kuwait." };
  const chosen = await chooseFulfillmentOrder(shop, order);
  if (!chosen.ok) return { ok: false, error: chosen.error };
  const environment = settings.courierEnvironment;
  const [parcel, directory, overrides] = await Promise.all([
    fetchFulfillmentOrderParcel(admin, chosen.fulfillmentOrderId),
    loadCourierDirectory(shop, environment),
    listAreaOverrides(shop),
  ]);
  if (!directory)
    return {
      ok: false,
      error: "The courier's areas are not loaded: test the connection in Settings.",
    };
  if (!parcel || parcel.items.length === 0)
    return { ok: false, error: "The order has nothing left to fulfil." };
  const match = matchAddress(
    { ...order.shippingAddress, countryCode: order.shippingAddress.countryCodeV2 },
    { overrides },
  );
  const resolution = match.area ? resolveCourierIds(match.area, directory.index) : null;
  if (!match.area || !match.confident || resolution?.status !== "resolved") {
    return {
      ok: false,
      error:
        "The shipping address cannot be placed with confidence; send it and fix it in Address review.",
    };
  }
  // As buildDeliveryRequest: the items' weight, and the amount to collect (if no other delivery
  // of the order collects it) or the parcel's own value, in KWD.
  const weightKg = packageWeightKg(parcel.items);
  const collector = await findBalanceCollector(shop, orderId, "");
  const charge = parcelCharge(parcel, collector === null);
  if (!charge.ok) return { ok: false, error: charge.problem };
  const { cashOnDelivery, value } = charge;
  const pickupArea = directory.areas.find((a) => a.id === chosen.pickup.areaId)?.name;
  const basis: QuoteBasis = {
    weightKg,
    weightKnown: parcel.items.some((i) => i.unitWeightKg !== null && i.unitWeightKg > 0),
    value,
    cashOnDelivery,
    from: pickupArea ? `${chosen.pickup.name} (${pickupArea})` : chosen.pickup.name,
    to: `${match.area.nameEn} (${resolution.courierAreaName})`,
  };
  const client = courierClientFor(environment, stored.apiKey);
  if (!client) return { ok: false, error: "This courier environment is not configured." };
  try {
    const quote = await client.calculatePrice({
      pickupAddress: { governanceId: chosen.pickup.governanceId, areaId: chosen.pickup.areaId },
      deliveryAddress: { governanceId: resolution.governanceId, areaId: resolution.areaId },
      packageDetails: { weight: weightKg, value },
    });
    return { ok: true, price: quote.price, currency: quote.currency, basis };
  } catch (error) {
    if (!isCourierError(error)) throw error;
    return { ok: false, error: error.message };
  }
}
