import type { EventData } from "./event-data";
import { Unreadable } from "./json-column";
import type { DeliveryState } from "./states";

/**
 * The steps a shopper sees on the tracking page, from a delivery's timeline: each step once, at
 * the time it first happened, in the order of the parcel's journey (times from the courier's
 * clock and the app's can disagree by seconds). The app's own bookkeeping (putting the tracking
 * number on Shopify, retries) is not a step of the parcel.
 */
export const JOURNEY = [
  "booked",
  "picked_up",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "failed",
  "returned",
  "cancelled",
] as const;
export type JourneyStep = (typeof JOURNEY)[number];

const FINAL = ["delivered", "failed", "returned", "cancelled"] as const satisfies JourneyStep[];
const isOutcome = (step: JourneyStep): step is Outcome => FINAL.some((outcome) => outcome === step);
/** What a shopper can still expect after a step, until the parcel is delivered. */
const AHEAD: readonly JourneyStep[] = [
  "booked",
  "picked_up",
  "in_transit",
  "out_for_delivery",
  "delivered",
];

/** A timeline entry as the models read it (its data decoded, ADR 0032). */
export interface TimelineEvent {
  at: Date;
  kind: string;
  data: EventData | Unreadable | null;
}

export interface TrackingSteps {
  /** Steps that happened, in journey order; the last one is where the parcel is now. */
  done: { step: JourneyStep; at: string }[];
  /** Steps still to come (none once delivered, failed, returned or cancelled). */
  ahead: JourneyStep[];
  outcome: Outcome | null;
}

type Outcome = (typeof FINAL)[number];

const STATE_STEP: Partial<Record<string, JourneyStep>> = {
  created: "booked",
  picked_up: "picked_up",
  in_transit: "in_transit",
  out_for_delivery: "out_for_delivery",
  delivered: "delivered",
  failed: "failed",
  returned: "returned",
  cancelled: "cancelled",
};

function stepOf(event: TimelineEvent): { step: JourneyStep; at: Date } | null {
  if (event.kind === "created" || event.kind === "reconciled" || event.kind === "attached")
    return { step: "booked", at: event.at };
  if (event.kind === "cancelled") return { step: "cancelled", at: event.at };
  if (event.kind !== "courier_status") return null;
  // A step whose record no longer reads is left out.
  const data = event.data instanceof Unreadable ? null : event.data;
  if (!data) return null;
  const step = data.state ? STATE_STEP[data.state] : undefined;
  if (!step) return null;
  const at = data.at ? new Date(data.at) : event.at;
  return { step, at: Number.isNaN(at.getTime()) ? event.at : at };
}

export function trackingSteps(events: TimelineEvent[], currentState: DeliveryState): TrackingSteps {
  const first = new Map<JourneyStep, Date>();
  for (const event of events) {
    const found = stepOf(event);
    if (found && !first.has(found.step)) first.set(found.step, found.at);
  }
  // The delivery's own state is the truth about where it is now, even when its event is missing.
  const now = STATE_STEP[currentState];
  if (now && !first.has(now)) first.set(now, events.at(-1)?.at ?? new Date());
  const done = JOURNEY.filter((step) => first.has(step)).map((step) => ({
    step,
    at: first.get(step)!.toISOString(),
  }));
  const last = done.at(-1)?.step;
  const outcome = last && isOutcome(last) ? last : null;
  const reached = last ? AHEAD.indexOf(last) : -1;
  return { done, ahead: outcome ? [] : AHEAD.slice(reached + 1), outcome };
}
