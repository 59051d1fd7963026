import { createHash } from "node:crypto";
import { gid } from "./ids";
import { fromMinor } from "./money";
import type { ShopifyStandInStore } from "./store";
import {
  weightInGrams,
  type StandInAddress,
  type StandInFulfillment,
  type StandInLineItem,
  type StandInOrder,
  type StoreEvent,
} from "./records";

// Payloads in the REST shape Shopify's webhooks use.

/** "2026-10-01T12:30:00+03:00": REST payloads give times in the shop's zone (Asia/Kuwait). */
export function shopTime(date: Date | null): string | null {
  if (!date) return null;
  return new Date(date.getTime() + 3 * 3600_000).toISOString().replace(/\.\d{3}Z$/, "+03:00");
}

/** The JSON body Shopify would send for the event, as of the moment it happened. */
export function webhookPayload(
  store: ShopifyStandInStore,
  event: StoreEvent,
): Record<string, unknown> {
  if (event.topic === "fulfillments/create" || event.topic === "fulfillments/update") {
    return restFulfillment(store, event.order, event.fulfillment);
  }
  return restOrder(store, event.order);
}

function price(amount: string, currency: string) {
  const money = { amount, currency_code: currency };
  return { shop_money: money, presentment_money: money };
}

function restAddress(address: StandInAddress | null) {
  if (!address) return null;
  return {
    first_name: address.firstName,
    address1: address.address1,
    phone: address.phone,
    city: address.city,
    zip: address.zip,
    province: address.province,
    country: address.country,
    last_name: address.lastName,
    address2: address.address2,
    company: address.company,
    latitude: address.latitude,
    longitude: address.longitude,
    name: [address.firstName, address.lastName].filter(Boolean).join(" "),
    country_code: address.countryCode,
    province_code: address.provinceCode,
  };
}

function restLineItem(
  store: ShopifyStandInStore,
  order: StandInOrder,
  item: StandInLineItem,
  quantity = item.quantity,
) {
  const fulfilled = store.fulfilledQuantity(order, item.id);
  const zero = fromMinor(0, order.currencyCode);
  return {
    id: item.id,
    admin_graphql_api_id: gid("LineItem", item.id),
    variant_id: item.variantId,
    product_id: null,
    title: item.title,
    variant_title: item.variantTitle,
    name: item.variantTitle ? `${item.title} - ${item.variantTitle}` : item.title,
    sku: item.sku,
    vendor: item.vendor,
    quantity,
    current_quantity: item.quantity,
    price: item.price,
    price_set: price(item.price, order.currencyCode),
    grams: weightInGrams(item.weight),
    requires_shipping: item.requiresShipping,
    taxable: true,
    gift_card: false,
    product_exists: false,
    fulfillment_service: "manual",
    fulfillment_status: fulfilled >= item.quantity ? "fulfilled" : fulfilled > 0 ? "partial" : null,
    fulfillable_quantity: order.cancelledAt ? 0 : Math.max(0, item.quantity - fulfilled),
    variant_inventory_management: "shopify",
    properties: [],
    total_discount: zero,
    total_discount_set: price(zero, order.currencyCode),
    discount_allocations: [],
    duties: [],
    tax_lines: [],
  };
}

function restFulfillment(
  store: ShopifyStandInStore,
  order: StandInOrder,
  fulfillment: StandInFulfillment,
) {
  const latest = fulfillment.events.at(-1);
  const first = fulfillment.trackingInfo[0];
  const origin = fulfillment.originAddress;
  return {
    id: fulfillment.id,
    admin_graphql_api_id: gid("Fulfillment", fulfillment.id),
    order_id: order.id,
    name: fulfillment.name,
    status: fulfillment.status === "CANCELLED" ? "cancelled" : "success",
    service: "manual",
    created_at: shopTime(fulfillment.createdAt),
    updated_at: shopTime(fulfillment.updatedAt),
    location_id: fulfillment.locationId,
    shipment_status: latest ? latest.status.toLowerCase() : null,
    email: order.email,
    destination: restAddress(order.shippingAddress),
    origin_address: origin
      ? {
          address1: origin.address1,
          address2: origin.address2,
          city: origin.city,
          country_code: origin.countryCode,
          province_code: origin.provinceCode,
          zip: origin.zip,
        }
      : null,
    tracking_company: first?.company ?? null,
    tracking_number: first?.number ?? null,
    tracking_numbers: fulfillment.trackingInfo.flatMap((t) => (t.number ? [t.number] : [])),
    tracking_url: first?.url ?? null,
    tracking_urls: fulfillment.trackingInfo.flatMap((t) => (t.url ? [t.url] : [])),
    line_items: fulfillment.lineItems.flatMap((line) => {
      const item = order.lineItems.find((li) => li.id === line.lineItemId);
      return item ? [restLineItem(store, order, item, line.quantity)] : [];
    }),
    receipt: {},
  };
}

function restOrder(store: ShopifyStandInStore, order: StandInOrder) {
  const currency = order.currencyCode;
  const zero = fromMinor(0, currency);
  const status = store.displayFulfillmentStatus(order);
  return {
    id: order.id,
    admin_graphql_api_id: gid("Order", order.id),
    name: order.name,
    order_number: order.number,
    number: order.number - 1000,
    email: order.email,
    contact_email: order.email,
    phone: order.phone,
    note: order.note,
    tags: order.tags.join(", "),
    created_at: shopTime(order.createdAt),
    updated_at: shopTime(order.updatedAt),
    processed_at: shopTime(order.processedAt),
    closed_at: shopTime(order.closedAt),
    cancelled_at: shopTime(order.cancelledAt),
    cancel_reason: order.cancelReason?.toLowerCase() ?? null,
    confirmed: true,
    // Shown to the buyer only (thank-you page, order status page): the shopper's blocks' proof.
    confirmation_number: confirmationNumber(order.id),
    test: false,
    currency,
    presentment_currency: currency,
    customer_locale: order.customerLocale,
    source_name: "web",
    buyer_accepts_marketing: false,
    taxes_included: false,
    financial_status: order.financialStatus.toLowerCase(),
    fulfillment_status:
      status === "FULFILLED" ? "fulfilled" : status === "PARTIALLY_FULFILLED" ? "partial" : null,
    payment_gateway_names: order.paymentGatewayNames,
    subtotal_price: order.subtotalPrice,
    subtotal_price_set: price(order.subtotalPrice, currency),
    total_line_items_price: order.subtotalPrice,
    total_line_items_price_set: price(order.subtotalPrice, currency),
    total_discounts: zero,
    total_discounts_set: price(zero, currency),
    total_tax: zero,
    total_tax_set: price(zero, currency),
    total_price: order.totalPrice,
    current_total_price: order.financialStatus === "REFUNDED" ? zero : order.totalPrice,
    current_total_price_set: price(
      order.financialStatus === "REFUNDED" ? zero : order.totalPrice,
      currency,
    ),
    total_outstanding: order.totalOutstanding,
    total_price_set: price(order.totalPrice, currency),
    total_shipping_price_set: price(order.shippingPrice, currency),
    total_weight: order.lineItems.reduce(
      (sum, li) => sum + weightInGrams(li.weight) * li.quantity,
      0,
    ),
    note_attributes: [],
    discount_codes: [],
    tax_lines: [],
    shipping_address: restAddress(order.shippingAddress),
    // The stand-in's checkout bills where it ships.
    billing_address: restAddress(order.shippingAddress),
    shipping_lines: [
      {
        title: "Standard",
        code: "Standard",
        source: "shopify",
        price: order.shippingPrice,
        price_set: price(order.shippingPrice, currency),
        discounted_price: order.shippingPrice,
        discounted_price_set: price(order.shippingPrice, currency),
        tax_lines: [],
      },
    ],
    line_items: order.lineItems.map((item) => restLineItem(store, order, item)),
    fulfillments: order.fulfillments.map((f) => restFulfillment(store, order, f)),
  };
}

/** The order's confirmation number as Shopify shows it: nine letters and digits, fixed per order. */
export function confirmationNumber(orderId: number | string): string {
  return createHash("sha256")
    .update(`confirmation:${orderId}`)
    .digest("base64")
    .replace(/[^A-Za-z0-9]/g, "")
    .toUpperCase()
    .slice(0, 9);
}
