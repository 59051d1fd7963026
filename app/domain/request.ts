import { missingForCourier, type AddressParts, type MissingParts } from "../addresses";
import { isCourierError, type CourierValidationError } from "../courier/errors";
import { formatKuwaitDateTime, parseKuwaitDateTime, roundKwd } from "../courier/format";
import { buildCreateOrderBody, type CreateOrderBody } from "../courier/requests";
import { addressNotes, orderNotes } from "./courier-notes";

/**
 * Building the courier's create request: a pure function of the order, the shop's settings, the
 * pickup mapping and the destination's place. Everything it needs is passed in; it reads no clock
 * and no database, so the same inputs always give the same body.
 */

export interface OrderAmounts {
  currencyCode: string;
  /** Shopify's decimal strings. */
  totalPrice: string;
  totalOutstanding: string;
}

export interface OrderForDelivery extends OrderAmounts {
  id: string;
  name: string;
  /** The order's note: the shopper's instructions at checkout (or the merchant's); may be null. */
  note: string | null;
  /** The amounts above are in the shop's currency; these in the currency the customer paid in. */
  presentment: OrderAmounts;
  phone: string | null;
  /** The language the customer shopped in ("ar", "en-US"...), as Shopify records it; may be null. */
  customerLocale: string | null;
  shippingAddress: {
    name: string | null;
    phone: string | null;
    address1: string | null;
    address2: string | null;
    city: string | null;
    zip: string | null;
    provinceCode: string | null;
    countryCode: string | null;
    latitude: number | null;
    longitude: number | null;
  } | null;
  /**
   * The items this fulfillment carries: weight per unit in kilograms when Shopify knows it, and
   * their price after discounts in the shop's and the customer's currency.
   */
  items: {
    title: string;
    quantity: number;
    unitWeightKg: number | null;
    value: { shop: number; presentment: number };
  }[];
}

export interface DeliverySettings {
  paymentCodeCod: string | null;
  paymentCodePrepaid: string | null;
  preparationMinutes: number;
}

export interface PickupMapping {
  governanceId: number;
  areaId: number;
  block: string;
  street: string;
  building: string;
  avenue: string;
  floor: string;
  contactName: string;
  contactPhone: string;
  latitude: number | null;
  longitude: number | null;
}

export interface DestinationPlace {
  governanceId: number;
  areaId: number;
  parts: AddressParts;
  /** The phone the merchant corrected, used instead of the order's (`+965` and eight digits). */
  contactPhone?: string | null;
  /** Where the shopper pinned the door, instead of the order's coordinates. */
  location?: { latitude: number; longitude: number } | null;
  /** The shopper's own directions for the driver (their page, issue 26). */
  notes?: string | null;
}

export interface RequestContext {
  order: OrderForDelivery;
  settings: DeliverySettings;
  pickup: PickupMapping;
  destination: DestinationPlace;
  reference: string;
  /**
   * Whether this delivery collects the order's outstanding balance: false when another delivery
   * of the same order (split fulfillment) already does (see {@link buildDeliveryRequest}).
   */
  collectsBalance: boolean;
  /** When the merchant marked it fulfilled (or pressed send). */
  requestedAt: Date;
  /** When the request is built: the pickup time is never before it (see {@link pickupTime}). */
  now: Date;
}

export type BuiltRequest =
  | {
      ok: true;
      body: CreateOrderBody;
      cashOnDelivery: boolean;
      /** What the driver collects, in KWD with three decimals; null when nothing. */
      cashToCollect: string | null;
      /** The order had a balance that another delivery of it collects. */
      balanceCollectedElsewhere: boolean;
    }
  /**
   * `attention`: the merchant must change something outside the address (the currency).
   * `missing`: the address lacks what the courier needs (its sentence is first in `problems`).
   */
  | { ok: false; problems: string[]; attention?: true; missing?: MissingParts };

/** Why a delivery waits for the parts its address lacks, in English (the timeline's record). */
export function missingPartsReason(missing: MissingParts): string {
  switch (missing) {
    case "block":
      return "The address has no block number, which the courier needs: add it, then send.";
    case "street_or_house":
      return "The address has no street, house or building number, which the courier needs: add one, then send.";
    case "block_and_street_or_house":
      return "The address has no block number and no street, house or building number, which the courier needs: add them, then send.";
  }
}

/**
 * The order's amounts in Kuwaiti dinar, which is all the courier takes: those the customer paid
 * in when that is KWD (a shop in another currency selling to Kuwait through Shopify Markets),
 * else the shop's own when the shop keeps its books in KWD; null when Shopify has neither.
 */
export function amountsInKwd(
  order: OrderAmounts & { presentment: OrderAmounts },
): (OrderAmounts & { source: "presentment" | "shop" }) | null {
  if (order.presentment.currencyCode === "KWD")
    return { ...order.presentment, source: "presentment" };
  if (order.currencyCode === "KWD") return { ...order, source: "shop" };
  return null;
}

/** Why the order cannot go to the courier for its currency, in the merchant's words; or null. */
export function currencyProblem(
  order: OrderAmounts & { presentment: OrderAmounts },
): string | null {
  return currencyCodesProblem(order.currencyCode, order.presentment.currencyCode);
}

/**
 * {@link currencyProblem} from the currencies alone, before any amount is read (the Send page
 * refuses such an order before fulfilling it): the shop's, and the one the customer paid in.
 * Null when either is KWD, as {@link amountsInKwd} takes them.
 */
export function currencyCodesProblem(shopCurrency: string, paidIn: string): string | null {
  if (paidIn === "KWD" || shopCurrency === "KWD") return null;
  return `The order is in ${paidIn}${paidIn === shopCurrency ? "" : ` (the shop's currency is ${shopCurrency})`}: the courier takes amounts in Kuwaiti dinar (KWD) only. Sell to Kuwait in KWD (Shopify Markets) or arrange this delivery with the courier yourself.`;
}

/** Parcels weigh something even when the products do not say: the courier's form needs a weight. */
export const DEFAULT_WEIGHT_KG = 0.5;
const DESCRIPTION_LIMIT = 200;

/**
 * The body of a courier create. Cash on delivery: an order with an outstanding balance has it
 * collected by one delivery only — the first of the order built while it is outstanding (the
 * caller decides, `collectsBalance`); that delivery's value is the whole balance. Every other
 * delivery, and every delivery of a paid order, goes prepaid with the value of its own items.
 */
export function buildDeliveryRequest(context: RequestContext): BuiltRequest {
  const { order, settings, pickup, destination, reference } = context;
  const problems: string[] = [];
  const address = order.shippingAddress;
  const charge = parcelCharge(order, context.collectsBalance);
  if (!charge.ok) return { ok: false, problems: [charge.problem], attention: true };
  const { cashOnDelivery, value } = charge;
  if (!address) problems.push("The order has no shipping address.");
  // No block, no send: whatever placed the area (the matcher, a remembered answer, the
  // merchant), the parts come from this order's address or the merchant's hand (ADR 0052).
  const missing = address ? missingForCourier(destination.parts) : null;
  if (missing) problems.push(missingPartsReason(missing));
  const paymentMethod = cashOnDelivery ? settings.paymentCodeCod : settings.paymentCodePrepaid;
  if (!paymentMethod) {
    problems.push(
      cashOnDelivery
        ? "Set the courier's payment code for cash on delivery in Settings."
        : "Set the courier's payment code for prepaid orders in Settings.",
    );
  }
  const contactPhone = destination.contactPhone || address?.phone || order.phone;
  if (!contactPhone)
    problems.push("The shipping address has no phone number for the courier to call.");
  if (problems.length > 0 || !address || !paymentMethod || !contactPhone)
    return missing ? { ok: false, problems, missing } : { ok: false, problems };

  const parts = destination.parts;
  const input = {
    pickupAddress: {
      governanceId: pickup.governanceId,
      areaId: pickup.areaId,
      block: pickup.block,
      street: pickup.street,
      office: "",
      floor: pickup.floor,
      house: "",
      avenue: pickup.avenue,
      building: pickup.building,
      contactName: pickup.contactName,
      contactPhone: pickup.contactPhone,
      ...(pickup.latitude !== null && pickup.longitude !== null
        ? { latitude: pickup.latitude, longitude: pickup.longitude }
        : {}),
      notes: "",
    },
    pickupDate: pickupTime(context.requestedAt, context.now, settings.preparationMinutes),
    paymentMethod,
    deliveryAddress: {
      governanceId: destination.governanceId,
      areaId: destination.areaId,
      block: parts.block ?? "",
      street: parts.street ?? "",
      office: "",
      floor: parts.floor ?? "",
      house: parts.house ?? "",
      avenue: parts.avenue ?? "",
      building: parts.building ?? "",
      contactName: address.name?.trim() || "Customer",
      contactPhone,
      ...(destination.location
        ? destination.location
        : address.latitude !== null && address.longitude !== null
          ? { latitude: address.latitude, longitude: address.longitude }
          : {}),
      // The courier's form has no apartment or PACI field; the driver reads them here, with the
      // address lines as the shopper typed them (landmarks, directions) and their own notes.
      notes: addressNotes({
        apartment: parts.apartment,
        paci: parts.paci,
        lines: [destination.notes ?? null, address.address1, address.address2],
      }),
    },
    packageDetails: {
      weight: packageWeightKg(order.items),
      description: describeItems(order.items),
      value,
    },
    // The reference first and whole (history finds the order by it), then the shopper's note.
    notes: orderNotes({ reference, orderName: order.name, note: order.note }),
  };
  try {
    return {
      ok: true,
      body: buildCreateOrderBody(input),
      cashOnDelivery,
      cashToCollect: cashOnDelivery ? value.toFixed(3) : null,
      balanceCollectedElsewhere: charge.balanceCollectedElsewhere,
    };
  } catch (error) {
    if (!isCourierError(error)) throw error;
    const validation = error as CourierValidationError;
    const fields = validation.fieldErrors?.map((f) => `${f.field}: ${f.message}`) ?? [];
    return { ok: false, problems: fields.length > 0 ? fields : [validation.message] };
  }
}

export type ParcelCharge =
  | {
      ok: true;
      cashOnDelivery: boolean;
      /** Cash on delivery: what the driver collects. Prepaid: the parcel's declared value. KWD. */
      value: number;
      /** The order owes a balance that another delivery of it collects. */
      balanceCollectedElsewhere: boolean;
    }
  | { ok: false; problem: string };

/**
 * What the courier is told about money for one parcel of an order: cash on delivery for the
 * whole outstanding balance when this delivery collects it (one per order, `collectsBalance`),
 * else prepaid with the value of its own items — in KWD, from the amounts the customer paid in
 * or the shop's ({@link amountsInKwd}). The price quote uses the same rule.
 */
export function parcelCharge(
  order: Pick<
    OrderForDelivery,
    "currencyCode" | "totalPrice" | "totalOutstanding" | "presentment"
  > & {
    items: readonly Pick<OrderForDelivery["items"][number], "value">[];
  },
  collectsBalance: boolean,
): ParcelCharge {
  const amounts = amountsInKwd(order);
  if (!amounts) return { ok: false, problem: currencyProblem(order)! };
  const outstanding = Number(amounts.totalOutstanding);
  const owesBalance = Number.isFinite(outstanding) && outstanding > 0;
  const cashOnDelivery = owesBalance && collectsBalance;
  const ownValue = order.items.reduce((sum, item) => sum + item.value[amounts.source], 0);
  return {
    ok: true,
    cashOnDelivery,
    value: roundKwd(cashOnDelivery ? outstanding : ownValue),
    balanceCollectedElsewhere: owesBalance && !collectsBalance,
  };
}

/**
 * When the courier is asked to pick the parcel up: the preparation delay after the fulfillment,
 * or after now when the request is built (or sent) later than that. The courier refuses pickup
 * times in the past, so a delivery that waited (address review, a courier outage, "Send again")
 * must not carry the time of its fulfillment.
 */
export function pickupTime(requestedAt: Date, now: Date, preparationMinutes: number): Date {
  return new Date(Math.max(requestedAt.getTime(), now.getTime()) + preparationMinutes * 60_000);
}

/** A request sent within this long of being built keeps its pickup time (batches wait a pass). */
export const PICKUP_SLACK_MS = 10 * 60_000;

/**
 * A stored request about to be sent (again): when its pickup time has passed, or is more than
 * {@link PICKUP_SLACK_MS} earlier than {@link pickupTime} as of now, it moves to that. Nothing
 * else changes, the reference in the notes least of all. Returns `body` itself when unchanged.
 */
export function refreshPickupDate(
  body: CreateOrderBody,
  requestedAt: Date,
  now: Date,
  preparationMinutes: number,
): CreateOrderBody {
  const earliest = pickupTime(requestedAt, now, preparationMinutes);
  const stored = parseKuwaitDateTime(body.pickupDate)?.getTime();
  const keepFrom = Math.max(now.getTime(), earliest.getTime() - PICKUP_SLACK_MS);
  if (stored !== undefined && stored >= keepFrom) return body;
  return { ...body, pickupDate: formatKuwaitDateTime(earliest) };
}

/** A reference the courier keeps in the order's notes; the same fulfillment always gives the same. */
export function deliveryReference(shop: string, fulfillmentId: string): string {
  const shopName = shop.replace(/\.myshopify\.com$/, "");
  const numericId = fulfillmentId.replace(/^gid:\/\/shopify\/Fulfillment\//, "");
  return `SHPFY-${shopName}-${numericId}`;
}

/**
 * Whether a courier order's notes carry `reference` as a whole token: "SHPFY-shop-12" is not in
 * "SHPFY-shop-123 · …". History searches match substrings, so every hit is checked with this.
 */
export function notesCarryReference(notes: unknown, reference: string): boolean {
  if (typeof notes !== "string" || reference === "") return false;
  const escaped = reference.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?:^|[^A-Za-z0-9_-])${escaped}(?:$|[^A-Za-z0-9_-])`).test(notes);
}

export function packageWeightKg(
  items: readonly Pick<OrderForDelivery["items"][number], "quantity" | "unitWeightKg">[],
): number {
  let total = 0;
  let known = false;
  for (const item of items) {
    if (item.unitWeightKg !== null && item.unitWeightKg > 0) {
      total += item.unitWeightKg * item.quantity;
      known = true;
    }
  }
  return known ? Math.round(total * 1000) / 1000 : DEFAULT_WEIGHT_KG;
}

/**
 * The parcel's items for the courier's description: "2 × Shirt, 1 × Hat". A list longer than
 * {@link DESCRIPTION_LIMIT} characters is cut with "…" and ends with the count of every piece the
 * fulfillment carries ("… (42 pieces in all)"), so the driver and the label
 * (`piecesFromDescription`) still know it.
 */
export function describeItems(items: OrderForDelivery["items"]): string {
  const text = items.map((item) => `${item.quantity} × ${item.title}`).join(", ");
  if (text.length <= DESCRIPTION_LIMIT) return text;
  const pieces = items.reduce((sum, item) => sum + item.quantity, 0);
  const total = ` (${pieces} ${pieces === 1 ? "piece" : "pieces"} in all)`;
  let kept = text.slice(0, DESCRIPTION_LIMIT - total.length - 1);
  // Never half of a character written as two UTF-16 units (an emoji in a product's title).
  if (/[\uD800-\uDBFF]$/.test(kept)) kept = kept.slice(0, -1);
  return `${kept}…${total}`;
}
