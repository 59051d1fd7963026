import { matchAddress, resolveCourierIds } from "../addresses";
import { isCourierError } from "../courier";
import { listAreaOverrides } from "../models/area-overrides.server";
import { loadCourierApiKey } from "../models/courier-account.server";
import { findBalanceCollector } from "../models/deliveries.server";
import { getShopSettings } from "../models/shop.server";
import { merchantCourierCalls } from "../services/courier-breaker.server";
import { courierClientFor } from "../services/courier-connection.server";
import { loadCourierDirectory } from "../services/courier-directory.server";
import type { AdminGraphql } from "../shopify/graphql";
import { fetchOrdersByIds } from "../shopify/orders";
import { fetchFulfillmentOrderParcel } from "../shopify/sending";
import { courierFailureNotice, notice, type Notice } from "../domain/notices";
import { packageWeightKg, parcelCharge } from "../domain/request";
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
  /** The same, for a page in either language: the pickup's name and courier area, the area. */
  pickupName: string;
  pickupArea: string | null;
  area: { en: string; ar: string };
}

export type QuoteOutcome =
  | { ok: true; price: number | null; currency: string | null; basis: QuoteBasis }
  | { ok: false; error: Notice };

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
  if (stored.status === "unreadable") return { ok: false, error: notice("courier_key_unreadable") };
  if (!settings || stored.status === "none")
    return { ok: false, error: notice("connect_courier_first") };
  if (!order?.shippingAddress) return { ok: false, error: notice("no_shipping_address") };
  if (order.shippingAddress.countryCodeV2 !== "KW")
    return { ok: false, error: notice("not_kuwait") };
  const chosen = await chooseFulfillmentOrder(shop, order);
  if (!chosen.ok) return { ok: false, error: chosen.error };
  const environment = settings.courierEnvironment;
  const [parcel, directory, overrides] = await Promise.all([
    fetchFulfillmentOrderParcel(admin, chosen.fulfillmentOrderId),
    loadCourierDirectory(shop, environment),
    listAreaOverrides(shop),
  ]);
  if (!directory) return { ok: false, error: notice("areas_not_loaded") };
  if (!parcel || parcel.items.length === 0)
    return { ok: false, error: notice("nothing_to_fulfil") };
  const match = matchAddress(
    { ...order.shippingAddress, countryCode: order.shippingAddress.countryCodeV2 },
    { overrides },
  );
  const resolution = match.area ? resolveCourierIds(match.area, directory.index) : null;
  if (!match.area || !match.confident || resolution?.status !== "resolved") {
    return { ok: false, error: notice("address_not_confident") };
  }
  // As buildDeliveryRequest: the items' weight, and the amount to collect (if no other delivery
  // of the order collects it) or the parcel's own value, in KWD.
  const weightKg = packageWeightKg(parcel.items);
  const collector = await findBalanceCollector(shop, orderId, "");
  const charge = parcelCharge(parcel, collector === null);
  // Its one refusal: amounts in a currency other than KWD.
  if (!charge.ok)
    return {
      ok: false,
      error: notice("not_kwd", { currency: parcel.presentment.currencyCode }),
    };
  const { cashOnDelivery, value } = charge;
  const pickupArea = directory.areas.find((a) => a.id === chosen.pickup.areaId)?.name;
  const basis: QuoteBasis = {
    weightKg,
    weightKnown: parcel.items.some((i) => i.unitWeightKg !== null && i.unitWeightKg > 0),
    value,
    cashOnDelivery,
    from: pickupArea ? `${chosen.pickup.name} (${pickupArea})` : chosen.pickup.name,
    to: `${match.area.nameEn} (${resolution.courierAreaName})`,
    pickupName: chosen.pickup.name,
    pickupArea: pickupArea ?? null,
    area: { en: match.area.nameEn, ar: match.area.nameAr },
  };
  const direct = courierClientFor(environment, stored.apiKey);
  if (!direct) return { ok: false, error: notice("environment_not_configured") };
  const client = merchantCourierCalls(direct, { shop, environment });
  try {
    const quote = await client.calculatePrice({
      pickupAddress: { governanceId: chosen.pickup.governanceId, areaId: chosen.pickup.areaId },
      deliveryAddress: { governanceId: resolution.governanceId, areaId: resolution.areaId },
      packageDetails: { weight: weightKg, value },
    });
    return { ok: true, price: quote.price, currency: quote.currency, basis };
  } catch (error) {
    if (!isCourierError(error)) throw error;
    console.warn(`Courier price quote failed: ${error.message}`);
    return { ok: false, error: courierFailureNotice(error) };
  }
}
