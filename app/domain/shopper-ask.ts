import { z } from "zod";
import {
  missingForCourier,
  type AddressDoubt,
  type AddressParts,
  type MissingParts,
} from "../addresses";
import { normalizeDigits } from "../addresses/normalize";
import { normalizeKuwaitiPhone } from "./contact-phone";
import { shopperText } from "./courier-notes";
import { availability, DAY_PARTS, shopperPhone } from "./second-chance";

/**
 * Asking the shopper (issue 26, ADR 0056): when an order arrives, the app decides whether to ask
 * the person who knows the address, before anyone fulfils it. Pure: the decision, the answer's
 * form, and what the answer becomes in Shopify.
 *
 *   checking ─► not_needed                     (nothing to ask, or asking is off)
 *      │
 *      ├─► not_held                            (Shopify refused the hold: today's path)
 *      ▼
 *    asked ─► answered                         (the shopper, or the merchant for them)
 *      ├────► expired                          (no answer in the merchant's window)
 *      └────► released                         (the merchant let it go without an answer)
 */
export const ASK_STATES = [
  "checking",
  "not_needed",
  "not_held",
  "asked",
  "answered",
  "expired",
  "released",
] as const;
export type AskState = (typeof ASK_STATES)[number];
export const askState = z.enum(ASK_STATES);

/** Asks whose holds are on the order, waiting for the shopper. */
export const OPEN_ASK_STATES: readonly AskState[] = ["asked"];

export type AskQuestion = "address" | "cash";

/** Why the address is asked about, said to the shopper and the merchant in their words. */
export type AskReason =
  | "area_not_recognised"
  | "area_not_sure"
  | "area_not_at_courier"
  | MissingParts
  | "cash_confirmation"
  // Asked again after the courier could not deliver (issue 27, domain/second-chance.ts).
  | "courier_failed_attempt"
  | "courier_exception"
  | "courier_address_problem";

export interface AskPolicy {
  askAddresses: boolean;
  askCashConfirmation: boolean;
  windowHours: number;
}

export interface OrderPlacement {
  /** The matcher placed an area and is sure of it. */
  confident: boolean;
  /** It named an area at all. */
  areaFound: boolean;
  /** The courier has that area. */
  atCourier: boolean;
  parts: Partial<AddressParts>;
}

export interface AskDecision {
  questions: AskQuestion[];
  reasons: AskReason[];
}

/** What to ask about an order, if anything: empty questions mean nothing to ask. */
export function decideAsk(
  placement: OrderPlacement,
  cashToCollect: boolean,
  policy: AskPolicy,
): AskDecision {
  const reasons: AskReason[] = [];
  if (policy.askAddresses) {
    if (!placement.areaFound) reasons.push("area_not_recognised");
    else if (!placement.atCourier) reasons.push("area_not_at_courier");
    else if (!placement.confident) reasons.push("area_not_sure");
    const missing = missingForCourier(placement.parts);
    if (missing) reasons.push(missing);
  }
  const questions: AskQuestion[] = reasons.length > 0 ? ["address"] : [];
  if (policy.askCashConfirmation && cashToCollect) {
    questions.push("cash");
    reasons.push("cash_confirmation");
  }
  return { questions, reasons };
}

/**
 * The hold Shopify shows staff for the ask: its reason and the note beside it, in English (the
 * admin's note is one text for every staff member), saying what the app is waiting for and why:
 * "… delivery address (courier app): the address names both Salmiya and Rumaithiya."
 */
export function holdFor(
  decision: AskDecision,
  doubt: AddressDoubt | null = null,
): {
  reason: "INCORRECT_ADDRESS" | "OTHER";
  note: string;
} {
  if (decision.questions.includes("address")) {
    const why = [
      ...new Set(decision.reasons.map((reason) => holdWhy(reason, doubt)).filter(Boolean)),
    ];
    const cash = decision.questions.includes("cash") ? " and to confirm cash on delivery" : "";
    return {
      reason: "INCORRECT_ADDRESS",
      note: `Waiting for the customer to confirm or fix the delivery address${cash} (courier app)${
        why.length > 0 ? `: ${why.join("; ")}.` : "."
      }`,
    };
  }
  return {
    reason: "OTHER",
    note: "Waiting for the customer to confirm cash on delivery (courier app).",
  };
}

/** One reason in a few words for the hold's note; the doubt says why the area is not sure. */
function holdWhy(reason: AskReason, doubt: AddressDoubt | null): string {
  switch (reason) {
    case "area_not_recognised":
      return "the address names no area the app knows";
    case "area_not_at_courier":
      return "the courier does not list the address's area";
    case "area_not_sure":
      return doubt ? doubtInBrief(doubt) : "the app is not sure of the area";
    case "block":
      return "the block number is missing";
    case "street_or_house":
      return "the street, house or building number is missing";
    case "block_and_street_or_house":
      return "the block and the street, house or building number are missing";
    case "courier_failed_attempt":
      return "the courier could not deliver";
    case "courier_exception":
    case "courier_address_problem":
      return "the courier could not find the address";
    case "cash_confirmation":
      return "";
  }
}

function doubtInBrief(doubt: AddressDoubt): string {
  switch (doubt.kind) {
    case "two_areas":
      return `the address names both ${doubt.areas[0]} and ${doubt.areas[1]}`;
    case "could_be":
      return `“${doubt.typed}” could be ${doubt.areas[0]} or ${doubt.areas[1]}`;
    case "only_landmark":
      return `${doubt.area} is named only in a landmark or a street`;
    case "only_generic":
      return `the address says only “${doubt.typed}”, not the area`;
    case "person_name":
      return `“${doubt.typed}” reads as a name, and no area is named`;
    case "town_or_governorate":
      return `“${doubt.typed}” names both ${doubt.area} and its governorate`;
    case "part_unclear":
      return `the address names a part of ${doubt.area} (“${doubt.typed}”)`;
    case "governorate_differs":
      return `the address looks like ${doubt.area}, but the governorate given is ${doubt.governorate}`;
    case "everyday_word":
      return `“${doubt.typed}” is ${doubt.area}'s name but also an everyday word`;
  }
}

/** This app's hold handle on a fulfillment order: one per app and fulfillment order. */
export const HOLD_HANDLE = "courier-shopper-ask";

/** How long a shopper's link works after the order's story ends (answered, expired, delivered). */
export const LINK_LIFETIME_DAYS = 30;

const HOUR = 3_600_000;

/** When an ask made at `at` stops waiting, and when its link stops working. */
export function askTimes(at: Date, windowHours: number) {
  const answerBy = new Date(at.getTime() + Math.max(1, windowHours) * HOUR);
  return {
    answerBy,
    linkExpiresAt: new Date(answerBy.getTime() + LINK_LIFETIME_DAYS * 24 * HOUR),
  };
}

const PART_LIMIT = 60;
const text = (limit: number) =>
  z
    .string()
    .trim()
    .max(limit, "too_long")
    .transform((value) => shopperText(normalizeDigits(value)))
    .optional()
    .default("");
const coordinate = (min: number, max: number) =>
  z
    .union([z.literal(""), z.coerce.number().min(min, "location").max(max, "location")])
    .optional()
    .transform((value) => (value === "" || value === undefined ? null : value));

/**
 * The shopper's page form. Messages are codes the page renders in its language. "confirm" takes
 * the address as the order has it (placed by the app); "fix" brings a new one. Kuwait's rough
 * bounds keep a stray location out.
 */
export const shopperAnswerForm = z
  .object({
    // "rescue": after a failed attempt, the address with the phone and when they will be in.
    intent: z.enum(["confirm", "fix", "cash", "rescue"]),
    governanceId: z.coerce.number().int().positive("area_missing").optional(),
    areaId: z.coerce.number().int().positive("area_missing").optional(),
    block: text(PART_LIMIT),
    street: text(PART_LIMIT),
    avenue: text(PART_LIMIT),
    house: text(PART_LIMIT),
    building: text(PART_LIMIT),
    floor: text(PART_LIMIT),
    apartment: text(PART_LIMIT),
    paci: text(12).refine((value) => value === "" || /^\d{6,12}$/.test(value), "paci"),
    notes: text(300),
    // Checked below: a Kuwaiti number, or after a failed attempt a mobile from anywhere.
    phone: text(30),
    whenDay: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "when_day_missing")
      .optional(),
    whenPart: z.enum(DAY_PARTS, { error: "when_part_missing" }).optional(),
    whenNote: text(200),
    latitude: coordinate(28.5, 30.2),
    longitude: coordinate(46.5, 48.5),
    // A checked box is sent, an unchecked one is not.
    cashConfirmed: z
      .string()
      .optional()
      .transform((value) => value !== undefined),
  })
  .superRefine((form, context) => {
    if (form.intent === "rescue" && form.phone !== "" && shopperPhone(form.phone) === null)
      context.addIssue({ code: "custom", path: ["phone"], message: "phone_any" });
    if (form.intent !== "rescue" && form.phone !== "" && normalizeKuwaitiPhone(form.phone) === null)
      context.addIssue({ code: "custom", path: ["phone"], message: "phone" });
    if (form.intent === "rescue") {
      if (!form.whenDay)
        context.addIssue({ code: "custom", path: ["whenDay"], message: "when_day_missing" });
      if (!form.whenPart)
        context.addIssue({ code: "custom", path: ["whenPart"], message: "when_part_missing" });
    }
    if (form.intent !== "fix" && form.intent !== "rescue") return;
    if (!form.areaId)
      context.addIssue({ code: "custom", path: ["areaId"], message: "area_missing" });
    const missing = missingForCourier(form);
    if (missing === "block" || missing === "block_and_street_or_house")
      context.addIssue({ code: "custom", path: ["block"], message: "block_missing" });
    if (missing === "street_or_house" || missing === "block_and_street_or_house")
      context.addIssue({ code: "custom", path: ["street"], message: "street_or_house_missing" });
  });
export type ShopperAnswerForm = z.infer<typeof shopperAnswerForm>;

/** The answer as kept: where the parcel goes, as the courier needs it. */
export const shopperAnswer = z.object({
  kind: z.enum(["confirmed", "fixed", "cash_only"]),
  governanceId: z.number().nullable(),
  areaId: z.number().nullable(),
  /** The area's names, for Shopify's city field and the merchant's page. */
  areaName: z.object({ en: z.string(), ar: z.string() }).nullable(),
  provinceCode: z.string().nullable(),
  parts: z.object({
    block: z.string().nullable(),
    street: z.string().nullable(),
    avenue: z.string().nullable(),
    house: z.string().nullable(),
    building: z.string().nullable(),
    floor: z.string().nullable(),
    apartment: z.string().nullable(),
    paci: z.string().nullable(),
  }),
  notes: z.string().nullable(),
  phone: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  cashConfirmed: z.boolean(),
  /** After a failed attempt: when the shopper will be in (absent from answers before issue 27). */
  availability: availability.nullable().optional(),
});
export type ShopperAnswer = z.infer<typeof shopperAnswer>;

const orNull = (value: string | null | undefined) =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : null;

/**
 * The order's shipping address in Shopify's own form, from the answer: Kuwaiti addresses as
 * shoppers and staff read them ("Block 4, Street 12, House 7" on the first line; avenue, building,
 * floor and apartment on the second; the area as the city; the governorate as the province).
 */
export function mailingAddressOf(
  answer: ShopperAnswer,
  keep: { firstName: string | null; lastName: string | null; phone: string | null },
) {
  const p = answer.parts;
  const line = (pairs: [string, string | null][]) =>
    pairs
      .filter(([, value]) => value)
      .map(([label, value]) => `${label} ${value}`)
      .join(", ");
  return {
    firstName: keep.firstName,
    lastName: keep.lastName,
    phone: answer.phone ?? keep.phone,
    address1: line([
      ["Block", p.block],
      ["Street", p.street],
      ["House", p.house],
    ]),
    address2:
      line([
        ["Avenue", p.avenue],
        ["Building", p.building],
        ["Floor", p.floor],
        ["Apartment", p.apartment],
        ["PACI", p.paci],
      ]) || null,
    city: answer.areaName?.en ?? null,
    provinceCode: answer.provinceCode,
    countryCode: "KW" as const,
  };
}

/** The answer's parts as order metafields (namespace `courier`), for staff, Flow and themes. */
export function answerMetafields(answer: ShopperAnswer) {
  const fields: { key: string; value: string | number | null }[] = [
    { key: "governorate_id", value: answer.governanceId },
    { key: "area_id", value: answer.areaId },
    { key: "area", value: answer.areaName?.en ?? null },
    ...Object.entries(answer.parts).map(([key, value]) => ({ key, value })),
    { key: "delivery_notes", value: answer.notes },
    { key: "latitude", value: answer.latitude },
    { key: "longitude", value: answer.longitude },
    { key: "confirmed_by", value: answer.kind === "confirmed" ? "shopper_confirmed" : "shopper" },
  ];
  return fields
    .filter((f) => f.value !== null && f.value !== "")
    .map((f) => ({
      namespace: "courier",
      key: f.key,
      type:
        typeof f.value !== "number"
          ? "single_line_text_field"
          : Number.isInteger(f.value)
            ? "number_integer"
            : "number_decimal",
      value: String(f.value),
    }));
}

/** A phone as the page shows it: the last three digits only ("•••• •123"). */
export function maskedPhone(phone: string | null): string | null {
  const digits = normalizeDigits(phone ?? "").replace(/\D/g, "");
  if (digits.length < 4) return null;
  return `•••• •${digits.slice(-3)}`;
}

export { orNull };
