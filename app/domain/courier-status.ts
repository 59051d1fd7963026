import { z } from "zod";
import { normalizeArabic } from "../addresses/normalize";
import { isFinal, type DeliveryState } from "./states";

/**
 * What a courier status means, the pure part: recognized from its code and names (English, Arabic),
 * or as the merchant set it on Settings, as a delivery state and a Shopify shipment status. The
 * plan (tracking-plan.ts) applies these meanings to a delivery.
 */

/** Shopify's FulfillmentEventStatus values the app writes (Admin API 2026-10). */
export const SHOPIFY_EVENT_STATUSES = [
  "CONFIRMED",
  "CARRIER_PICKED_UP",
  "IN_TRANSIT",
  "OUT_FOR_DELIVERY",
  "ATTEMPTED_DELIVERY",
  "DELAYED",
  "DELIVERED",
  "FAILURE",
] as const;
export type ShopifyEventStatus = (typeof SHOPIFY_EVENT_STATUSES)[number];
export const shopifyEventStatusSchema = z.enum(SHOPIFY_EVENT_STATUSES);

export const SHOPIFY_EVENT_LABELS: Record<ShopifyEventStatus, string> = {
  CONFIRMED: "Confirmed",
  CARRIER_PICKED_UP: "Picked up by carrier",
  IN_TRANSIT: "In transit",
  OUT_FOR_DELIVERY: "Out for delivery",
  ATTEMPTED_DELIVERY: "Attempted delivery",
  DELAYED: "Delayed",
  DELIVERED: "Delivered",
  FAILURE: "Failure",
};

/** The delivery states a courier status can put a delivery in. */
export const TRACKED_STATES = [
  "created",
  "picked_up",
  "in_transit",
  "out_for_delivery",
  "failed",
  "delivered",
  "returned",
  "cancelled",
] as const satisfies readonly DeliveryState[];
export type TrackedState = (typeof TRACKED_STATES)[number];

export function isTrackedState(state: DeliveryState): state is TrackedState {
  return TRACKED_STATES.some((tracked) => tracked === state);
}

/** States the sync keeps following (not final). */
export const ACTIVE_TRACKED_STATES: readonly DeliveryState[] = TRACKED_STATES.filter(
  (s) => !isFinal(s),
);

/** What a courier status may put a delivery in: a tracked state, or `unchanged`. */
export const mappedStateSchema = z.enum([...TRACKED_STATES, "unchanged"]);

/** What one courier status means. `state: "unchanged"` only writes the Shopify event (delays). */
export interface StatusMeaning {
  state: TrackedState | "unchanged";
  shopify: ShopifyEventStatus | null;
}

/** Whole words or phrases, in Latin or Arabic script (`\b` knows only ASCII letters). */
const words = (...phrases: string[]) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${phrases.join("|")})(?![\\p{L}\\p{N}])`, "u");

const CREATED: StatusMeaning = { state: "created", shopify: null };
const CONFIRMED: StatusMeaning = { state: "created", shopify: "CONFIRMED" };

/**
 * What recognizing one text can say: a meaning, "unclear" (it speaks of something the app must not
 * guess, such as a return that has not reached the sender), or nothing.
 */
type Reading = StatusMeaning | "unclear" | null;

// Normalized Arabic has no article and no glued ل/بال (normalizeArabic): «للمرسل» is «مرسل».
const FAILURE = words(
  "fail(?:ed|ure|s)?",
  "unsuccessful",
  "undeliver(?:ed|able)",
  "not delivered",
  "unable to deliver",
  "attempt(?:ed)?",
  "refused",
  "no answer",
  "(?:customer|recipient|consignee) (?:not available|unavailable|unreachable)",
  "تعذر",
  "فشل",
  "فاشله",
  "لم يتم",
  "محاوله",
  "رفض",
);
const PICKUP = words("pick ?up", "picked ?up", "collection", "collected", "استلام", "استلم");
// Waiting for something: nothing has happened yet, whatever else the name mentions.
const WAITING = words(
  "awaiting",
  "waiting",
  "wait",
  "ready",
  "scheduled",
  "pending",
  "to be",
  "بانتظار",
  "انتظار",
  "جاهز",
  "مجدول",
  "مجدوله",
);
const ON_THE_WAY_TO_PICKUP = words(
  "(?:on (?:the|its|his|her) way|en route|heading|going|driving) (?:to|for) (?:the )?(?:pick ?up|collection|sender|shipper|merchant|store)",
  "في طريق (?:الي )?(?:استلام|مرسل|تاجر|متجر)",
  "متجه (?:الي )?(?:استلام|مرسل|تاجر|متجر)",
);
const RETURNED = [
  /^returned$/,
  words("returned to (?:the )?(?:sender|shipper|merchant|seller|vendor|origin|store)"),
  /^مرتجع$/,
  words("(?:تم )?(?:اعيد|ارجع|ارجاع|اعاده|مرتجع) (?:الي )?(?:مرسل|شاحن|تاجر|بايع|متجر)"),
];
const DELIVERED = [
  /^(?:(?:order|shipment|parcel|package) )?delivered(?: successfully)?$/,
  words(
    "delivered to (?:the )?(?:customer|recipient|consignee|receiver|client|buyer|addressee)",
    "successfully delivered",
    "delivery (?:completed?|successful)",
  ),
  /^تم (?:توصيل|تسليم)(?: (?:طلب|شحنه|طرد))?(?: (?:الي )?(?:عميل|مستلم|زبون))?(?: بنجاح)?$/,
];
const CANCELLED = words(
  "cancell?ed",
  "voided",
  "ملغي",
  "ملغيه",
  "ملغاه",
  "ملغا",
  "الغي",
  "تم الغا",
  "تم الغاء",
);
const NEGATION = words("not", "no", "never", "لم", "لا", "غير", "عدم");
const RETURN = words(
  "return(?:ed|ing|s)?",
  "rto",
  "rts",
  "مرتجع",
  "ارجاع",
  "ارجع",
  "اعيد",
  "اعاده",
  "راجع",
);
const CUSTOMER = words("customer", "recipient", "consignee", "receiver", "عميل", "زبون", "مستلم");

const RULES: [RegExp, StatusMeaning][] = [
  [
    words("delay(?:ed|s)?", "late", "تاخير", "متاخر", "تاخر"),
    { state: "unchanged", shopify: "DELAYED" },
  ],
  [
    words(
      "out for delivery",
      "with (?:the )?(?:driver|courier) for delivery",
      "on (?:the|its) way to (?:the )?(?:customer|recipient|consignee)",
      "خرج (?:توصيل|تسليم)",
      "جاري توصيل",
      "قيد توصيل",
    ),
    { state: "out_for_delivery", shopify: "OUT_FOR_DELIVERY" },
  ],
  [
    words(
      "picked ?up",
      "pick ?up (?:completed?|done|successful)",
      "collected(?: from (?:the )?(?:sender|shipper|merchant|store))?",
      "received from (?:the )?(?:sender|shipper|merchant|store)",
      "تم استلام",
      "استلم",
    ),
    { state: "picked_up", shopify: "CARRIER_PICKED_UP" },
  ],
  [
    words(
      "in transit",
      "transit",
      "on the way",
      "shipped",
      "departed",
      "arrived at",
      "hub",
      "sort(?:ed|ing)",
      "warehouse",
      "في طريق",
      "قيد نقل",
      "مستودع",
    ),
    { state: "in_transit", shopify: "IN_TRANSIT" },
  ],
  [words("accept(?:ed)?", "confirm(?:ed)?", "assign(?:ed)?", "قبول", "تاكيد", "تعيين"), CONFIRMED],
  [words("new", "created", "registered", "جديد", "انشا"), CREATED],
];

function read(text: string): Reading {
  if (ON_THE_WAY_TO_PICKUP.test(text)) return CONFIRMED;
  if (WAITING.test(text)) return CREATED;
  // "Not delivered" is a failure before "delivered" is a delivery; a failed pickup is not a
  // failed delivery attempt.
  if (FAILURE.test(text))
    return PICKUP.test(text) ? "unclear" : { state: "failed", shopify: "ATTEMPTED_DELIVERY" };
  // Final states only from phrases that say so: "pickup completed" is not a delivery, "return to
  // hub" is not a return to the sender.
  if (RETURNED.some((r) => r.test(text))) return { state: "returned", shopify: "FAILURE" };
  if (DELIVERED.some((r) => r.test(text))) return { state: "delivered", shopify: "DELIVERED" };
  if (CANCELLED.test(text)) return { state: "cancelled", shopify: null };
  if (NEGATION.test(text) || RETURN.test(text)) return "unclear";
  if (PICKUP.test(text) && CUSTOMER.test(text)) return "unclear";
  return RULES.find(([test]) => test.test(text))?.[1] ?? null;
}

const normalizeName = (text: string) =>
  normalizeArabic(text.toLowerCase().replace(/[_-]+/g, " ")).replace(/\s+/g, " ").trim();

/**
 * The default meaning of a courier status, recognized from its code and names; null when nothing
 * is clearly recognized (the status is then recorded as unmapped, not guessed). The code is tried
 * first, since names are free text.
 */
export function recognizeStatus(code: string, ...names: (string | null | undefined)[]) {
  for (const text of [code, ...names]) {
    if (!text) continue;
    const reading = read(normalizeName(text));
    if (reading && reading !== "unclear") return reading;
  }
  return null;
}
