import { z } from "zod";
import type { DeliveryState } from "./states";

/**
 * Waits that never count as a failure (issue 24): the delivery goes on by itself when what it
 * waits for comes back, however long that takes, so nothing hands it to the merchant. Past
 * {@link LONG_WAIT_MS} its page and the list say what it waits for and since when.
 * - `shopify_budget`: Shopify's API cost budget (THROTTLED, a 429, a call held back, ADR 0014);
 * - `shopify_access`: the shop's Shopify token could not be renewed (ADR 0015);
 * - `courier_down`: the courier does not answer, or its circuit is open (ADR 0019);
 * - `no_courier`: no courier key the app can use (none saved, unreadable, or refused).
 */
export const WAIT_KINDS = [
  "shopify_budget",
  "shopify_access",
  "courier_down",
  "no_courier",
] as const;
export type WaitKind = (typeof WAIT_KINDS)[number];

export const waitKindSchema = z.enum(WAIT_KINDS);

/**
 * How long such a wait lasts before the merchant is told: every ordinary one is over well before
 * (Shopify's bucket refills in 20 s and a 1,000-line order is read in about a minute, a 500-order
 * burst in a few; the courier's circuit tries again within 5 minutes), and counted failures reach
 * the merchant after about an hour (ADR 0027): half an hour says it before that, and only when it
 * is not an ordinary wait.
 */
export const LONG_WAIT_MS = 30 * 60_000;

/** States in which the worker still works on a delivery (before its tracking is on Shopify). */
const WORKING: readonly DeliveryState[] = ["pending", "ready", "creating", "unknown", "created"];

export interface LongWait {
  kind: WaitKind;
  /** When the wait began, ISO 8601. */
  since: string;
}

/** A stored wait's kind; one the app no longer knows reads as none. */
export function readWaitKind(value: string | null): WaitKind | null {
  return waitKindSchema.safeParse(value).data ?? null;
}

/** What a delivery has waited for since {@link LONG_WAIT_MS} ago or longer; null otherwise. */
export function longWait(
  delivery: {
    state: DeliveryState;
    trackingPushedAt: Date | null;
    waitingSince: Date | null;
    waitingFor: string | null;
  },
  now: Date,
): LongWait | null {
  const since = delivery.waitingSince;
  const kind = readWaitKind(delivery.waitingFor);
  if (!since || !kind || !WORKING.includes(delivery.state) || delivery.trackingPushedAt)
    return null;
  return now.getTime() - since.getTime() >= LONG_WAIT_MS
    ? { kind, since: since.toISOString() }
    : null;
}

/**
 * The sentence a long wait reads as: `waitingLong.<kind>` with the time it began (`at`), in the
 * `delivery` catalog on its page and, shorter, in the `deliveries` catalog on the list.
 */
export function longWaitSentence(wait: LongWait): { key: string; params: { at: string } } {
  return { key: `waitingLong.${wait.kind}`, params: { at: wait.since } };
}
