/**
 * What every step of the worker does with a delivery it holds: move it (checked against the move
 * table, with a timeline event), let it wait, hand it to the merchant, count a failure.
 */
import { CourierCircuitOpenError, type CourierClient, type CourierError } from "../../courier";
import {
  getDeliveryRow,
  releaseLease,
  renewLease,
  type DeliveryRow,
} from "../../models/deliveries.server";
import { StaleDeliveryError, transition } from "../../models/delivery-state";
import { type CourierEnvironment } from "../../models/shop.server";
import { withCircuitBreaker } from "../../services/courier-breaker.server";
import { ShopifyAccessLostError } from "../../services/shopify-admin.server";
import { pacedAdmin, ShopifyThrottledError } from "../../shopify/cost-budget";
import { shopifyFailureKind } from "../../shopify/fulfillment-events";
import type { AdminGraphql } from "../../shopify/graphql";
import { type CourierAnswer } from "../../domain/courier-answers";
import { type EventData } from "../../domain/event-data";
import { courierDownWaitMs } from "../../domain/courier-timing";
import {
  leaseMsFor,
  longestCourierCallMs,
  MAX_STEP_FAILURES,
  stepBackoffMs,
} from "../../domain/lease-policy";
import { canMove, type DeliveryState } from "../../domain/states";
import type { WaitKind } from "../../domain/waits";

/**
 * The delivery worker: leases due rows and moves each one step or more along
 * pending → ready → creating → created → tracking on Shopify. Every call that may have reached the
 * courier is recorded before it is made, so a crash leaves a row that says what to check.
 */
export interface WorkerDependencies {
  owner: string;
  courierFor(shop: string, environment: CourierEnvironment): Promise<CourierClient | null>;
  adminFor(shop: string): Promise<AdminGraphql>;
  trackingUrl(delivery: Pick<DeliveryRow, "id" | "courierOrderNumber">): string;
  courierDisplayName: string;
  now?: () => Date;
  /**
   * The time limit of each attempt of the courier client `courierFor` returns (default 15 s, as
   * COURIER_TIMEOUT_MS); the lease is derived from it ({@link leaseMsFor}).
   */
  courierTimeoutMs?: number;
  /** How long a claimed row stays this worker's; at least {@link leaseMsFor} the timeout. */
  leaseMs?: number;
  /**
   * How long after an unknown outcome the courier's history is first checked. Found, the delivery
   * is created; not found, it is looked for again before it is believed absent (ADR 0018).
   */
  reconcileDelayMs?: number;
}

export const DEFAULTS = { courierTimeoutMs: 15_000, reconcileDelayMs: 5_000 };

export function courierTimeoutOf(deps: WorkerDependencies): number {
  return deps.courierTimeoutMs ?? DEFAULTS.courierTimeoutMs;
}

export function leaseMsOf(deps: WorkerDependencies): number {
  return deps.leaseMs ?? leaseMsFor(courierTimeoutOf(deps));
}

/** The shop's courier client, through its account's circuit breaker (ADR 0019); null: no key. */
export async function courierOf(
  delivery: DeliveryRow,
  deps: WorkerDependencies,
): Promise<CourierClient | null> {
  const client = await deps.courierFor(delivery.shop, delivery.environment);
  return (
    client &&
    withCircuitBreaker(client, accountOf(delivery), {
      now: () => now(deps),
      trialMs: longestCourierCallMs(courierTimeoutOf(deps)),
    })
  );
}

export const accountOf = (delivery: DeliveryRow) => ({
  shop: delivery.shop,
  environment: delivery.environment,
});

/** The shop's Admin API client, through its cost budget (ADR 0014). */
export async function adminOf(
  delivery: DeliveryRow,
  deps: WorkerDependencies,
): Promise<AdminGraphql> {
  return pacedAdmin(delivery.shop, await deps.adminFor(delivery.shop), () => now(deps));
}

/** Before each courier call: the lease is still ours and lasts past the call, or nothing is sent. */
export async function renew(delivery: DeliveryRow, deps: WorkerDependencies): Promise<void> {
  await renewLease(delivery.shop, delivery.id, deps.owner, leaseMsOf(deps), now(deps));
}

export const STEP_NAMES: Partial<Record<string, string>> = {
  pending: " while loading the order from Shopify",
  ready: " while preparing to send it",
  created: " while putting the tracking number on Shopify",
};

/**
 * A thrown value in words. The Shopify library throws bare `Response`s (its refresh of an expiring
 * token answered 500 that way), which `String()` turns into "[object Response]".
 */
export function describeFailure(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  if (cause instanceof Response) {
    return `Shopify's library stopped with an HTTP ${cause.status}${cause.statusText ? ` ${cause.statusText}` : ""} answer.`;
  }
  return typeof cause === "string" ? cause : "An unknown error.";
}

/** How long a delivery waits, not counted as a failure, while the shop's Shopify access is lost. */
export const SHOPIFY_ACCESS_WAIT_MS = 5 * 60_000;

/**
 * The shop's token cannot be renewed until the merchant opens the app (ADR 0015): the delivery
 * waits without counting a failure, says why, and is looked at again every few minutes.
 */
async function waitForShopifyAccess(
  leased: DeliveryRow,
  deps: WorkerDependencies,
  cause: ShopifyAccessLostError,
): Promise<null> {
  try {
    await releaseLease(leased.shop, leased.id, deps.owner, {
      lastError: cause.message.slice(0, 500),
      nextAttemptAt: new Date(now(deps).getTime() + SHOPIFY_ACCESS_WAIT_MS),
      ...waiting(leased, deps, "shopify_access"),
    });
  } catch (error) {
    if (!(error instanceof StaleDeliveryError)) throw error;
  }
  return null;
}

/** The wait after a throttled reply that carried no figures to compute one from. */
const THROTTLED_WAIT_MS = 2_000;

/**
 * Shopify throttled the call (or the shop's cost budget held it back before sending): nothing
 * was done, nothing is counted. The delivery waits until the bucket has refilled enough (ADR 0014).
 */
async function shopifyThrottled(leased: DeliveryRow, deps: WorkerDependencies, cause: unknown) {
  const at = now(deps).getTime();
  const retryAt =
    cause instanceof ShopifyThrottledError ? cause.retryAt.getTime() : at + THROTTLED_WAIT_MS;
  try {
    await releaseLease(leased.shop, leased.id, deps.owner, {
      lastError: "Shopify asked the app to slow down; this goes on by itself.",
      nextAttemptAt: new Date(Math.max(retryAt, at + 250)),
      ...waiting(leased, deps, "shopify_budget"),
    });
  } catch (error) {
    if (!(error instanceof StaleDeliveryError)) throw error;
  }
  return null;
}

/**
 * A step failed for a reason that may pass (Shopify down or refusing, the fulfillment of a "Send
 * to courier" not come yet): counted, tried again later and later, and after
 * {@link MAX_STEP_FAILURES} in a row handed to the merchant with the reason.
 */
export async function stepFailed(
  leased: DeliveryRow,
  deps: WorkerDependencies,
  cause: unknown,
  giveUpReason?: (message: string) => string,
): Promise<null> {
  if (cause instanceof StaleDeliveryError) return null;
  if (cause instanceof ShopifyAccessLostError) return waitForShopifyAccess(leased, deps, cause);
  if (shopifyFailureKind(cause) === "throttled") return shopifyThrottled(leased, deps, cause);
  const message = describeFailure(cause).slice(0, 400);
  let delivery: DeliveryRow;
  try {
    delivery = await reload(leased);
  } catch {
    return null;
  }
  if (delivery.leaseOwner !== deps.owner) return null;
  const failures = delivery.failures + 1;
  try {
    if (failures >= MAX_STEP_FAILURES && canMove(delivery.state, "needs_attention")) {
      await needsAttention(
        delivery,
        deps,
        giveUpReason?.(message) ??
          `Stopped after ${failures} failed tries in a row${STEP_NAMES[delivery.state] ?? ""}: ${message} Fix the cause, then press Try again.`,
        { failures },
      );
    } else {
      await releaseLease(delivery.shop, delivery.id, deps.owner, {
        failures,
        lastError: message,
        nextAttemptAt: new Date(now(deps).getTime() + stepBackoffMs(failures)),
      });
    }
  } catch (error) {
    if (!(error instanceof StaleDeliveryError)) throw error;
  }
  return null;
}

/** A move of a row this worker may have lost meanwhile: lost, it is its new holder's. */
export async function lostIsNull<T>(moving: Promise<T>): Promise<T | null> {
  try {
    return await moving;
  } catch (error) {
    if (error instanceof StaleDeliveryError) return null;
    throw error;
  }
}

/** The courier's create circuit is open: the delivery waits for it, nothing counted. */
export async function waitForCircuit(delivery: DeliveryRow, deps: WorkerDependencies, until: Date) {
  return wait(
    delivery,
    deps,
    Math.max(0, until.getTime() - now(deps).getTime()),
    "The courier is not answering; sending resumes by itself when it does.",
    "courier_down",
  );
}

/**
 * A wait that never counts as a failure, for `kind`: since when it lasts is kept (from the first
 * of such waits since the delivery last moved on), and past LONG_WAIT_MS the pages say so.
 */
export function waiting(delivery: DeliveryRow, deps: Actor, kind: WaitKind) {
  return { waitingSince: delivery.waitingSince ?? now(deps), waitingFor: kind };
}

/** A move that is no progress (a send that did not go, an answer lost): the wait goes on. */
export const stillWaiting = (delivery: DeliveryRow) => ({
  waitingSince: delivery.waitingSince,
  waitingFor: delivery.waitingFor,
});

export type Step = (delivery: DeliveryRow, deps: WorkerDependencies) => Promise<DeliveryRow | null>;

/** Who moves a delivery: a worker holding its lease, or the merchant (owner null, no lease). */
export type Actor = { owner: string | null; now?: () => Date };

export const now = (deps: Actor) => deps.now?.() ?? new Date();

export async function reload(delivery: DeliveryRow): Promise<DeliveryRow> {
  return getDeliveryRow(delivery.shop, delivery.id);
}

export async function move(
  delivery: DeliveryRow,
  deps: Actor,
  to: DeliveryState,
  event: { kind: string; message: string; data?: EventData },
  data: Parameters<typeof transition>[0]["data"] = {},
  guard: Pick<Parameters<typeof transition>[0], "soleCollectorOf"> = {},
): Promise<DeliveryRow> {
  await transition({
    shop: delivery.shop,
    id: delivery.id,
    from: delivery.state,
    to,
    // A step that moved on has no failures in a row (unless the move says otherwise).
    data: { failures: 0, ...data },
    event,
    leaseOwner: deps.owner,
    // A worker moves a row only under the lease it took (its fencing token, ADR 0017).
    ...(deps.owner !== null ? { leaseGeneration: delivery.leaseGeneration } : {}),
    at: now(deps),
    ...guard,
  });
  return reload(delivery);
}

/**
 * Waiting: the lease goes, and the row comes back when it is due (or when the merchant acts).
 * `kind`: a wait for something outside the app that never counts as a failure ({@link waiting}).
 */
export async function wait(
  delivery: DeliveryRow,
  deps: WorkerDependencies,
  inMs: number | null,
  lastError?: string,
  kind?: WaitKind,
) {
  await releaseLease(delivery.shop, delivery.id, deps.owner, {
    nextAttemptAt: inMs === null ? null : new Date(now(deps).getTime() + inMs),
    ...(lastError !== undefined ? { lastError } : {}),
    ...(kind ? waiting(delivery, deps, kind) : {}),
  });
  return null;
}

/**
 * Waits for the merchant to change something outside the address (the order's currency, or a
 * Shopify failure that lasted too long); "Try again" on the delivery's page resumes it.
 */
export async function needsAttention(
  delivery: DeliveryRow,
  deps: Actor,
  reason: string,
  data: Parameters<typeof transition>[0]["data"] = {},
): Promise<DeliveryRow> {
  return move(
    delivery,
    deps,
    "needs_attention",
    { kind: "needs_attention", message: reason },
    {
      ...data,
      stateReason: reason.slice(0, 500),
      lastError: reason.slice(0, 500),
      nextAttemptAt: null,
      leaseOwner: null,
      leaseExpiresAt: null,
    },
  );
}

export async function unknownOutcome(
  delivery: DeliveryRow,
  deps: WorkerDependencies,
  message: string,
  answer?: CourierAnswer,
) {
  const moved = await move(
    delivery,
    deps,
    "unknown",
    {
      kind: "unknown",
      message: `${message} The courier's history will be checked before anything is sent again.`,
      data: answer,
    },
    { lastError: message, ...stillWaiting(delivery) },
  );
  return wait(moved, deps, deps.reconcileDelayMs ?? DEFAULTS.reconcileDelayMs);
}

/**
 * The courier did not answer (or its circuit is open): the delivery waits, for the circuit or for
 * as long as it has waited so far (courierDownWaitMs), without counting a failure, and says why.
 */
export async function courierNotAnswering(
  delivery: DeliveryRow,
  deps: WorkerDependencies,
  error: CourierError,
) {
  const at = now(deps);
  const retryAt =
    error instanceof CourierCircuitOpenError
      ? error.retryAt
      : new Date(
          at.getTime() +
            courierDownWaitMs(
              at.getTime() - (delivery.unknownSince ?? delivery.updatedAt).getTime(),
            ),
        );
  return wait(
    delivery,
    deps,
    Math.max(0, retryAt.getTime() - at.getTime()),
    error instanceof CourierCircuitOpenError
      ? error.message
      : `The courier is not answering; sending resumes by itself when it does. (${error.message})`.slice(
          0,
          500,
        ),
    "courier_down",
  );
}
