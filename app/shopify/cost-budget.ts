import { GraphqlQueryError, HttpThrottlingError } from "@shopify/shopify-api";
import type { AdminGraphql } from "./graphql";

/**
 * Shopify's query cost budget, per shop (ADR 0014). Each shop's Admin API is a leaky bucket
 * (2,000 points, 100 restored a second on the Standard plan); a query is charged its requested
 * cost up front and refunded what it did not use, and one asked for when the bucket holds less is
 * refused as THROTTLED. Every Admin call the worker, the fulfillment check and the tracking sync
 * make goes through {@link pacedAdmin}, which remembers the bucket as the last reply reported it
 * and holds a call back (without sending it) while that estimate, less the calls in flight, is
 * below what the operation last cost. A shop whose replies carried no figures is never held back:
 * pacing comes only from figures actually seen, never from a guessed default.
 */

export interface ThrottleFigures {
  currentlyAvailable: number;
  restoreRate: number;
  maximumAvailable?: number;
}

interface Bucket {
  available: number;
  restoreRate: number;
  maximum: number;
  seenAt: number;
  /** Requested points of the calls sent and not answered yet. */
  inFlight: number;
  /** Calls held back were given times up to this one: the next held back goes after it. */
  queuedUntil: number;
}

const buckets = new Map<string, Bucket>();
/** Figures older than this are forgotten (a Standard bucket refills completely in 20 s). */
const STALE_AFTER_MS = 60_000;
/** The requested cost last seen per operation name: what a call of it will be charged. */
const operationCosts = new Map<string, number>();
/** The actual cost last seen per operation name: what a call of it leaves the bucket short. */
const actualCosts = new Map<string, number>();

/**
 * Shopify would refuse this call now (THROTTLED, or a 429), or the budget held it back before
 * sending: nothing was done. Try again at `retryAt`; a wait, never a failure.
 */
export class ShopifyThrottledError extends Error {
  readonly outcome = "not_sent" as const;
  constructor(
    readonly operation: string,
    readonly retryAt: Date,
    readonly heldBack: boolean,
  ) {
    super(
      `Shopify asked the app to slow down (${operation}); it goes on by itself in a few seconds.`,
    );
    this.name = "ShopifyThrottledError";
  }
}

/** The bucket's estimated level for `shop` at `at`, or null when no figures were ever seen. */
export function estimatedAvailable(shop: string, at: number): number | null {
  const bucket = buckets.get(shop);
  if (!bucket) return null;
  // Figures from before the bucket could have refilled completely say nothing any more, nor do
  // figures from a clock that has since gone back (a test's): as if none had been seen.
  const refillMs =
    Number.isFinite(bucket.maximum) && bucket.restoreRate > 0
      ? (bucket.maximum / bucket.restoreRate) * 1000
      : STALE_AFTER_MS;
  if (at < bucket.seenAt || at - bucket.seenAt > Math.min(refillMs, STALE_AFTER_MS)) {
    if (bucket.inFlight === 0) buckets.delete(shop);
    return null;
  }
  const restored = ((at - bucket.seenAt) / 1000) * bucket.restoreRate;
  return Math.min(bucket.maximum, bucket.available + Math.max(0, restored)) - bucket.inFlight;
}

/** How long a call costing `cost` must wait for `shop`'s bucket: 0 when it may go now. */
export function waitMsFor(shop: string, cost: number, at: number): number {
  const available = estimatedAvailable(shop, at);
  const bucket = buckets.get(shop);
  if (available === null || !bucket || cost <= available || bucket.restoreRate <= 0) return 0;
  return Math.ceil(((cost - available) / bucket.restoreRate) * 1000);
}

/** Records the figures a reply carried (`extensions.cost`), as of `at`. */
export function recordCost(
  shop: string,
  operation: string,
  cost: { requestedQueryCost?: unknown; throttleStatus?: Partial<ThrottleFigures> } | undefined,
  at: number,
): void {
  if (!cost) return;
  if (typeof cost.requestedQueryCost === "number" && cost.requestedQueryCost > 0)
    operationCosts.set(operation, cost.requestedQueryCost);
  const actual = (cost as { actualQueryCost?: unknown }).actualQueryCost;
  if (typeof actual === "number" && actual >= 0) actualCosts.set(operation, actual);
  const status = cost.throttleStatus;
  if (typeof status?.currentlyAvailable !== "number" || typeof status.restoreRate !== "number")
    return;
  const previous = buckets.get(shop);
  buckets.set(shop, {
    available: status.currentlyAvailable,
    restoreRate: status.restoreRate,
    maximum: status.maximumAvailable ?? Number.POSITIVE_INFINITY,
    seenAt: at,
    inFlight: previous?.inFlight ?? 0,
    queuedUntil: previous?.queuedUntil ?? 0,
  });
}

/** Forgets every shop's figures (tests). */
export function resetCostBudget(): void {
  buckets.clear();
  operationCosts.clear();
  actualCosts.clear();
}

/**
 * `admin` paced by `shop`'s budget: a call the bucket cannot take yet throws
 * {@link ShopifyThrottledError} without being sent, and so does a call Shopify throttled. `now`
 * is the caller's clock (the worker's, simulated in tests and benchmarks).
 */
export function pacedAdmin(
  shop: string,
  admin: AdminGraphql,
  now: () => Date = () => new Date(),
): AdminGraphql {
  return {
    async graphql(query, options) {
      const operation = operationNameOf(query);
      const cost = operationCosts.get(operation) ?? 0;
      const at = now().getTime();
      const waitMs = waitMsFor(shop, cost, at);
      const bucket = buckets.get(shop);
      if (waitMs > 0 && bucket) {
        // Calls held back queue up, each after the one before has had time to be paid for (at
        // its actual cost: the rest is refunded), so they do not all come back at once.
        const slot = Math.max(at + waitMs, bucket.queuedUntil);
        const spacing = ((actualCosts.get(operation) ?? cost) / bucket.restoreRate) * 1000;
        bucket.queuedUntil = slot + Math.ceil(spacing);
        throw new ShopifyThrottledError(operation, new Date(slot), true);
      }
      if (bucket) bucket.inFlight += cost;
      try {
        const response = await admin.graphql(query, options);
        const body = (await response
          .clone()
          .json()
          .catch(() => null)) as { extensions?: { cost?: CostExtension } } | null;
        recordCost(shop, operation, body?.extensions?.cost, now().getTime());
        return response;
      } catch (error) {
        const throttled = throttledBy(error);
        if (!throttled) throw error;
        const answeredAt = now().getTime();
        recordCost(shop, operation, throttled.cost, answeredAt);
        const requested = Math.max(
          operationCosts.get(operation) ?? 0,
          numberOr(throttled.cost?.requestedQueryCost, 0),
        );
        const retryInMs =
          throttled.retryAfterMs ?? Math.max(1_000, waitMsFor(shop, requested, answeredAt));
        throw new ShopifyThrottledError(operation, new Date(answeredAt + retryInMs), false);
      } finally {
        const held = buckets.get(shop);
        if (held) held.inFlight = Math.max(0, held.inFlight - cost);
      }
    },
  };
}

interface CostExtension {
  requestedQueryCost?: unknown;
  throttleStatus?: Partial<ThrottleFigures>;
}

/** A throttling error of the library, with the cost figures its body carried; null otherwise. */
function throttledBy(error: unknown): { cost?: CostExtension; retryAfterMs?: number } | null {
  if (error instanceof HttpThrottlingError) {
    const retryAfter = error.response.retryAfter;
    return retryAfter ? { retryAfterMs: retryAfter * 1000 } : {};
  }
  if (error instanceof GraphqlQueryError) {
    const body = error.body as
      | { errors?: { graphQLErrors?: { extensions?: { code?: string } }[] }; extensions?: unknown }
      | undefined;
    const codes = (body?.errors?.graphQLErrors ?? []).map((e) => e.extensions?.code);
    if (!codes.includes("THROTTLED") && !/THROTTLED|Throttled/.test(error.message)) return null;
    return { cost: (body?.extensions as { cost?: CostExtension } | undefined)?.cost };
  }
  return null;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** The operation's name (after `query` or `mutation`), as the budget keeps its costs. */
export function operationNameOf(query: string): string {
  return /\b(?:query|mutation)\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(query)?.[1] ?? "anonymous";
}
