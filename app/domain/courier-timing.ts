/**
 * How long the worker waits on the courier, as pure rules: the send window of the fence
 * (ADR 0017), the wait for late commits before "not created" is believed (ADR 0018), and the waits
 * while the courier does not answer (ADR 0019).
 */

/**
 * How long after a worker confirmed it holds a delivery (the move to `creating`, or a renewal) it
 * may still send the create: a quarter of the lease, at most two seconds. A worker held up longer
 * (paused, starved, waiting on a disk) checks its hold again instead of sending, so a create leaves
 * well inside the lease it was confirmed under, never after another worker may have taken over.
 */
export function sendWindowMs(leaseMs: number): number {
  return Math.min(2_000, Math.floor(leaseMs / 4));
}

/**
 * How long after a create was sent the courier may still record it. A courier that gave no answer
 * within the client's time limit may be working on the order still; it may also answer an error
 * (a gateway's 502/504) while its back end goes on and records the order later. The wait is four
 * time limits plus a minute: 2 minutes at the default 15 s, 64 s at 1 s, 9 minutes at the longest
 * 120 s. (Observed before this rule: orders recorded 20 s after receipt with a 15 s limit, 8 s
 * with a 1 s limit, each sent a second time.)
 */
export function lateCommitWaitMs(courierTimeoutMs: number): number {
  return 4 * courierTimeoutMs + 60_000;
}

/**
 * The least time between the two looks in history that both found nothing: a history the courier
 * fills a little behind its orders gets a second chance, even for a create sent long ago (a
 * delivery taken over from a worker that stopped).
 */
export const SECOND_LOOK_MS = 30_000;

/**
 * When a create sent at `sentAt`, not found in history at `firstMissAt` (null: this is the first
 * look that missed it), may be believed not created: a second look at least SECOND_LOOK_MS after
 * the first, and no sooner than the late-commit wait after sending. Null when it is believed now.
 */
export function notCreatedBelievedAt(input: {
  sentAt: Date;
  firstMissAt: Date | null;
  now: Date;
  lateCommitWaitMs: number;
}): Date | null {
  const { sentAt, firstMissAt, now } = input;
  const at = Math.max(
    sentAt.getTime() + input.lateCommitWaitMs,
    (firstMissAt ?? now).getTime() + SECOND_LOOK_MS,
  );
  return firstMissAt !== null && now.getTime() >= at ? null : new Date(at);
}

/**
 * How long a delivery waits after the courier did not answer one of its calls (its circuit still
 * closed): as long as it has waited so far, from 15 s to 5 minutes, so a long outage is asked
 * about rarely and a short one costs little. Never counted as a failure: an outage passes.
 */
export function courierDownWaitMs(waitedMs: number): number {
  return Math.min(5 * 60_000, Math.max(15_000, waitedMs));
}
