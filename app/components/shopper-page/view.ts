import type { AddressParts } from "../../addresses";
import type { AskReason, ShopperAnswer } from "../../domain/shopper-ask";
import type { JourneyStep } from "../../domain/tracking-steps";
import type { DayPart } from "../../domain/second-chance";

/**
 * What the shopper's page shows, ready to render: names in the page's language, days and times
 * already written in Kuwait's time by the server, lists already sorted. The browser formats and
 * sorts nothing itself, so its first render is the server's to the letter (no hydration error).
 */
export interface ShopperPageDisplay {
  shopName: string | null;
  contact: {
    whatsapp: string | null;
    phone: { text: string; href: string } | null;
    email: string | null;
  };
  orderName: string | null;
  items: { title: string; quantity: number }[];
  /** "36.500" (KWD), or null for a paid order. */
  cash: string | null;
  /** The shopper's phone, masked ("•••• •234"). */
  phone: string | null;
  steps: { step: PageStep; when: string | null; now: boolean; done: boolean }[];
  trackingNumber: string | null;
  outcome: JourneyStep | null;
  expectedDay: string | null;
  question: {
    asksAddress: boolean;
    asksCash: boolean;
    reasons: AskReason[];
    /**
     * Why the area is in doubt, for the shopper (`doubt.<kind>` of the tracking catalog), with
     * area names already in the page's language; null when there is none to say.
     */
    doubt: { kind: string; params: Record<string, string> } | null;
    answerBy: string | null;
  } | null;
  answered: {
    kind: ShopperAnswer["kind"];
    at: string;
    cashConfirmed: boolean;
    /** When they said they will be in, written in the page's language ("Sunday 30 November, evening"). */
    when: { day: string; part: DayPart; note: string | null } | null;
  } | null;
  /** After a failed attempt: the days the shopper may choose, in the page's language. */
  secondChance: { days: { value: string; label: string }[] } | null;
  place: {
    governanceId: number;
    areaId: number;
    governorate: string;
    area: string;
    parts: AddressParts;
    complete: boolean;
  } | null;
  typed: string | null;
  canChange: boolean;
  refusal: Refusal | null;
  choices: { governorates: GovernorateOption[]; areas: AreaOption[] } | null;
}

/** Before the courier has the parcel, the page's first step is the shop's. */
export type PageStep = JourneyStep | "received";

export type Refusal =
  "picked_up" | "cancelled" | "expired" | "checking" | "no_courier" | "not_found";

export interface GovernorateOption {
  id: number;
  name: string;
}

export interface AreaOption {
  id: number;
  governanceId: number;
  /** In the page's language, and in the other one (searching in either finds it). */
  name: string;
  otherName: string | null;
  /** Every name it goes by, folded for search (domain/area-search.ts). */
  search: string;
}

/** The fields of the "Fix my address" form, as the page sends them. */
export const ADDRESS_FIELDS = [
  "block",
  "street",
  "avenue",
  "house",
  "building",
  "floor",
  "apartment",
  "paci",
] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

export const FORM_FIELDS = [
  "intent",
  "areaId",
  ...ADDRESS_FIELDS,
  "notes",
  "phone",
  "whenDay",
  "whenPart",
  "whenNote",
  "latitude",
  "longitude",
] as const;
export type FormField = (typeof FORM_FIELDS)[number];

/** What the action answers when the form is sent back: what to fix, and what was typed. */
export interface AnswerProblem {
  errors?: Partial<Record<string, string>>;
  refusal?: Refusal;
  values: Partial<Record<FormField, string>> & { cashConfirmed?: string };
}

/** The error codes the page explains; anything else is explained as a generic problem. */
export const ERROR_CODES = [
  "area_missing",
  "block_missing",
  "street_or_house_missing",
  "paci",
  "phone",
  "phone_any",
  "when_day_missing",
  "when_part_missing",
  "location",
  "too_long",
  "cash_not_confirmed",
  "confirm_needs_fix",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number] | "generic";

export function errorCode(code: string | undefined): ErrorCode | null {
  if (!code) return null;
  return (ERROR_CODES as readonly string[]).includes(code) ? (code as ErrorCode) : "generic";
}

/** WhatsApp's click-to-chat link, with a first line naming the order. */
export function whatsappHref(digits: string, text: string | null): string {
  return `https://wa.me/${digits}${text ? `?text=${encodeURIComponent(text)}` : ""}`;
}

/** Longer than any field allows: what is echoed back to the form is cut there. */
const ECHO_LIMIT = 400;

/**
 * The form's fields as the answer's schema reads them: its named text fields only, and the cash
 * box only when it was ticked (an unticked box is not sent).
 */
export function answerFormValues(
  form: FormData,
): Partial<Record<FormField, string>> & { cashConfirmed?: string } {
  const values: Partial<Record<FormField, string>> & { cashConfirmed?: string } = {};
  for (const field of FORM_FIELDS) {
    const value = form.get(field);
    if (typeof value === "string") values[field] = value.slice(0, ECHO_LIMIT);
  }
  if (typeof form.get("cashConfirmed") === "string") values.cashConfirmed = "yes";
  return values;
}
