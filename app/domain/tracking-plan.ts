import { isFinal, type DeliveryState } from "./states";
import {
  isTrackedState,
  type ShopifyEventStatus,
  type StatusMeaning,
  type TrackedState,
} from "./courier-status";

/**
 * The tracking plan, the pure part: which courier events are news for a delivery, what each one
 * changes in the app and in Shopify, when to look again, and how a courier time is read. No I/O
 * here; the sync and the courier's pushes (app/pipeline/tracking/) both feed their events
 * through `planTrackingUpdate`.
 */

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
  if (isFinal(from) || from === to || !isTrackedState(from)) return false;
  if (from === "failed" && (to === "out_for_delivery" || to === "in_transit")) return true;
  return RANK[to] > RANK[from];
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
  /** The shipment status Shopify last took; null when none, as far as the app knows. */
  shopifyEventStatus: ShopifyEventStatus | null;
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
