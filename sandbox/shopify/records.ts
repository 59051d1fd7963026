// The records the stand-in store keeps and the inputs its API takes, in Shopify's own terms.

/** The Admin API version the stand-in serves unless told otherwise. */
export const STANDIN_API_VERSION = "2026-10";

export type WeightUnit = "GRAMS" | "KILOGRAMS" | "OUNCES" | "POUNDS";
export interface Weight {
  value: number;
  unit: WeightUnit;
}

/** The Admin API's `FulfillmentEventStatus` values in 2026-10. */
export const FULFILLMENT_EVENT_STATUSES = [
  "ATTEMPTED_DELIVERY",
  "CARRIER_PICKED_UP",
  "CONFIRMED",
  "DELAYED",
  "DELIVERED",
  "FAILURE",
  "IN_TRANSIT",
  "LABEL_PRINTED",
  "LABEL_PURCHASED",
  "OUT_FOR_DELIVERY",
  "READY_FOR_PICKUP",
] as const;
export type FulfillmentEventStatus = (typeof FULFILLMENT_EVENT_STATUSES)[number];

export const ORDER_CANCEL_REASONS = [
  "CUSTOMER",
  "DECLINED",
  "FRAUD",
  "INVENTORY",
  "OTHER",
  "STAFF",
] as const;
export type OrderCancelReason = (typeof ORDER_CANCEL_REASONS)[number];

/** The subset of `OrderDisplayFinancialStatus` the stand-in's orders move through. */
export type FinancialStatus = "PAID" | "PENDING" | "VOIDED" | "REFUNDED";
export type FulfillmentOrderStatus = "OPEN" | "IN_PROGRESS" | "ON_HOLD" | "CLOSED";
export type FulfillmentStatus = "SUCCESS" | "CANCELLED";
export type DisplayFulfillmentStatus =
  "UNFULFILLED" | "PARTIALLY_FULFILLED" | "FULFILLED" | "ON_HOLD";

/** The Admin API's `FulfillmentHoldReason` values in 2026-10. */
export const FULFILLMENT_HOLD_REASONS = [
  "AWAITING_PAYMENT",
  "AWAITING_RETURN_ITEMS",
  "HIGH_RISK_OF_FRAUD",
  "INCORRECT_ADDRESS",
  "INVENTORY_OUT_OF_STOCK",
  "ONLINE_STORE_POST_PURCHASE_CROSS_SELL",
  "OTHER",
  "UNKNOWN_DELIVERY_DATE",
] as const;
export type FulfillmentHoldReason = (typeof FULFILLMENT_HOLD_REASONS)[number];

/** Topics of the webhooks the stand-in sends. */
export const WEBHOOK_TOPICS = [
  "fulfillments/create",
  "fulfillments/update",
  "orders/cancelled",
  "orders/create",
  "orders/fulfilled",
  "orders/paid",
] as const;
export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

export interface StandInAddress {
  id: number;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  provinceCode: string | null;
  zip: string | null;
  country: string;
  countryCode: string;
  phone: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface StandInLocationAddress {
  address1: string | null;
  address2: string | null;
  city: string | null;
  zip: string | null;
  province: string | null;
  provinceCode: string | null;
  country: string;
  countryCode: string;
  phone: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface StandInLocation {
  id: number;
  name: string;
  isActive: boolean;
  fulfillsOnlineOrders: boolean;
  address: StandInLocationAddress;
}

export interface StandInLineItem {
  id: number;
  variantId: number;
  inventoryItemId: number;
  title: string;
  variantTitle: string | null;
  sku: string | null;
  vendor: string | null;
  quantity: number;
  /** Unit price in the order's currency and precision, e.g. "12.500". */
  price: string;
  requiresShipping: boolean;
  weight: Weight | null;
}

export interface StandInFulfillmentOrderLineItem {
  id: number;
  lineItemId: number;
  totalQuantity: number;
  remainingQuantity: number;
}

export interface StandInFulfillmentOrder {
  id: number;
  orderId: number;
  locationId: number;
  /** ON_HOLD while any of its holds is active. */
  status: FulfillmentOrderStatus;
  createdAt: Date;
  updatedAt: Date;
  lineItems: StandInFulfillmentOrderLineItem[];
  /** Where its items go: the order's shipping address, followed while the order is not closed. */
  destination: StandInAddress | null;
  /** Every hold placed on it, released ones included (`releasedAt` set). */
  holds: StandInFulfillmentHold[];
}

export interface StandInFulfillmentHold {
  id: number;
  fulfillmentOrderId: number;
  reason: FulfillmentHoldReason;
  reasonNotes: string | null;
  /** "" when none was given (Shopify's default); unique among one holder's active holds. */
  handle: string;
  /** Who placed it: the app through the Admin API, or the merchant in the admin. */
  heldBy: "app" | "merchant";
  notifyMerchant: boolean;
  externalId: string | null;
  createdAt: Date;
  /** When it was released, or its fulfillment order closed; null while it holds. */
  releasedAt: Date | null;
}

export interface StandInMetafield {
  id: number;
  namespace: string;
  key: string;
  /** Shopify's metafield type, e.g. "single_line_text_field" or "json". */
  type: string;
  /** Always a string, whatever the type, as Shopify stores it. */
  value: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface StandInTrackingInfo {
  company: string | null;
  number: string | null;
  url: string | null;
}

export interface StandInFulfillmentEvent {
  id: number;
  status: FulfillmentEventStatus;
  happenedAt: Date;
  createdAt: Date;
  message: string | null;
  estimatedDeliveryAt: Date | null;
  address1: string | null;
  city: string | null;
  province: string | null;
  country: string | null;
  zip: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface StandInOriginAddress {
  address1: string | null;
  address2: string | null;
  city: string | null;
  countryCode: string;
  provinceCode: string | null;
  zip: string | null;
}

export interface StandInFulfillment {
  id: number;
  orderId: number;
  locationId: number;
  /** "#1001.1": the order's name and the fulfillment's position on it. */
  name: string;
  status: FulfillmentStatus;
  createdAt: Date;
  updatedAt: Date;
  trackingInfo: StandInTrackingInfo[];
  events: StandInFulfillmentEvent[];
  lineItems: { id: number; lineItemId: number; quantity: number }[];
  /** For each fulfillment order it drew from, the quantities taken per fulfillment order line. */
  drawnFrom: { fulfillmentOrderId: number; lines: { id: number; quantity: number }[] }[];
  notifyCustomer: boolean;
  originAddress: StandInOriginAddress | null;
  message: string | null;
  deliveredAt: Date | null;
  inTransitAt: Date | null;
  estimatedDeliveryAt: Date | null;
  /** Who made it: the app through GraphQL, or the merchant through the store's own API. */
  createdBy: "app" | "merchant";
}

export interface StandInOrder {
  id: number;
  number: number;
  /** "#1001". */
  name: string;
  createdAt: Date;
  updatedAt: Date;
  processedAt: Date;
  closedAt: Date | null;
  cancelledAt: Date | null;
  cancelReason: OrderCancelReason | null;
  email: string | null;
  phone: string | null;
  /** The language the customer shopped in ("ar", "en"...), as Shopify's Order.customerLocale. */
  customerLocale: string | null;
  note: string | null;
  tags: string[];
  currencyCode: string;
  financialStatus: FinancialStatus;
  paymentGatewayNames: string[];
  /** Amounts in the currency's precision ("13.500" KWD). */
  subtotalPrice: string;
  shippingPrice: string;
  totalPrice: string;
  totalOutstanding: string;
  shippingAddress: StandInAddress | null;
  lineItems: StandInLineItem[];
  fulfillmentOrders: StandInFulfillmentOrder[];
  fulfillments: StandInFulfillment[];
  metafields: StandInMetafield[];
}

export interface AddressInput {
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  provinceCode: string | null;
  zip: string | null;
  country: string;
  countryCode: string;
  phone: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface LineItemInput {
  title?: string;
  variantTitle?: string | null;
  sku?: string | null;
  vendor?: string | null;
  quantity?: number;
  /** Unit price, e.g. "12.500" or 12.5 (default "12.500"). */
  price?: string | number;
  /** Default 350 grams; `null` for an item without a weight. */
  weight?: Weight | null;
  /** Shorthand for `weight: { value: grams, unit: "GRAMS" }`. */
  grams?: number;
  requiresShipping?: boolean;
  /** The location whose fulfillment order carries this line (id or gid); default the order's. */
  locationId?: number | string;
}

export interface OrderInput {
  email?: string | null;
  phone?: string | null;
  /** Default "en". */
  customerLocale?: string | null;
  note?: string | null;
  tags?: string[];
  /** Default the shop's currency (KWD). */
  currencyCode?: string;
  /**
   * "paid" (default): financial status PAID, nothing outstanding. "cod": cash on delivery, status
   * PENDING with the whole total outstanding until `markOrderAsPaid`.
   */
  payment?: "paid" | "cod";
  paymentGatewayNames?: string[];
  /** Merged over a Kuwaiti default address; `null` for an order without one. */
  shippingAddress?: Partial<AddressInput> | null;
  /** Default one 350 g item at 12.500. */
  lineItems?: LineItemInput[];
  /** Default "1.000". */
  shippingPrice?: string | number;
  /** The location that fulfills the order (id or gid); default the first active one. */
  locationId?: number | string;
  createdAt?: Date | string;
  /**
   * false: the order arrives without fulfillment orders, as Shopify creates them in a background
   * job after the order (and its orders/create webhook); `routeOrder` creates them. Default true.
   */
  routed?: boolean;
}

/** Shopify's `MailingAddressInput`: no coordinates; `country` and `province` are deprecated. */
export interface MailingAddressInput {
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  province?: string | null;
  provinceCode?: string | null;
  zip?: string | null;
  country?: string | null;
  countryCode?: string | null;
  phone?: string | null;
}

/** Shopify's `MetafieldInput` (the id as a number). */
export interface MetafieldInput {
  id?: number | null;
  namespace?: string | null;
  key?: string | null;
  type?: string | null;
  value?: string | null;
}

/** What `orderUpdate` (Shopify's GraphQL `OrderInput`) changes on an order, besides its id. */
export interface OrderUpdateInput {
  /** Replaces the fields given; a field left out keeps its value. */
  shippingAddress?: MailingAddressInput | null;
  /** Added, or updated when one with the same namespace and key (or id) exists. */
  metafields?: MetafieldInput[] | null;
  email?: string | null;
  phone?: string | null;
  note?: string | null;
  tags?: string[] | null;
}

/** Shopify's `FulfillmentOrderHoldInput` (line item ids as numbers). */
export interface FulfillmentHoldInput {
  reason: FulfillmentHoldReason;
  reasonNotes?: string | null;
  /** Default "". */
  handle?: string | null;
  notifyMerchant?: boolean | null;
  externalId?: string | null;
  /** Hold only these quantities: the rest moves to a new fulfillment order. Default all. */
  fulfillmentOrderLineItems?: { id: number; quantity: number }[] | null;
}

export interface HoldResult {
  hold: StandInFulfillmentHold;
  fulfillmentOrder: StandInFulfillmentOrder;
  /** The items not held, split off into a fulfillment order of their own; null when none. */
  remainingFulfillmentOrder: StandInFulfillmentOrder | null;
}

export interface LocationInput {
  name?: string;
  isActive?: boolean;
  fulfillsOnlineOrders?: boolean;
  /** Merged over a Kuwaiti default address. */
  address?: Partial<StandInLocationAddress>;
}

export interface TrackingInput {
  company?: string | null;
  number?: string | null;
  numbers?: string[] | null;
  url?: string | null;
  urls?: string[] | null;
}

export interface FulfillmentCreateInput {
  lineItemsByFulfillmentOrder: {
    fulfillmentOrderId: number;
    fulfillmentOrderLineItems?: { id: number; quantity: number }[] | null;
  }[];
  notifyCustomer?: boolean | null;
  trackingInfo?: TrackingInput | null;
  originAddress?: StandInOriginAddress | null;
  message?: string | null;
}

export interface FulfillmentEventInput {
  status: FulfillmentEventStatus;
  happenedAt?: Date | null;
  estimatedDeliveryAt?: Date | null;
  message?: string | null;
  address1?: string | null;
  city?: string | null;
  province?: string | null;
  country?: string | null;
  zip?: string | null;
  latitude?: number | null;
  longitude?: number | null;
}

export interface OrderCancelInput {
  reason: OrderCancelReason;
  restock?: boolean;
  /** Refund what was paid (the deprecated `refund` argument or `refundMethod`). */
  refund?: boolean;
  notifyCustomer?: boolean;
  staffNote?: string | null;
}

export interface FulfillOptions {
  /** The fulfillment order to fulfill (id or gid); default the first that can be fulfilled. */
  fulfillmentOrderId?: number | string;
  /** Fulfill the fulfillment order assigned to this location (id or gid). */
  locationId?: number | string;
  /** Quantities per line item (id, gid or SKU); default everything still to fulfill. */
  lineItems?: { lineItem: number | string; quantity: number }[];
  tracking?: TrackingInput;
  notifyCustomer?: boolean;
}

/** `field` is the input path Shopify would name; `code` is set where the payload has one. */
export interface UserErrorRecord {
  field: string[] | null;
  message: string;
  code?: string;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; userErrors: UserErrorRecord[] };

/** An outcome of one user error. */
export function fail<T>(field: string[] | null, message: string, code?: string): Outcome<T> {
  return { ok: false, userErrors: [{ field, message, ...(code ? { code } : {}) }] };
}

/** Something the store did that Shopify would announce with a webhook. */
export type StoreEvent =
  | {
      topic: "fulfillments/create" | "fulfillments/update";
      at: Date;
      order: StandInOrder;
      fulfillment: StandInFulfillment;
    }
  | {
      topic: "orders/cancelled" | "orders/create" | "orders/fulfilled" | "orders/paid";
      at: Date;
      order: StandInOrder;
    };

/** One GraphQL call as the stand-in saw it. */
export interface GraphqlOperationRecord {
  seq: number;
  at: string;
  operationName: string | null;
  operationType: "query" | "mutation" | null;
  variables: Record<string, unknown>;
  query: string;
  requestedQueryCost: number | null;
  actualQueryCost: number | null;
  /** `throttled`/`http429`/`http5xx` when refused before running, `errors` for top-level errors. */
  outcome: "ok" | "errors" | "throttled" | "http429" | "http5xx";
  errors: string[];
  userErrors: UserErrorRecord[];
}

const GRAMS_PER: Record<WeightUnit, number> = {
  GRAMS: 1,
  KILOGRAMS: 1000,
  OUNCES: 28.349523125,
  POUNDS: 453.59237,
};

/** A weight in whole grams, as REST payloads and `Order.totalWeight` give it. */
export function weightInGrams(weight: Weight | null): number {
  return weight ? Math.round(weight.value * GRAMS_PER[weight.unit]) : 0;
}
