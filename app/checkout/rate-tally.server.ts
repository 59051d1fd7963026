import type { RateOutcome } from "../domain/checkout-rates";
import {
  addRateTallies,
  pruneRateTallies,
  type RateTallyCount,
} from "../models/checkout-rates.server";

/**
 * What checkout asked, counted in memory and written every few seconds in one transaction
 * (issue 28): the callback never waits for a database write, and a burst of 200 requests a second
 * is one write of a few rows, not 200. A process that dies loses at most the last few seconds of
 * counts, which only a report reads. Bounded: one counter per shop, Kuwaiti day, area and
 * outcome; days older than {@link KEEP_DAYS} are deleted.
 */

const FLUSH_EVERY_MS = 5_000;
export const KEEP_DAYS = 90;

const pending = new Map<string, RateTallyCount>();
let timer: NodeJS.Timeout | null = null;
let flushing: Promise<void> | null = null;
let lastPruneDay = "";

export function countRateRequest(shop: string, day: string, area: string, outcome: RateOutcome) {
  const key = `${shop}\u0000${day}\u0000${area}\u0000${outcome}`;
  const known = pending.get(key);
  if (known) known.count += 1;
  else pending.set(key, { shop, day, area, outcome, count: 1 });
  if (timer === null) {
    timer = setTimeout(() => {
      timer = null;
      void flushRateTallies().catch((error: unknown) =>
        console.warn(`Checkout rate counts not written yet: ${(error as Error).message}`),
      );
    }, FLUSH_EVERY_MS);
    timer.unref();
  }
}

/**
 * Writes the counts so far (tests and a stopping process call it; otherwise the timer does). A
 * write that fails puts its counts back, to go with the next one.
 */
export async function flushRateTallies(): Promise<void> {
  if (flushing) await flushing;
  if (pending.size === 0) return;
  const batch = [...pending.values()];
  pending.clear();
  flushing = (async () => {
    try {
      await addRateTallies(batch);
    } catch (error) {
      for (const count of batch) {
        const key = `${count.shop}\u0000${count.day}\u0000${count.area}\u0000${count.outcome}`;
        const known = pending.get(key);
        if (known) known.count += count.count;
        else pending.set(key, count);
      }
      throw error;
    }
    const today = batch.reduce((latest, c) => (c.day > latest ? c.day : latest), batch[0]!.day);
    if (today !== lastPruneDay) {
      lastPruneDay = today;
      const cutoff = new Date(Date.parse(`${today}T00:00:00Z`) - KEEP_DAYS * 86_400_000);
      await pruneRateTallies(cutoff.toISOString().slice(0, 10));
    }
  })();
  try {
    await flushing;
  } finally {
    flushing = null;
  }
}

/** Counts not written yet (tests). */
export function pendingRateCounts(): number {
  let n = 0;
  for (const c of pending.values()) n += c.count;
  return n;
}
