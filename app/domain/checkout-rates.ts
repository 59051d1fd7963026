import { z } from "zod";
import { isWorkingDay, kuwaitDay, nextWorkingDay } from "./working-days";

/**
 * Checkout rates, the pure half (issue 28, ADR 0062): what Shopify's rate request says, the
 * weight band a cart falls in, the price the shopper sees from the courier's price and the
 * merchant's choices, the money as Shopify wants it, and the delivery promise in Kuwait's working
 * days. No I/O: app/checkout/ reads the table and the settings and calls these.
 */

// ── Shopify's request ────────────────────────────────────────────────────────────────────────

const text = z.string().nullish();
const address = z.looseObject({
  country: text,
  province: text,
  city: text,
  address1: text,
  address2: text,
  postal_code: text,
  zip: text,
});
const item = z.looseObject({
  quantity: z.number().int().nonnegative().catch(1),
  grams: z.number().nonnegative().catch(0),
  // In the shop currency's subunits, like total_price (the docs' example: 1999 for 19.99 USD).
  price: z.coerce.number().nonnegative().catch(0),
  requires_shipping: z.boolean().nullish(),
});

/**
 * Shopify's rate request as documented (DeliveryCarrierService, "Example shipping rate request"),
 * read loosely: fields the app does not use are kept, a field of the wrong type is read as absent
 * rather than refusing the whole request (a refusal would leave checkout with backup rates).
 */
export const rateRequestSchema = z.looseObject({
  rate: z.looseObject({
    origin: address.nullish(),
    destination: address,
    items: z.array(item).max(5_000).default([]),
    currency: z.string().regex(/^[A-Za-z]{3}$/),
    locale: text,
    order_totals: z
      .looseObject({
        subtotal_price: z.coerce.number().nullish(),
        total_price: z.coerce.number().nullish(),
      })
      .nullish(),
  }),
});
export type RateRequest = z.output<typeof rateRequestSchema>["rate"];

/** The shopper's language at checkout: Arabic for any `ar…` locale, else English. */
export function checkoutLanguage(locale: string | null | undefined): "ar" | "en" {
  return /^ar\b/i.test(locale?.trim() ?? "") ? "ar" : "en";
}

/** The destination as the matcher reads an address (Shopify sends "HA" where orders say "KW-HA"). */
export function destinationForMatcher(destination: RateRequest["destination"]) {
  const country = destination.country?.trim().toUpperCase() ?? "";
  const province = destination.province?.trim().toUpperCase() ?? "";
  return {
    countryCode: country,
    provinceCode: /^[A-Z]{2}$/.test(province) && country === "KW" ? `KW-${province}` : province,
    city: destination.city ?? null,
    address1: destination.address1 ?? null,
    address2: destination.address2 ?? null,
    zip: destination.postal_code ?? destination.zip ?? null,
  };
}

// ── Weight ───────────────────────────────────────────────────────────────────────────────────

/**
 * The table's weight bands: each is priced at its heaviest parcel, so a cart is never charged
 * less than the courier will charge. Heavier carts get the fallback rate.
 */
export const WEIGHT_BANDS_KG = [5, 10, 15, 20, 30] as const;

/** The cart's weight in kilograms, from the items that need shipping. */
export function cartWeightKg(items: RateRequest["items"]): number {
  let grams = 0;
  for (const i of items) if (i.requires_shipping !== false) grams += i.grams * i.quantity;
  return grams / 1000;
}

/** The band a weight falls in (its heaviest weight), or null above the heaviest band. */
export function bandFor(weightKg: number): number | null {
  return WEIGHT_BANDS_KG.find((band) => weightKg <= band) ?? null;
}

// ── Money ────────────────────────────────────────────────────────────────────────────────────

/**
 * How many of Shopify's `total_price` units make one unit of `currency`. Shopify's documentation
 * (DeliveryCarrierService, "Response fields"): "The total price expressed in subunits. If the
 * currency doesn't use subunits, then the value must be multiplied by 100". The Kuwaiti dinar's
 * subunit is the fils, a thousandth (ISO 4217 minor unit 3): 1.250 KWD is "1250", and no fils is
 * ever rounded away. Two-decimal currencies: 100; a currency without subunits (JPY): 100.
 */
export function subunitsPerUnit(currency: string): number {
  let digits: number;
  try {
    digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
      .maximumFractionDigits!;
  } catch {
    digits = 2;
  }
  return digits === 0 ? 100 : 10 ** digits;
}

/** A KWD amount in fils as Shopify's `total_price` for a KWD rate. */
export function kwdTotalPrice(fils: number): string {
  if (!Number.isSafeInteger(fils) || fils < 0)
    throw new RangeError(`${fils} is not a price in fils`);
  // subunitsPerUnit("KWD") is 1000: fils are the subunit, written as they are.
  return String(fils);
}

/** The cart's value in fils, when the request is in KWD (its prices are fils too). */
export function cartValueFils(rate: RateRequest): number | null {
  if (rate.currency.toUpperCase() !== "KWD") return null;
  const total = rate.order_totals?.total_price ?? rate.order_totals?.subtotal_price;
  if (typeof total === "number" && Number.isFinite(total)) return Math.round(total);
  let sum = 0;
  for (const i of rate.items) sum += i.price * i.quantity;
  return Math.round(sum);
}

// ── The price the shopper sees ───────────────────────────────────────────────────────────────

/** The merchant's choices that shape the rate and the promise. */
export interface RateChoices {
  /** Used when the area is not priced yet, cannot be placed, or the cart is heavier than 30 kg. */
  fallbackFils: number;
  marginFils: number;
  /** A share of the courier's price added, in basis points (150 = 1.5 %). */
  marginBasisPoints: number;
  /** Free delivery from this cart value on (null: never). */
  freeAboveFils: number | null;
  /** Gazetteer English names of the areas the merchant does not deliver to. */
  hiddenAreas: string[];
  cutoffMinutes: number;
  preparationDays: number;
  holidays: string[];
}

/**
 * What happened to one request, as the report counts it: priced from the table, the fallback
 * (area known, not priced yet), not placed (fallback too), hidden (no rate: the merchant does not
 * serve the area), free (above the merchant's amount), outside Kuwait (no rate), too heavy
 * (fallback).
 */
export const RATE_OUTCOMES = [
  "priced",
  "fallback",
  "not_placed",
  "hidden",
  "free",
  "outside_kuwait",
  "too_heavy",
] as const;
export type RateOutcome = (typeof RATE_OUTCOMES)[number];

export type RateDecision =
  | { offer: true; fils: number; outcome: RateOutcome }
  | { offer: false; outcome: "hidden" | "outside_kuwait" };

export interface RateFacts {
  /** The destination is in Kuwait. */
  inKuwait: boolean;
  /** Gazetteer English name of the area the matcher placed with confidence, else null. */
  area: string | null;
  /** The courier's price for the area and band, from the table; null when not there yet. */
  courierFils: number | null;
  /** The cart weighs more than the heaviest band. */
  tooHeavy: boolean;
  /** The cart's value in fils (null when the request is in another currency). */
  cartFils: number | null;
}

/** The courier's price with the merchant's margin, in whole fils (a share rounds half up). */
export function withMargin(courierFils: number, choices: RateChoices): number {
  const share = Math.round((courierFils * choices.marginBasisPoints) / 10_000);
  return Math.max(0, courierFils + choices.marginFils + share);
}

/**
 * The rate for one request. An empty answer means "cannot ship" to Shopify, so it is given only
 * on purpose: a destination outside Kuwait, or an area the merchant hid. Everything else gets a
 * price: the table's, or the merchant's fallback.
 */
export function decideRate(facts: RateFacts, choices: RateChoices): RateDecision {
  if (!facts.inKuwait) return { offer: false, outcome: "outside_kuwait" };
  if (facts.area !== null && choices.hiddenAreas.includes(facts.area))
    return { offer: false, outcome: "hidden" };
  if (
    choices.freeAboveFils !== null &&
    facts.cartFils !== null &&
    facts.cartFils >= choices.freeAboveFils
  )
    return { offer: true, fils: 0, outcome: "free" };
  if (facts.area === null)
    return { offer: true, fils: choices.fallbackFils, outcome: "not_placed" };
  if (facts.tooHeavy) return { offer: true, fils: choices.fallbackFils, outcome: "too_heavy" };
  if (facts.courierFils === null)
    return { offer: true, fils: choices.fallbackFils, outcome: "fallback" };
  return { offer: true, fils: withMargin(facts.courierFils, choices), outcome: "priced" };
}

// ── The promise ──────────────────────────────────────────────────────────────────────────────

export interface DeliveryPromise {
  /** Kuwait dates "YYYY-MM-DD". */
  minDay: string;
  maxDay: string;
  /** Working days from today to the earliest day (1: the next working day). */
  workingDays: number;
}

const KUWAIT_OFFSET_MS = 3 * 3_600_000;

/**
 * When an order placed at `now` arrives: placed on a working day before the cut-off (Kuwait
 * time), it counts from today, else from the next working day; then `preparationDays` working
 * days to prepare it; the courier picks it up that day and delivers on the next working day
 * (its own promise is not published: the same rule the tracking page uses), or the one after.
 */
export function deliveryPromise(
  now: Date,
  choices: Pick<RateChoices, "cutoffMinutes" | "preparationDays" | "holidays">,
): DeliveryPromise {
  const today = kuwaitDay(now);
  const kuwait = new Date(now.getTime() + KUWAIT_OFFSET_MS);
  const minuteOfDay = kuwait.getUTCHours() * 60 + kuwait.getUTCMinutes();
  const holidays = choices.holidays;
  let pickup =
    isWorkingDay(today, holidays) && minuteOfDay < choices.cutoffMinutes
      ? today
      : nextWorkingDay(today, holidays);
  for (let i = 0; i < choices.preparationDays; i += 1) pickup = nextWorkingDay(pickup, holidays);
  const minDay = nextWorkingDay(pickup, holidays);
  const maxDay = nextWorkingDay(minDay, holidays);
  let workingDays = 0;
  for (let day = today; day < minDay && workingDays < 60; workingDays += 1)
    day = nextWorkingDay(day, holidays);
  return { minDay, maxDay, workingDays };
}

/** A Kuwait date as Shopify's rate dates are written ("2013-04-12 14:48:45 -0400"), at noon. */
export function shopifyRateDate(day: string): string {
  return `${day} 12:00:00 +0300`;
}

// ── The words ────────────────────────────────────────────────────────────────────────────────

export interface RateWords {
  serviceName: string;
  description: string;
}

const ARABIC_DAYS = ["يوم عمل واحد", "يومي عمل", "أيام عمل"];

/**
 * The rate's name and description in the checkout's language. The name says how soon; the
 * description names the area the app placed the address in (so a shopper sees a wrong guess
 * before paying) or says it will be confirmed.
 */
export function rateWords(input: {
  language: "ar" | "en";
  promise: DeliveryPromise;
  outcome: RateOutcome;
  courierName: string;
  /** The placed area in the checkout's language, or null. */
  areaName: string | null;
}): RateWords {
  const { language, promise, outcome, courierName, areaName } = input;
  const days = promise.workingDays;
  if (language === "ar") {
    const soon =
      days <= 1
        ? "توصيل خلال يوم عمل"
        : days === 2
          ? `توصيل خلال ${ARABIC_DAYS[1]}`
          : `توصيل خلال ${days} ${ARABIC_DAYS[2]}`;
    const free = outcome === "free" ? " (مجاني)" : "";
    const where =
      areaName !== null
        ? `إلى ${areaName} مع ${courierName}، مع رابط تتبع.`
        : `مع ${courierName}. سنؤكد المنطقة معك بعد الطلب.`;
    return { serviceName: `${soon}${free}`, description: where };
  }
  const soon = days <= 1 ? "Next working day" : `Delivery in ${days} working days`;
  const free = outcome === "free" ? " (free)" : "";
  const where =
    areaName !== null
      ? `To ${areaName} with ${courierName}, with a tracking link.`
      : `With ${courierName}. We will confirm your area with you after you order.`;
  return { serviceName: `${soon}${free}`, description: where };
}

/** The one rate's code: stable across requests, as Shopify asks. */
export const SERVICE_CODE = "courier-delivery";

/** Shopify's rate, as its documentation lists the fields. */
export interface ShopifyRate {
  service_name: string;
  service_code: string;
  total_price: string;
  description: string;
  currency: string;
  min_delivery_date: string;
  max_delivery_date: string;
}

/**
 * The answer for a decision: a KWD rate, or none. A request in another currency still gets the
 * KWD rate: Shopify converts a rate given in another currency (its example answers a USD request
 * with a CAD rate), and the courier charges dinars.
 */
export function shopifyRates(
  decision: RateDecision,
  words: RateWords,
  promise: DeliveryPromise,
): { rates: ShopifyRate[] } {
  if (!decision.offer) return { rates: [] };
  return {
    rates: [
      {
        service_name: words.serviceName,
        service_code: SERVICE_CODE,
        total_price: kwdTotalPrice(decision.fils),
        description: words.description,
        currency: "KWD",
        min_delivery_date: shopifyRateDate(promise.minDay),
        max_delivery_date: shopifyRateDate(promise.maxDay),
      },
    ],
  };
}
