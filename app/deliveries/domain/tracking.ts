import { normalizeArabic } from "../../addresses/normalize";
import { isFinal, type DeliveryState } from "./states";

/**
 * Tracking, the pure part: what a courier status means (recognized from its code and name, or as
 * the merchant set it), which courier events are news for a delivery, what each one changes in
 * the app and in Shopify, and when to look again. No I/O here; the sync and the courier webhook
 * (sync.server.ts) both feed their events through `planTrackingUpdate`.
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

/** States the sync keeps following (not final). */
export const ACTIVE_TRACKED_STATES: readonly DeliveryState[] = TRACKED_STATES.filter(
  (s) => !isFinal(s),
);

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

const RANK: Record<TrackedState, number> = {
  created: 0,
  picked_up: 1,
  in_transit: 2,
  out_for_delivery: 3,
  failed: 4,
  delivered: 9,
  returned: 9,
  cancelled: 9,
};

/**
 * Whether a newer courier event may move a delivery from `from` to `to`. Final states never
 * move; otherwise only forward, except that a failed attempt may go out again (re-delivery).
 */
export function trackingMoveAllowed(from: DeliveryState, to: TrackedState): boolean {
  if (isFinal(from) || from === to) return false;
  if (!(TRACKED_STATES as readonly string[]).includes(from)) return false;
  if (from === "failed" && (to === "out_for_delivery" || to === "in_transit")) return true;
  return RANK[to] > RANK[from as TrackedState];
}

/**
 * How far ahead of the app's clock a courier time may be and still be taken as the courier said:
 * two clocks never agree to the second. Shopify is still never told a time after now.
 */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** One status change as the courier reports it (tracking history or a push). */
export interface CourierEvent {
  status: string;
  /** When it happened; null when the courier did not say. */
  at: Date | null;
  name?: string | null;
  note?: string | null;
}

/** Where a delivery stands, as far as tracking is concerned. */
export interface TrackingSnapshot {
  state: DeliveryState;
  courierStatus: string | null;
  courierStatusAt: Date | null;
  shopifyEventStatus: string | null;
}

/** One piece of news: its timeline entry, and possibly a state move and a Shopify event. */
export interface TrackingStep {
  event: CourierEvent;
  /** The state to move to, or null when it stays. */
  moveTo: TrackedState | null;
  /** The Shopify fulfillment event to write, or null. */
  shopify: ShopifyEventStatus | null;
  /** False when nobody mapped the status: recorded and shown, nothing else. */
  mapped: boolean;
  message: string;
  /** The snapshot after this step. */
  after: TrackingSnapshot;
}

/**
 * Turns what the courier reported into the steps to apply, oldest first. News is what comes after
 * the current status in the courier's history (found by status and time), or, when the current
 * status is not in what was reported (a push), what happened later. Repeated and late events give
 * no step, no step moves a delivery backwards, and a Shopify event is written only when its status
 * differs from the last one written. Courier times often have whole seconds: several statuses in
 * one second keep the courier's order.
 *
 * A time more than a few minutes after `now` is the courier's clock or a typo: it is read as now
 * (never stored, never sent to Shopify), and such a status is news only when it moves the delivery
 * forward, so that it neither hides what comes after it nor comes back at every look. A final
 * state is applied whatever its time says.
 */
export function planTrackingUpdate(
  snapshot: TrackingSnapshot,
  events: readonly CourierEvent[],
  meaningOf: (event: CourierEvent) => StatusMeaning | null,
  now: Date = new Date(),
): TrackingStep[] {
  const misdated = (ms: number | null | undefined) =>
    ms !== null && ms !== undefined && ms > now.getTime() + CLOCK_SKEW_MS;
  const time = (event: CourierEvent) => event.at?.getTime() ?? null;
  const ordered = events
    .map((event, index) => {
      const raw = time(event);
      const future = misdated(raw);
      return { event: future ? { ...event, at: now } : event, raw, index, future };
    })
    .sort((a, b) => {
      if (a.raw === null || b.raw === null) return a.index - b.index;
      return a.raw - b.raw || a.index - b.index;
    });

  const clamp = (date: Date | null) => (misdated(date?.getTime()) ? now : date);
  const currentAt = clamp(snapshot.courierStatusAt)?.getTime() ?? null;
  let anchor = -1;
  if (snapshot.courierStatus !== null) {
    for (let i = ordered.length - 1; i >= 0; i -= 1) {
      const { event, future } = ordered[i]!;
      if (!future && event.status === snapshot.courierStatus && time(event) === currentAt) {
        anchor = i;
        break;
      }
    }
  }

  const steps: TrackingStep[] = [];
  let current = { ...snapshot, courierStatusAt: clamp(snapshot.courierStatusAt) };
  const take = (
    event: CourierEvent,
    meaning: StatusMeaning | null,
    moveTo: TrackedState | null,
    reapplied = false,
  ) => {
    const label = event.name ? `${event.name} (${event.status})` : event.status;
    // A status that maps to an earlier state than the delivery's is old news told late.
    const backwards =
      meaning !== null &&
      meaning.state !== "unchanged" &&
      moveTo === null &&
      meaning.state !== current.state;
    const shopify =
      meaning?.shopify && !backwards && meaning.shopify !== current.shopifyEventStatus
        ? meaning.shopify
        : null;
    const after: TrackingSnapshot = {
      state: moveTo ?? current.state,
      courierStatus: backwards ? current.courierStatus : event.status,
      courierStatusAt: event.at ?? current.courierStatusAt,
      shopifyEventStatus: shopify ?? current.shopifyEventStatus,
    };
    const message = !meaning
      ? `The courier reported "${label}", a status that is not mapped: choose what it means in Settings.`
      : backwards
        ? `The courier reported "${label}" after the delivery was already further along; kept as it was.`
        : reapplied
          ? `Courier status: ${label}, applied as it is now mapped.`
          : `Courier status: ${label}.`;
    steps.push({ event, moveTo, shopify, mapped: meaning !== null, message, after });
    current = after;
  };
  const moveFor = (meaning: StatusMeaning | null) =>
    meaning && meaning.state !== "unchanged" && trackingMoveAllowed(current.state, meaning.state)
      ? meaning.state
      : null;

  // The status the delivery is on may mean more than when it was applied (the merchant mapped it
  // since): the delivery follows it first.
  if (snapshot.courierStatus !== null && !isFinal(current.state)) {
    const reported = ordered.findLast(({ event }) => event.status === snapshot.courierStatus);
    const event: CourierEvent = {
      status: snapshot.courierStatus,
      at: current.courierStatusAt,
      name: reported?.event.name ?? null,
      note: reported?.event.note ?? null,
    };
    const meaning = meaningOf(event);
    const moveTo = moveFor(meaning);
    if (moveTo) take(event, meaning, moveTo, true);
  }

  for (const { event, future } of ordered.slice(anchor + 1)) {
    if (isFinal(current.state)) break;
    const at = time(event);
    const lastAt = current.courierStatusAt?.getTime() ?? null;
    if (at !== null && lastAt !== null && at < lastAt) continue;
    if (event.status === current.courierStatus && (at === null || lastAt === null || at === lastAt))
      continue;
    const meaning = meaningOf(event);
    const moveTo = moveFor(meaning);
    // Same second as the current status, outside the history it came from: only forward news.
    if (at !== null && at === lastAt && anchor < 0 && !moveTo) continue;
    if (future && !moveTo) continue;
    take(event, meaning, moveTo);
  }

  // A final state the walk passed over (its time put it before the current status) still ends
  // the delivery: the latest one the courier reported.
  if (!isFinal(current.state)) {
    for (let i = ordered.length - 1; i >= 0; i -= 1) {
      const { event } = ordered[i]!;
      const meaning = meaningOf(event);
      const moveTo = moveFor(meaning);
      if (moveTo && isFinal(moveTo)) {
        take(event, meaning, moveTo);
        break;
      }
    }
  }
  return steps;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A delivery whose status has not moved for this long needs the merchant's attention. */
export const STUCK_AFTER_MS = 3 * 24 * HOUR;

/**
 * When to look again: soon when the parcel is out for delivery, slower while nothing moves, never
 * once it is final.
 */
export function nextSyncDelayMs(state: DeliveryState, lastChangeAt: Date | null, now: Date) {
  if (isFinal(state)) return null;
  const base: Partial<Record<DeliveryState, number>> = {
    out_for_delivery: 5 * MINUTE,
    failed: 15 * MINUTE,
    in_transit: 15 * MINUTE,
    picked_up: 15 * MINUTE,
    created: 30 * MINUTE,
  };
  const delay = base[state] ?? 30 * MINUTE;
  const quietFor = lastChangeAt ? now.getTime() - lastChangeAt.getTime() : 0;
  if (quietFor > STUCK_AFTER_MS) return Math.max(delay, 6 * HOUR);
  if (quietFor > 24 * HOUR) return Math.max(delay, 2 * HOUR);
  return delay;
}

const KUWAIT_OFFSET_MS = 3 * HOUR;

/**
 * A courier timestamp: ISO 8601 with an offset or `Z`, or Kuwait local time without one
 * (`YYYY-MM-DDTHH:MM:SS`, UTC+3 all year). Null when it is neither.
 */
export function parseCourierTime(text: string | null | undefined): Date | null {
  if (!text) return null;
  const m =
    /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(
      text.trim(),
    );
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m
    .slice(1, 7)
    .map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const utc = Date.UTC(
    year,
    month - 1,
    day,
    hour,
    minute,
    second,
    Number((m[7] ?? "0").padEnd(3, "0")),
  );
  // Date.UTC rolls 31 February over into March: a date that does not exist is no date.
  const parts = new Date(utc);
  if (
    parts.getUTCFullYear() !== year ||
    parts.getUTCMonth() !== month - 1 ||
    parts.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return null;
  const zone = m[8];
  if (!zone) return new Date(utc - KUWAIT_OFFSET_MS);
  if (zone === "Z") return new Date(utc);
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  const [zoneHours, zoneMinutes] = [Number(digits.slice(0, 2)), Number(digits.slice(2))];
  if (zoneHours > 14 || zoneMinutes > 59) return null;
  return new Date(utc - sign * (zoneHours * 60 + zoneMinutes) * MINUTE);
}
