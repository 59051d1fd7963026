/**
 * The worker's lease and backoff policy, as pure rules: how long a worker holds a delivery, how
 * long it waits after a failure, and when a step is handed to the merchant.
 */

/**
 * The longest one courier call can take: a read is tried three times (the client's default
 * retries), each attempt up to the timeout, waiting up to 20 s between them (the longest
 * Retry-After it honours). Creates and cancels are tried once.
 */
export function longestCourierCallMs(courierTimeoutMs: number): number {
  return 3 * courierTimeoutMs + 2 * 20_000;
}

/** Left over after the longest call, for the database writes around it. */
const LEASE_MARGIN_MS = 60_000;

/**
 * The worker's lease: it is renewed before every courier call and must outlast the call, or
 * another worker could take a row mid-create, find nothing in history yet, and create it again.
 */
export function leaseMsFor(courierTimeoutMs: number): number {
  return longestCourierCallMs(courierTimeoutMs) + LEASE_MARGIN_MS;
}

/**
 * Whether a lease a pass took for its whole batch must be renewed before a look at one of its
 * deliveries starts at `now`: once more than half the margin has gone by since it was taken, it
 * no longer surely covers the longest courier call and the writes around it. A look that starts
 * soon after the claim (nearly all of them) skips a write transaction: renewing every one was a
 * third of the tracking sync's statements (issue 24).
 */
export function leaseNeedsRenewal(
  leaseExpiresAt: Date | null,
  now: Date,
  leaseMs: number,
): boolean {
  if (!leaseExpiresAt) return true;
  return leaseExpiresAt.getTime() - now.getTime() < leaseMs - LEASE_MARGIN_MS / 2;
}

/** Refuses (at boot) a lease that a courier call could outlive. */
export function assertLeaseOutlastsCourierCalls(leaseMs: number, courierTimeoutMs: number): void {
  const needed = leaseMsFor(courierTimeoutMs);
  if (!(leaseMs >= needed)) {
    throw new Error(
      `The delivery worker's lease (${leaseMs} ms) must be at least ${needed} ms: a courier call may take ${longestCourierCallMs(courierTimeoutMs)} ms with COURIER_TIMEOUT_MS=${courierTimeoutMs}, and a lease that lapses mid-call lets another worker send the same delivery again.`,
    );
  }
}

/** Doubling waits from `base`, at most `max`. */
export function backoffMs(attempts: number, base = 2_000, max = 15 * 60_000): number {
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

/** Failures in a row of one step before the merchant is asked (about an hour of retries). */
export const MAX_STEP_FAILURES = 10;

/** The longest wait between two tries of a step. */
export const LONGEST_STEP_WAIT_MS = 15 * 60_000;

/** The wait after the n-th failure in a row of a step: 5 s, doubling, at most 15 minutes. */
export function stepBackoffMs(failures: number): number {
  return backoffMs(failures, 5_000, LONGEST_STEP_WAIT_MS);
}

/**
 * How long a delivery waits when the shop has no courier to call (no key, or an unreadable one);
 * saving a working key in Settings resumes them at once (resumeDeliveriesAfterConnection).
 */
export const NO_COURIER_WAIT_MS = 15 * 60_000;

/** How many deliveries one create-bulk call carries. */
export const BULK_BATCH = 25;

/** How soon after creation the tracking sync first asks the courier. */
export const FIRST_TRACKING_LOOK_MS = 60_000;

/** A wait as the timeline says it: "40 s", "2 minutes". */
export function inWords(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} minutes`;
}
