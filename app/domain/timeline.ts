import { PART_NAMES, type PartName } from "../addresses/part-words";
import type { EventData } from "./event-data";
import { Unreadable } from "./json-column";
import { deliveryState, type DeliveryState } from "./states";
import { TIMELINE_TEXTS, type SentenceParams, type TimelineText } from "./timeline-text";

/**
 * A timeline entry in the merchant's words (ADR 0043): its stable `kind` and its data become a
 * catalog key and parameters; the page renders them in its language. Nothing here is a sentence:
 * parameters are data (order numbers, states, amounts in fils' text, seconds), and the page
 * turns a state into its label, an amount into KWD and a time into Kuwait's.
 */

/** Every kind a timeline entry is written with. A kind outside it reads as "other". */
export const TIMELINE_KINDS = [
  "received",
  "attached",
  "skipped",
  "waiting",
  "needs_address",
  "needs_attention",
  "ready",
  "sending",
  "not_sent",
  "created",
  "rejected",
  "retry",
  "unknown",
  "not_in_history",
  "reconciled",
  "needs_review",
  "tracking",
  "courier_status",
  "unmapped_status",
  "shopify_status",
  "shopify_given_up",
  "paid",
  "cancel_requested",
  "cancelled",
  "cancel_refused",
  "duplicate_cancelled",
  "duplicate_not_cancelled",
  "corrected",
  "shopper_answered",
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/**
 * A catalog key (in the `delivery` namespace) and its parameters. Parameters named `state` hold
 * a delivery state, `amount` KWD as decimal text and `at` an ISO time: the page renders them.
 */
export interface Sentence {
  key: string;
  params: SentenceParams;
}

const isKind = (kind: string): kind is TimelineKind =>
  (TIMELINE_KINDS as readonly string[]).includes(kind);
const isText = (key: string): key is TimelineText =>
  (TIMELINE_TEXTS as readonly string[]).includes(key);

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== ""
    ? value
    : typeof value === "number"
      ? String(value)
      : null;
}

/** The courier's order number from an entry's kept answer. */
function courierNumber(data: EventData | null): string | null {
  const courier = data?.courier;
  if (!courier) return null;
  const found = courier.found as Record<string, unknown> | undefined;
  return (
    text(courier.orderNumber) ??
    text(courier.orderId) ??
    text(found?.orderNumber) ??
    text(found?.orderId)
  );
}

function stateOf(value: unknown): DeliveryState | null {
  const parsed = deliveryState.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The sentence of one timeline entry. */
export function timelineSentence(event: {
  kind: string;
  data: EventData | Unreadable | null;
}): Sentence {
  const data = event.data instanceof Unreadable ? null : event.data;
  const chosen = data?.text;
  if (chosen && isText(chosen.key)) {
    return { key: `timeline.text.${chosen.key}`, params: { ...chosen.params } };
  }
  if (!isKind(event.kind)) return { key: "timeline.kind.other", params: {} };
  const kind = event.kind;
  const number = courierNumber(data);
  switch (kind) {
    case "courier_status": {
      const state = stateOf(data?.state);
      // The courier's first status means "created", which the app's own `created` entry has
      // just said ("Created at the courier as order …"): this one says what it adds, that the
      // courier's tracking now follows the parcel, so the step does not read twice.
      if (state === "created") return { key: "timeline.kind.courier_status_created", params: {} };
      return state
        ? { key: "timeline.kind.courier_status", params: { state } }
        : { key: "timeline.kind.courier_status_plain", params: {} };
    }
    case "unmapped_status": {
      const name = text(data?.name) ?? text(data?.status);
      return name
        ? { key: "timeline.kind.unmapped_status", params: { status: name } }
        : { key: "timeline.kind.unmapped_status_plain", params: {} };
    }
    case "created":
    case "reconciled":
      return number
        ? { key: `timeline.kind.${kind}_number`, params: { number } }
        : { key: `timeline.kind.${kind}`, params: {} };
    default:
      return { key: `timeline.kind.${kind}`, params: {} };
  }
}

/**
 * The courier's own words kept on an entry (its refusal, an error it sent), shown quoted as
 * data beside the sentence: the app does not translate the courier.
 */
export function courierSaid(data: EventData | Unreadable | null): string | null {
  if (!data || data instanceof Unreadable) return null;
  const courier = data.courier;
  if (!courier) return null;
  const words = text(courier.message) ?? text(courier.courierMessage);
  return words && words.length <= 500 ? words : words ? `${words.slice(0, 500)}…` : null;
}

/** The parts of a request a courier's refusal can name, as the pages say them. */
export const REFUSED_FIELDS: readonly RefusedField[] = [
  ...PART_NAMES,
  "area",
  "phone",
  "name",
  "weight",
  "payment",
  "pickup",
];
export type RefusedField = PartName | "area" | "phone" | "name" | "weight" | "payment" | "pickup";

// The courier's field names (its own, in its error list or its message: "deliveryAddress.block
// must not be empty", "Block is required for this area.") and the part each one is.
const FIELD_WORDS: [RegExp, RefusedField][] = [
  [/\bpickup(?:Address|Date)?\b/i, "pickup"],
  [/\bblock(?:Number)?\b/i, "block"],
  [/\bstreet(?:Name)?\b/i, "street"],
  [/\bavenue\b|\bjadda\b/i, "avenue"],
  [/\bhouse(?:Number)?\b/i, "house"],
  [/\bbuilding(?:Number)?\b/i, "building"],
  [/\bfloor\b/i, "floor"],
  [/\bapartment\b|\bflat\b/i, "apartment"],
  [/\bpaci\b|\bcivil ?id\b/i, "paci"],
  [/\barea(?:Id)?\b|\bgovernance(?:Id)?\b/i, "area"],
  [/\b(?:contact)?phone\b|\bmobile\b/i, "phone"],
  [/\bcontactName\b|\breceiver ?name\b/i, "name"],
  [/\bweight\b/i, "weight"],
  [/\bpaymentMethod\b|\bpayment\b/i, "payment"],
];

/**
 * Which parts of the request a courier's refusal names, from its list of field errors (ADR 0005:
 * `fieldErrors: [{ field, message }]`) or, when it sent none, from its message: so the page can
 * say in the merchant's language what to fix, field by field, and keep the courier's own words
 * for the technical details. Empty when it names none the app knows.
 */
export function refusedFields(data: EventData | Unreadable | null): RefusedField[] {
  if (!data || data instanceof Unreadable || !data.courier) return [];
  const courier = data.courier;
  const texts: string[] = [];
  const list = Array.isArray(courier.fieldErrors)
    ? courier.fieldErrors
    : Array.isArray(courier.errors)
      ? courier.errors
      : [];
  for (const entry of list) {
    if (entry && typeof entry === "object") {
      const e = entry as Record<string, unknown>;
      // The field's own name says most: "deliveryAddress.block" is the block, whatever the text.
      const field = text(e.field) ?? text(e.path);
      texts.push(field ?? text(e.message) ?? "");
    }
  }
  if (texts.length === 0) {
    const words = text(courier.message) ?? text(courier.courierMessage);
    if (words) texts.push(words);
  }
  const found = new Set<RefusedField>();
  for (const t of texts) {
    // The pickup address is the merchant's own location (Pickup locations), whatever its part.
    if (/\bpickup(?:Address|Date)\b/i.test(t)) {
      found.add("pickup");
      continue;
    }
    // "deliveryAddress.block": the part after the object's name.
    const spaced = t.replace(/\bdeliveryAddress\.(\w+)/gi, (_, f: string) => ` ${f} `);
    const hit = FIELD_WORDS.find(([pattern]) => pattern.test(spaced));
    if (hit) found.add(hit[1]);
  }
  return REFUSED_FIELDS.filter((f) => found.has(f));
}
