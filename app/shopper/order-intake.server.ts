import { parseKwd } from "../domain/kwd";
import { LINK_LIFETIME_DAYS } from "../domain/shopper-ask";
import { recordOrderToCheck, type OrderSnapshot } from "../models/shopper-asks.server";
import type { OrdersCreatePayload } from "../shopify/webhook-payloads";

const DAY = 24 * 3_600_000;

/**
 * orders/create: the new order is recorded for the shopper loop to check (ADR 0056), once per
 * order however often Shopify sends it. Nothing is decided here, and nobody is called: the
 * webhook is answered in milliseconds; the loop matches the address and holds the order.
 * An order cancelled already, or without a shipping address, is not recorded.
 */
export async function receiveOrder(
  shop: string,
  order: OrdersCreatePayload,
  at = new Date(),
): Promise<boolean> {
  const address = order.shipping_address;
  if (!address || order.cancelled_at) return false;
  const outstanding = parseKwd(String(order.total_outstanding ?? "0"));
  const cash =
    order.currency === "KWD" && order.financial_status !== "paid" && outstanding.ok
      ? outstanding.fils
      : null;
  const snapshot: OrderSnapshot = {
    address: {
      firstName: address.first_name,
      lastName: address.last_name,
      address1: address.address1,
      address2: address.address2,
      city: address.city,
      provinceCode: address.province_code,
      zip: address.zip,
      countryCode: address.country_code,
      phone: address.phone,
    },
    phone: order.phone,
    items: order.line_items.slice(0, 50).map((line) => ({
      title: line.title.slice(0, 200),
      quantity: line.quantity,
    })),
    cashToCollectFils: cash && cash > 0 ? cash : null,
    currency: order.currency,
    confirmationNumber: order.confirmation_number,
  };
  return recordOrderToCheck({
    shop,
    orderId: order.admin_graphql_api_id,
    orderName: order.name,
    customerLanguage: order.customer_locale,
    snapshot,
    at,
    linkExpiresAt: new Date(at.getTime() + LINK_LIFETIME_DAYS * DAY),
  });
}
