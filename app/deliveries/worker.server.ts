import type { Delivery } from "@prisma/client";
import { matchAddress, resolveCourierIds } from "../addresses";
import {
  CourierAuthError,
  CourierCircuitOpenError,
  CourierSendExpiredError,
  CourierUnavailableError,
  CourierValidationError,
  isCourierError,
  type CourierClient,
  type CourierError,
  type CreateOrderBody,
} from "../courier";
import { isNotAnswering } from "../courier/circuit";
import { listAreaOverrides } from "../models/area-overrides.server";
import { courierUnavailableReason } from "../models/courier-account.server";
import {
  BalanceCollectedElsewhereError,
  claimDueDeliveries,
  findBalanceCollector,
  addDeliveryEvent,
  getDeliveryRow,
  releaseLease,
  renewLease,
  renewSendingLease,
  StaleDeliveryError,
  startCreating,
  transition,
  type LateCourierOrder,
} from "../models/deliveries.server";
import { getPickupLocation } from "../models/pickup-locations.server";
import { getShopSettings, type CourierEnvironment } from "../models/shop.server";
import { circuitClosedAt, withCircuitBreaker } from "../services/courier-breaker.server";
import { ShopifyAccessLostError } from "../services/shopify-admin.server";
import { loadCourierDirectory } from "../services/courier-directory.server";
import { pacedAdmin, ShopifyThrottledError } from "../shopify/cost-budget";
import { shopifyFailureKind } from "../shopify/fulfillment-events";
import {
  fetchDeliveryFulfillment,
  fulfillmentHasTracking,
  updateFulfillmentTracking,
} from "../shopify/fulfillments";
import type { AdminGraphql } from "../shopify/graphql";
import { carryOutCancel } from "./cancel.server";
import { courierFailure, courierReply, type CourierAnswer } from "./courier-answers";
import {
  courierDownWaitMs,
  lateCommitWaitMs,
  notCreatedBelievedAt,
  sendWindowMs,
} from "./courier-timing";
import { searchHistory, type HistoryAnswer } from "./history";
import { settleLateOrder } from "./late-orders.server";
import { buildDeliveryRequest, currencyProblem, refreshPickupDate } from "./request";
import { canMove, type DeliveryState } from "./states";

/**
 * The delivery worker: leases due rows and moves each one step or more along
 * pending → ready → creating → created → tracking on Shopify. Every call that may have reached the
 * courier is recorded before it is made, so a crash leaves a row that says what to check.
 */
export interface WorkerDependencies {
  owner: string;
  courierFor(shop: string, environment: CourierEnvironment): Promise<CourierClient | null>;
  adminFor(shop: string): Promise<AdminGraphql>;
  trackingUrl(delivery: Pick<Delivery, "id" | "courierOrderNumber">): string;
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

const DEFAULTS = { courierTimeoutMs: 15_000, reconcileDelayMs: 5_000 };

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
 * How long a delivery waits when the shop has no courier to call (no key, or an unreadable one);
 * saving a working key in Settings resumes them at once (resumeDeliveriesAfterConnection).
 */
const NO_COURIER_WAIT_MS = 15 * 60_000;

/**
 * The worker's lease: it is renewed before every courier call and must outlast the call, or
 * another worker could take a row mid-create, find nothing in history yet, and create it again.
 */
export function leaseMsFor(courierTimeoutMs: number): number {
  return longestCourierCallMs(courierTimeoutMs) + LEASE_MARGIN_MS;
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

function courierTimeoutOf(deps: WorkerDependencies): number {
  return deps.courierTimeoutMs ?? DEFAULTS.courierTimeoutMs;
}

function leaseMsOf(deps: WorkerDependencies): number {
  return deps.leaseMs ?? leaseMsFor(courierTimeoutOf(deps));
}

/** The shop's courier client, through its account's circuit breaker (ADR 0019); null: no key. */
async function courierOf(
  delivery: Delivery,
  deps: WorkerDependencies,
): Promise<CourierClient | null> {
  const client = await deps.courierFor(delivery.shop, delivery.environment as CourierEnvironment);
  return (
    client &&
    withCircuitBreaker(client, accountOf(delivery), {
      now: () => now(deps),
      trialMs: longestCourierCallMs(courierTimeoutOf(deps)),
    })
  );
}

const accountOf = (delivery: Delivery) => ({
  shop: delivery.shop,
  environment: delivery.environment,
});

/** The shop's Admin API client, through its cost budget (ADR 0014). */
async function adminOf(delivery: Delivery, deps: WorkerDependencies): Promise<AdminGraphql> {
  return pacedAdmin(delivery.shop, await deps.adminFor(delivery.shop), () => now(deps));
}

/** Before each courier call: the lease is still ours and lasts past the call, or nothing is sent. */
async function renew(delivery: Delivery, deps: WorkerDependencies): Promise<void> {
  await renewLease(delivery.shop, delivery.id, deps.owner, leaseMsOf(deps), now(deps));
}

export function backoffMs(attempts: number, base = 2_000, max = 15 * 60_000): number {
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

/** One pass: lease up to `limit` due deliveries and process them. Returns how many it handled. */
export async function runDueDeliveries(deps: WorkerDependencies, limit = 10): Promise<number> {
  const now = deps.now?.() ?? new Date();
  const leased = await claimDueDeliveries(deps.owner, limit, leaseMsOf(deps), now);
  // Several ready deliveries of one shop go to the courier in one create-bulk call.
  const batches = new Map<string, Delivery[]>();
  const single: Delivery[] = [];
  for (const delivery of leased) {
    if (delivery.state !== "ready" || !delivery.request) {
      single.push(delivery);
      continue;
    }
    const key = `${delivery.shop}|${delivery.environment}`;
    batches.set(key, [...(batches.get(key) ?? []), delivery]);
  }
  const work: Promise<void>[] = single.map((delivery) => processDelivery(delivery, deps));
  for (const batch of batches.values()) {
    if (batch.length === 1) work.push(processDelivery(batch[0]!, deps));
    else
      for (let i = 0; i < batch.length; i += BULK_BATCH) {
        const part = batch.slice(i, i + BULK_BATCH);
        work.push(
          processBulk(part, deps).catch(async (error: unknown) => {
            for (const delivery of part) await stepFailed(delivery, deps, error);
          }),
        );
      }
  }
  // Each row's failure is its own: recorded on the row, never the end of the others' pass.
  await Promise.allSettled(work);
  return leased.length;
}

/** Failures in a row of one step before the merchant is asked (about an hour of retries). */
export const MAX_STEP_FAILURES = 10;

/** The longest wait between two tries of a step. */
export const LONGEST_STEP_WAIT_MS = 15 * 60_000;

/** The wait after the n-th failure in a row of a step: 5 s, doubling, at most 15 minutes. */
export function stepBackoffMs(failures: number): number {
  return backoffMs(failures, 5_000, LONGEST_STEP_WAIT_MS);
}

const STEP_NAMES: Partial<Record<string, string>> = {
  pending: " while loading the order from Shopify",
  ready: " while preparing to send it",
  created: " while putting the tracking number on Shopify",
};

/**
 * A step failed for a reason that may pass (Shopify down or refusing, the fulfillment of a "Send
 * to courier" not come yet): counted, tried again later and later, and after
 * {@link MAX_STEP_FAILURES} in a row handed to the merchant with the reason.
 */
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
  leased: Delivery,
  deps: WorkerDependencies,
  cause: ShopifyAccessLostError,
): Promise<null> {
  try {
    await releaseLease(leased.shop, leased.id, deps.owner, {
      lastError: cause.message.slice(0, 500),
      nextAttemptAt: new Date(now(deps).getTime() + SHOPIFY_ACCESS_WAIT_MS),
    });
  } catch (error) {
    if (!(error instanceof StaleDeliveryError)) throw error;
  }
  return null;
}

async function stepFailed(
  leased: Delivery,
  deps: WorkerDependencies,
  cause: unknown,
  giveUpReason?: (message: string) => string,
): Promise<null> {
  if (cause instanceof StaleDeliveryError) return null;
  if (cause instanceof ShopifyAccessLostError) return waitForShopifyAccess(leased, deps, cause);
  if (shopifyFailureKind(cause) === "throttled") return shopifyThrottled(leased, deps, cause);
  const message = describeFailure(cause).slice(0, 400);
  let delivery: Delivery;
  try {
    delivery = await reload(leased);
  } catch {
    return null;
  }
  if (delivery.leaseOwner !== deps.owner) return null;
  const failures = delivery.failures + 1;
  try {
    if (
      failures >= MAX_STEP_FAILURES &&
      canMove(delivery.state as DeliveryState, "needs_attention")
    ) {
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

/**
 * Shopify throttled the call (or the shop's cost budget held it back before sending): nothing
 * was done, nothing is counted. The delivery waits until the bucket has refilled enough (ADR 0014).
 */
async function shopifyThrottled(leased: Delivery, deps: WorkerDependencies, cause: unknown) {
  const at = now(deps).getTime();
  const retryAt =
    cause instanceof ShopifyThrottledError ? cause.retryAt.getTime() : at + THROTTLED_WAIT_MS;
  try {
    await releaseLease(leased.shop, leased.id, deps.owner, {
      lastError: "Shopify asked the app to slow down; this goes on by itself in a few seconds.",
      nextAttemptAt: new Date(Math.max(retryAt, at + 250)),
    });
  } catch (error) {
    if (!(error instanceof StaleDeliveryError)) throw error;
  }
  return null;
}

/** The wait after a throttled reply that carried no figures to compute one from. */
const THROTTLED_WAIT_MS = 2_000;

/** How many deliveries one create-bulk call carries. */
export const BULK_BATCH = 25;

/**
 * Creates a batch of ready deliveries with one create-bulk call. Each item's fate is its own:
 * created, rejected (with the courier's message) or unknown (reconciled through history like a
 * single create). A batch the courier refuses as a whole is sent one by one, so each delivery gets
 * its own answer.
 */
async function processBulk(batch: Delivery[], deps: WorkerDependencies): Promise<void> {
  const first = batch[0]!;
  const client = await courierOf(first, deps);
  if (!client) {
    const reason = await courierUnavailableReason(first.shop);
    await Promise.all(batch.map((d) => wait(d, deps, NO_COURIER_WAIT_MS, reason)));
    return;
  }
  const closedUntil = await circuitClosedAt(accountOf(first), "create", now(deps));
  if (closedUntil) {
    await Promise.all(batch.map((d) => waitForCircuit(d, deps, closedUntil)));
    return;
  }
  const settings = await getShopSettings(first.shop);
  const fence = {
    sendBy: performance.now() + sendWindowMs(leaseMsOf(deps)),
    rows: [] as Delivery[],
  };
  fence.rows = await markSending(
    batch.map((delivery) => {
      const outgoing = requestToSend(delivery, settings, deps);
      return {
        delivery,
        request: outgoing.request,
        message: `Sending to the courier in a batch of ${batch.length} (attempt ${delivery.attempts + 1}).${outgoing.note}`,
      };
    }),
    deps,
  );
  // Those not moved had a cancellation asked for meanwhile: it is carried out instead.
  const held = batch.filter((d) => !fence.rows.some((s) => s.id === d.id));
  await Promise.all(
    held.map(async (d) => {
      const row = await reload(d);
      if (row.leaseOwner === deps.owner && row.leaseGeneration === d.leaseGeneration)
        await processDelivery(row, deps);
    }),
  );
  if (fence.rows.length === 0) return;
  const bodies = new Map(fence.rows.map((d) => [d.id, JSON.parse(d.request!) as CreateOrderBody]));
  let after: (Delivery | null)[];
  try {
    const result = await sendFenced(fence, deps, (rows, sendBy) =>
      client.createBulk(
        rows.map((row) => bodies.get(row.id)!),
        { sendBy },
      ),
    );
    after = await Promise.all(
      fence.rows.map(async (delivery, index) => {
        const item = result.items[index];
        if (item?.outcome === "created") {
          return recordCreated(
            delivery,
            deps,
            {
              orderId: item.orderId,
              orderNumber: item.orderNumber ?? item.orderId,
              status: item.status ?? null,
            },
            `Created at the courier as order ${item.orderNumber ?? item.orderId} (batch).`,
            courierReply({
              orderId: item.orderId,
              orderNumber: item.orderNumber,
              status: item.status,
              createdAt: item.createdAt,
            }),
          );
        }
        if (item?.outcome === "rejected") {
          return lostIsNull(
            move(
              delivery,
              deps,
              "rejected",
              {
                kind: "rejected",
                message: item.message,
                data: courierReply({ message: item.message }),
              },
              {
                stateReason: item.message,
                lastError: item.message,
                unknownSince: null,
                nextAttemptAt: null,
                leaseOwner: null,
                leaseExpiresAt: null,
              },
            ),
          );
        }
        const message = item?.message ?? "The courier did not say what became of this order.";
        return lostIsNull(unknownOutcome(delivery, deps, message, courierReply({ message })));
      }),
    );
  } catch (error) {
    // Every row was lost before anything was sent: their new holders carry on.
    if (error instanceof StaleDeliveryError) return;
    if (!isCourierError(error)) throw error;
    const sending = fence.rows;
    if (error.outcome === "unknown") {
      await Promise.all(
        sending.map((d) =>
          lostIsNull(unknownOutcome(d, deps, error.message, courierFailure(error))),
        ),
      );
      return;
    }
    const backToReady = await Promise.all(
      sending.map((d) =>
        move(
          d,
          deps,
          "ready",
          { kind: "retry", message: error.message, data: courierFailure(error) },
          { lastError: error.message, unknownSince: null },
        ),
      ),
    );
    if (error instanceof CourierValidationError) {
      // Refused as a whole: one by one, so the bad order is named and the others go out.
      for (const delivery of backToReady) await processDelivery(delivery, deps);
      return;
    }
    if (error instanceof CourierCircuitOpenError) {
      await Promise.all(backToReady.map((d) => waitForCircuit(d, deps, error.retryAt)));
      return;
    }
    const retryIn =
      error instanceof CourierUnavailableError && error.retryAfterMs
        ? error.retryAfterMs
        : backoffMs(first.attempts + 1);
    await Promise.all(backToReady.map((d) => wait(d, deps, retryIn)));
    return;
  }
  // Created ones go on to put tracking on Shopify; the rest have released their lease.
  await Promise.all(
    after
      .filter((d): d is Delivery => d !== null)
      .map((d) => processDelivery(d, deps, { justCreated: true })),
  );
}

/** A move of a row this worker may have lost meanwhile: lost, it is its new holder's. */
async function lostIsNull<T>(moving: Promise<T>): Promise<T | null> {
  try {
    return await moving;
  } catch (error) {
    if (error instanceof StaleDeliveryError) return null;
    throw error;
  }
}

/**
 * Sends a create for `fence.rows`, which this worker moved to `creating` (the first fence): the
 * client refuses to send once `fence.sendBy` has passed (ADR 0017). A worker held up past it checks
 * its hold on each row again (lease owner, generation, still `creating`) under a fresh lease and
 * sends only for the rows it still holds; the others were taken over, and are not sent by it.
 * Throws StaleDeliveryError when it holds none any more.
 */
async function sendFenced<T>(
  fence: { sendBy: number; rows: Delivery[] },
  deps: WorkerDependencies,
  send: (rows: Delivery[], sendBy: number) => Promise<T>,
): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await send(fence.rows, fence.sendBy);
    } catch (error) {
      if (!(error instanceof CourierSendExpiredError) || tries >= 3) throw error;
    }
    fence.sendBy = performance.now() + sendWindowMs(leaseMsOf(deps));
    const expires = new Date(now(deps).getTime() + leaseMsOf(deps));
    const kept: Delivery[] = [];
    for (const row of fence.rows) {
      if (await renewSendingLease(row.shop, row.id, deps.owner, row.leaseGeneration, expires))
        kept.push(row);
      else
        await addDeliveryEvent(
          row.shop,
          row.id,
          "not_sent",
          "A sending attempt that had stalled stopped before reaching the courier: the delivery had already been taken over.",
          now(deps),
        );
    }
    if (kept.length === 0) throw new StaleDeliveryError(fence.rows[0]!.id, "creating");
    fence.rows = kept;
  }
}

/**
 * The courier created the order: recorded on the row, unless this worker lost the row while the
 * create was out (held up past its lease): then the first order recorded is the delivery's, and
 * this one, if it is not, is cancelled at the courier (settleLateOrder).
 */
async function recordCreated(
  sending: Delivery,
  deps: WorkerDependencies,
  order: LateCourierOrder,
  message: string,
  data: CourierAnswer,
): Promise<Delivery | null> {
  try {
    return await move(
      sending,
      deps,
      "created",
      { kind: "created", message, data },
      {
        courierOrderId: order.orderId,
        courierOrderNumber: order.orderNumber,
        courierStatus: order.status,
        unknownSince: null,
        lastError: null,
        nextAttemptAt: now(deps),
      },
    );
  } catch (error) {
    if (!(error instanceof StaleDeliveryError)) throw error;
    const client = await deps.courierFor(sending.shop, sending.environment as CourierEnvironment);
    await settleLateOrder(sending, order, client, now(deps));
    return null;
  }
}

/** The courier's create circuit is open: the delivery waits for it, nothing counted. */
async function waitForCircuit(delivery: Delivery, deps: WorkerDependencies, until: Date) {
  return wait(
    delivery,
    deps,
    Math.max(0, until.getTime() - now(deps).getTime()),
    "The courier is not answering; sending resumes by itself when it does.",
  );
}

/**
 * Processes one leased delivery until it waits for something (time, the courier, the merchant).
 * An error is the row's own (see {@link stepFailed}); this never rejects.
 */
export async function processDelivery(
  leased: Delivery,
  deps: WorkerDependencies,
  { justCreated = false }: { justCreated?: boolean } = {},
): Promise<void> {
  let delivery: Delivery | null = leased;
  // Taken already created: an earlier holder may have put the tracking on Shopify and stopped
  // before recording it. Created in this pass: no tracking write was made for it yet.
  const context: StepContext = {
    trackingMayBeOnShopify: leased.state === "created" && !justCreated,
  };
  try {
    for (let step = 0; delivery && step < 6; step += 1) {
      const before: string = delivery.state;
      delivery = await advance(delivery, deps, context);
      // Just prepared: it waits for the next pass, where the ready ones of a shop go in one batch.
      if (delivery && before === "pending" && delivery.state === "ready") {
        await releaseLease(delivery.shop, delivery.id, deps.owner, { nextAttemptAt: now(deps) });
        delivery = null;
      }
    }
  } catch (error) {
    await stepFailed(leased, deps, error).catch(() => undefined);
  }
}

interface StepContext {
  /** The tracking write may have reached Shopify before (a crash, or a call without an answer). */
  trackingMayBeOnShopify: boolean;
}

type Step = (
  delivery: Delivery,
  deps: WorkerDependencies,
  context: StepContext,
) => Promise<Delivery | null>;

async function advance(
  delivery: Delivery,
  deps: WorkerDependencies,
  context: StepContext,
): Promise<Delivery | null> {
  const steps: Partial<Record<DeliveryState, Step>> = {
    pending: prepare,
    ready: create,
    creating: interrupted,
    unknown: reconcile,
    created: pushTracking,
  };
  // A cancellation asked for comes first: after a create or a reconcile that just ended, it is
  // cancelled at the courier; what has not been sent is never sent.
  if (delivery.cancelRequestedAt) {
    await carryOutCancel(delivery, {
      ...deps,
      courierFor: () => courierOf(delivery, deps),
      leaseMs: leaseMsOf(deps),
      lateCommitWaitMs: lateCommitWaitMs(courierTimeoutOf(deps)),
    });
    return null;
  }
  const step = steps[delivery.state as DeliveryState];
  if (!step || (delivery.state === "created" && delivery.trackingPushedAt)) {
    await releaseLease(delivery.shop, delivery.id, deps.owner);
    return null;
  }
  return step(delivery, deps, context);
}

export { courierFailure, courierReply, type CourierAnswer } from "./courier-answers";

/** Who moves a delivery: a worker holding its lease, or the merchant (owner null, no lease). */
export type Actor = { owner: string | null; now?: () => Date };

const now = (deps: Actor) => deps.now?.() ?? new Date();

async function reload(delivery: Delivery): Promise<Delivery> {
  return getDeliveryRow(delivery.shop, delivery.id);
}

async function move(
  delivery: Delivery,
  deps: Actor,
  to: DeliveryState,
  event: { kind: string; message: string; data?: unknown },
  data: Parameters<typeof transition>[0]["data"] = {},
  guard: Pick<Parameters<typeof transition>[0], "soleCollectorOf"> = {},
): Promise<Delivery> {
  await transition({
    shop: delivery.shop,
    id: delivery.id,
    from: delivery.state as DeliveryState,
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

/** Waiting: the lease goes, and the row comes back when it is due (or when the merchant acts). */
async function wait(
  delivery: Delivery,
  deps: WorkerDependencies,
  inMs: number | null,
  lastError?: string,
) {
  await releaseLease(delivery.shop, delivery.id, deps.owner, {
    nextAttemptAt: inMs === null ? null : new Date(now(deps).getTime() + inMs),
    ...(lastError !== undefined ? { lastError } : {}),
  });
  return null;
}

/**
 * Waits for the merchant to change something outside the address (the order's currency, or a
 * Shopify failure that lasted too long); "Try again" on the delivery's page resumes it.
 */
async function needsAttention(
  delivery: Delivery,
  deps: Actor,
  reason: string,
  data: Parameters<typeof transition>[0]["data"] = {},
): Promise<Delivery> {
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

/** pending: load the order, place the address, build the request. */
const prepare: Step = async (delivery, deps) => {
  if (!delivery.fulfillmentId) {
    // "Send to courier" wrote the intent; Shopify's fulfillment (or its webhook) has not come.
    return stepFailed(
      delivery,
      deps,
      new Error("Waiting for the Shopify fulfillment this delivery was sent for."),
      () =>
        'Shopify\'s fulfillment for this "Send to courier" never arrived: the app may have stopped while fulfilling the order. Check the order in Shopify; if it is not fulfilled, cancel this delivery and send the order again.',
    );
  }
  const admin = await adminOf(delivery, deps);
  const fulfillment = await fetchDeliveryFulfillment(admin, delivery.fulfillmentId);
  if (!fulfillment) {
    return move(
      delivery,
      deps,
      "skipped",
      {
        kind: "skipped",
        message: "Shopify no longer has this fulfillment.",
      },
      {
        stateReason: "The fulfillment was deleted in Shopify.",
        nextAttemptAt: null,
        leaseOwner: null,
        leaseExpiresAt: null,
      },
    );
  }
  const currency = currencyProblem(fulfillment.order);
  if (currency) {
    return needsAttention(delivery, deps, currency, { orderName: fulfillment.order.name });
  }
  const environment = delivery.environment as CourierEnvironment;
  const [settings, pickup, directory, overrides] = await Promise.all([
    getShopSettings(delivery.shop),
    getPickupLocation(delivery.shop, fulfillment.locationId ?? delivery.locationId ?? ""),
    loadCourierDirectory(delivery.shop, environment),
    listAreaOverrides(delivery.shop),
  ]);
  if (!settings || !pickup || !directory) {
    const reason = !pickup
      ? "The location this order ships from has no confirmed pickup address."
      : "The courier's areas are not loaded: test the connection in Settings.";
    return move(
      delivery,
      deps,
      "needs_address",
      { kind: "waiting", message: reason },
      {
        stateReason: reason,
        orderName: fulfillment.order.name,
        nextAttemptAt: null,
        leaseOwner: null,
        leaseExpiresAt: null,
      },
    );
  }

  const address = fulfillment.order.shippingAddress;
  const match = matchAddress(
    {
      provinceCode: address?.provinceCode,
      city: address?.city,
      address1: address?.address1,
      address2: address?.address2,
      zip: address?.zip,
      countryCode: address?.countryCode,
    },
    { overrides },
  );
  const resolution = match.area ? resolveCourierIds(match.area, directory.index) : null;
  const matchRecord = {
    // What the shopper typed, for the review page; personal data, erased by customers/redact.
    input: {
      city: address?.city ?? null,
      address1: address?.address1 ?? null,
      address2: address?.address2 ?? null,
      provinceCode: address?.provinceCode ?? null,
      zip: address?.zip ?? null,
    },
    area: match.area?.nameEn ?? null,
    governorate: match.governorate?.nameEn ?? null,
    confidence: match.confidence,
    confident: match.confident,
    reasons: [...match.reasons, ...(resolution?.reasons ?? [])],
    overrideKey: match.overrideKey,
    parts: match.parts,
    courier:
      resolution?.status === "resolved"
        ? { governanceId: resolution.governanceId, areaId: resolution.areaId }
        : null,
  };
  if (!match.confident || resolution?.status !== "resolved") {
    const reason = !match.area
      ? "The area of the shipping address could not be recognised."
      : resolution?.status === "missing"
        ? `The courier has no area matching ${match.area.nameEn}.`
        : `The address looks like ${match.area.nameEn}, but not surely enough to send it.`;
    return move(
      delivery,
      deps,
      "needs_address",
      { kind: "needs_address", message: reason },
      {
        stateReason: reason,
        orderName: fulfillment.order.name,
        addressMatch: JSON.stringify(matchRecord),
        nextAttemptAt: null,
        leaseOwner: null,
        leaseExpiresAt: null,
      },
    );
  }
  return buildAndQueue(delivery, deps, {
    order: fulfillment.order,
    settings,
    pickup,
    destination: {
      governanceId: resolution.governanceId,
      areaId: resolution.areaId,
      parts: match.parts,
    },
    matchRecord,
  });
};

/** Builds the request from a placed address; shared by the worker and the address review page. */
export async function buildAndQueue(
  delivery: Delivery,
  deps: Actor,
  input: {
    order: Parameters<typeof buildDeliveryRequest>[0]["order"];
    settings: NonNullable<Awaited<ReturnType<typeof getShopSettings>>>;
    pickup: NonNullable<Awaited<ReturnType<typeof getPickupLocation>>>;
    destination: Parameters<typeof buildDeliveryRequest>[0]["destination"];
    matchRecord: unknown;
  },
): Promise<Delivery | null> {
  // The record keeps the place the request was built for, so "send again" can rebuild it.
  const record = {
    ...(input.matchRecord as object),
    courier: { governanceId: input.destination.governanceId, areaId: input.destination.areaId },
    parts: input.destination.parts,
  };
  // One delivery of an order collects its balance; the check is repeated inside the move.
  let collector = await findBalanceCollector(delivery.shop, delivery.orderId, delivery.id);
  for (;;) {
    const built = buildDeliveryRequest({
      order: input.order,
      settings: input.settings,
      pickup: input.pickup,
      destination: input.destination,
      reference: delivery.reference,
      collectsBalance: collector === null,
      requestedAt: delivery.createdAt,
      now: now(deps),
    });
    if (!built.ok && built.attention) {
      return needsAttention(delivery, deps, built.problems.join(" "), {
        orderName: input.order.name,
        addressMatch: JSON.stringify(record),
      });
    }
    if (!built.ok) {
      const reason = built.problems.join(" ");
      return move(
        delivery,
        deps,
        "needs_address",
        { kind: "needs_attention", message: reason },
        {
          stateReason: reason,
          orderName: input.order.name,
          addressMatch: JSON.stringify(record),
          nextAttemptAt: null,
          leaseOwner: null,
          leaseExpiresAt: null,
        },
      );
    }
    const payment = built.cashToCollect
      ? `cash on delivery: the driver collects ${built.cashToCollect} KWD, the order's outstanding balance`
      : built.balanceCollectedElsewhere
        ? "prepaid: another delivery of this order collects its outstanding balance"
        : "prepaid";
    try {
      return await move(
        delivery,
        deps,
        "ready",
        { kind: "ready", message: `Request built (${payment}); sending to the courier.` },
        {
          stateReason: null,
          orderName: input.order.name,
          request: JSON.stringify(built.body),
          cashToCollect: built.cashToCollect,
          addressMatch: JSON.stringify(record),
          nextAttemptAt: now(deps),
        },
        built.cashToCollect ? { soleCollectorOf: delivery.orderId } : {},
      );
    } catch (error) {
      // Another delivery of the order took the balance in the meantime: built again, prepaid.
      if (!(error instanceof BalanceCollectedElsewhereError) || collector) throw error;
      collector = await findBalanceCollector(delivery.shop, delivery.orderId, delivery.id);
      if (!collector) throw error;
    }
  }
}

/**
 * ready → creating, durably and with the lease renewed past the call (startCreating): the intent
 * of a create, written before the courier is called. Returns the rows moved, as they are now.
 */
async function markSending(
  items: { delivery: Delivery; request: string; message: string }[],
  deps: WorkerDependencies,
): Promise<Delivery[]> {
  const at = now(deps);
  const moved = await startCreating(
    items.map(({ delivery, request, message }) => ({
      shop: delivery.shop,
      id: delivery.id,
      leaseGeneration: delivery.leaseGeneration,
      request,
      message,
    })),
    deps.owner,
    at,
    new Date(at.getTime() + leaseMsOf(deps)),
  );
  const sent = items.filter((i) => moved.has(i.delivery.id));
  const rows = await Promise.all(sent.map((i) => reload(i.delivery)));
  // Moved under the generation this worker took them with, which they keep while it holds them.
  return rows.filter((row, i) => row.leaseGeneration === sent[i]!.delivery.leaseGeneration);
}

/**
 * The stored request as it goes out now: a pickup time that has passed (the delivery waited for
 * an address, a courier outage or "Send again") is moved to the preparation delay from now.
 */
function requestToSend(
  delivery: Delivery,
  settings: Awaited<ReturnType<typeof getShopSettings>>,
  deps: Actor,
): { request: string; note: string } {
  const stored = JSON.parse(delivery.request!) as CreateOrderBody;
  const body = refreshPickupDate(
    stored,
    delivery.createdAt,
    now(deps),
    settings?.preparationMinutes ?? 0,
  );
  return body === stored
    ? { request: delivery.request!, note: "" }
    : {
        request: JSON.stringify(body),
        note: ` Pickup time moved to ${body.pickupDate.replace("T", " ")} (Kuwait time): the one built earlier is no longer ahead.`,
      };
}

/**
 * ready: the intent is written (state creating, attempt counted) before the courier is called, and
 * the create leaves only while this worker still holds the row (the fence, ADR 0017).
 */
const create: Step = async (delivery, deps) => {
  const client = await courierOf(delivery, deps);
  if (!client) {
    return wait(delivery, deps, NO_COURIER_WAIT_MS, await courierUnavailableReason(delivery.shop));
  }
  if (!delivery.request) {
    // Not expected of a ready delivery: said as it is, not blamed on the key.
    return wait(delivery, deps, NO_COURIER_WAIT_MS, "The request to send was missing.");
  }
  const closedUntil = await circuitClosedAt(accountOf(delivery), "create", now(deps));
  if (closedUntil) return waitForCircuit(delivery, deps, closedUntil);
  const outgoing = requestToSend(delivery, await getShopSettings(delivery.shop), deps);
  // The send window starts before the move to creating is written: time lost writing it counts.
  const sendBy = performance.now() + sendWindowMs(leaseMsOf(deps));
  const [sending] = await markSending(
    [
      {
        delivery,
        request: outgoing.request,
        message: `Sending to the courier (attempt ${delivery.attempts + 1}).${outgoing.note}`,
      },
    ],
    deps,
  );
  if (!sending) {
    // Not moved: a cancellation was asked for meanwhile (carried out next), or the row is gone.
    const now = await reload(delivery);
    if (now.cancelRequestedAt && now.leaseOwner === deps.owner) return now;
    throw new StaleDeliveryError(delivery.id, "ready");
  }
  const body = JSON.parse(outgoing.request) as CreateOrderBody;
  const fence = { sendBy, rows: [sending] };
  try {
    const result = await sendFenced(fence, deps, (_rows, by) =>
      client.createOrder(body, { sendBy: by }),
    );
    return recordCreated(
      sending,
      deps,
      { orderId: result.orderId, orderNumber: result.orderNumber, status: result.status },
      `Created at the courier as order ${result.orderNumber}.`,
      courierReply({
        orderId: result.orderId,
        orderNumber: result.orderNumber,
        status: result.status,
        createdAt: result.createdAt,
      }),
    );
  } catch (error) {
    if (!isCourierError(error)) throw error;
    if (error.outcome === "unknown") {
      return unknownOutcome(sending, deps, error.message, courierFailure(error));
    }
    if (error instanceof CourierValidationError) {
      return move(
        sending,
        deps,
        "rejected",
        { kind: "rejected", message: error.message, data: courierFailure(error) },
        {
          stateReason: error.message,
          lastError: error.message,
          unknownSince: null,
          nextAttemptAt: null,
          leaseOwner: null,
          leaseExpiresAt: null,
        },
      );
    }
    // Not sent, refused for the key, or rate limited: nothing exists at the courier; try later.
    const back = await move(
      sending,
      deps,
      "ready",
      { kind: "retry", message: error.message, data: courierFailure(error) },
      {
        lastError: error.message,
        unknownSince: null,
      },
    );
    if (error instanceof CourierCircuitOpenError) return waitForCircuit(back, deps, error.retryAt);
    const retryIn =
      error instanceof CourierAuthError
        ? 15 * 60_000
        : error instanceof CourierUnavailableError && error.retryAfterMs
          ? error.retryAfterMs
          : backoffMs(sending.attempts);
    return wait(back, deps, retryIn);
  }
};

async function unknownOutcome(
  delivery: Delivery,
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
    { lastError: message },
  );
  return wait(moved, deps, deps.reconcileDelayMs ?? DEFAULTS.reconcileDelayMs);
}

/** creating with a lapsed lease: the process stopped mid-call; the outcome is unknown. */
const interrupted: Step = async (delivery, deps) =>
  unknownOutcome(delivery, deps, "The app stopped while the courier was being called.");

/**
 * unknown: the courier's history decides before anything is sent again (ADR 0018). Found, it is
 * created. Not found, it is believed only at a second look, late enough for a courier that records
 * orders after answering; then it is sent again, after a wait that grows with each send. A courier
 * that does not answer is waited for, however long (ADR 0019); only a history that answers without
 * being able to tell, ten times in a row, hands the delivery to the merchant.
 */
const reconcile: Step = async (delivery, deps) => {
  const client = await courierOf(delivery, deps);
  if (!client)
    return wait(delivery, deps, NO_COURIER_WAIT_MS, await courierUnavailableReason(delivery.shop));
  await renew(delivery, deps);
  let answer: HistoryAnswer;
  try {
    answer = await searchHistory(client, delivery.reference, delivery.createdAt);
  } catch (error) {
    if (!isCourierError(error)) throw error;
    if (error instanceof CourierCircuitOpenError || isNotAnswering(error))
      return courierNotAnswering(delivery, deps, error);
    answer = { outcome: "undetermined", reason: error.message, pages: 0 };
  }
  const at = now(deps);
  if (answer.outcome === "found") {
    const found = answer.order;
    return move(
      delivery,
      deps,
      "created",
      {
        kind: "reconciled",
        message: `Found at the courier as order ${found.orderNumber ?? found.orderId}: it had been created.`,
        data: courierReply({
          searched: delivery.reference,
          found: { orderId: found.orderId, orderNumber: found.orderNumber, status: found.status },
        }),
      },
      {
        courierOrderId: found.orderId,
        courierOrderNumber: found.orderNumber ?? found.orderId,
        courierStatus: found.status ?? null,
        unknownSince: null,
        notInHistorySince: null,
        lastError: null,
        nextAttemptAt: at,
      },
    );
  }
  if (answer.outcome === "absent") {
    const sentAt = delivery.unknownSince ?? delivery.updatedAt;
    const believedAt = notCreatedBelievedAt({
      sentAt,
      firstMissAt: delivery.notInHistorySince,
      now: at,
      lateCommitWaitMs: lateCommitWaitMs(courierTimeoutOf(deps)),
    });
    if (believedAt) {
      // Looked for again later: a courier may record an order some time after answering.
      await transition({
        shop: delivery.shop,
        id: delivery.id,
        from: "unknown",
        to: "unknown",
        leaseOwner: deps.owner,
        leaseGeneration: delivery.leaseGeneration,
        at,
        data: {
          notInHistorySince: delivery.notInHistorySince ?? at,
          nextAttemptAt: believedAt,
          leaseOwner: null,
          leaseExpiresAt: null,
        },
        event: {
          kind: "not_in_history",
          message: `Not in the courier's history yet; looked for again in ${inWords(believedAt.getTime() - at.getTime())} before anything is sent again, as a courier may record an order after answering.`,
          data: courierReply({ searched: delivery.reference, found: null, pages: answer.pages }),
        },
      });
      return null;
    }
    const waited = Math.round((at.getTime() - sentAt.getTime()) / 1000);
    await move(
      delivery,
      deps,
      "ready",
      {
        kind: "not_in_history",
        message: `Not in the courier's history at two looks, the last ${waited} s after it was sent: it was not created, so it is sent again.`,
        data: courierReply({ searched: delivery.reference, found: null, pages: answer.pages }),
      },
      {
        unknownSince: null,
        notInHistorySince: null,
        // Each send that ended without an answer waits longer before the next (ADR 0019), and
        // goes with the shop's other ready deliveries in one batch.
        nextAttemptAt: new Date(at.getTime() + stepBackoffMs(delivery.attempts)),
        leaseOwner: null,
        leaseExpiresAt: null,
      },
    );
    return null;
  }
  const failures = delivery.failures + 1;
  if (failures >= MAX_STEP_FAILURES) {
    return move(
      delivery,
      deps,
      "needs_review",
      {
        kind: "needs_review",
        message: `The courier's history could not tell whether the order exists after ${failures} tries (${answer.reason}). Check with the courier, then send again or mark it created.`,
        data: courierReply({ searched: delivery.reference, undetermined: answer.reason }),
      },
      {
        failures,
        stateReason: `Unknown whether the courier created it (reference ${delivery.reference}): its history could not tell. "Send again" looks in the courier's history first and sends only if the order is not there; if you found it at the courier, enter its number under "Mark created".`,
        lastError: answer.reason.slice(0, 500),
        nextAttemptAt: null,
        leaseOwner: null,
        leaseExpiresAt: null,
      },
    );
  }
  await releaseLease(delivery.shop, delivery.id, deps.owner, {
    failures,
    lastError:
      `The courier's history could not tell whether the order exists: ${answer.reason}`.slice(
        0,
        500,
      ),
    nextAttemptAt: new Date(at.getTime() + stepBackoffMs(failures)),
  });
  return null;
};

/** A wait as the timeline says it: "40 s", "2 minutes". */
function inWords(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} minutes`;
}

/**
 * The courier did not answer (or its circuit is open): the delivery waits, for the circuit or for
 * as long as it has waited so far (courierDownWaitMs), without counting a failure, and says why.
 */
async function courierNotAnswering(
  delivery: Delivery,
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
  );
}

/** How soon after creation the tracking sync first asks the courier. */
export const FIRST_TRACKING_LOOK_MS = 60_000;

/** created: the courier's order number and tracking URL go on the Shopify fulfillment. */
const pushTracking: Step = async (delivery, deps, context) => {
  if (!delivery.fulfillmentId || !delivery.courierOrderNumber) {
    // Nothing to put on Shopify (never expected of a created delivery): said, not looped on.
    return needsAttention(
      delivery,
      deps,
      "Created at the courier, but without a Shopify fulfillment or a courier order number to link.",
    );
  }
  const settings = await getShopSettings(delivery.shop);
  const url = deps.trackingUrl(delivery);
  const admin = await adminOf(delivery, deps);
  const tracking = {
    fulfillmentId: delivery.fulfillmentId,
    number: delivery.courierOrderNumber,
    url,
  };
  let already = false;
  try {
    // What Shopify already has decides, not the row: the write may have landed before a crash.
    already = context.trackingMayBeOnShopify && (await fulfillmentHasTracking(admin, tracking));
    if (!already) {
      await updateFulfillmentTracking(admin, {
        ...tracking,
        company: deps.courierDisplayName,
        notifyCustomer: settings?.notifyCustomer ?? true,
      });
    }
  } catch (error) {
    return stepFailed(
      delivery,
      deps,
      error,
      (message) =>
        `The courier created order ${delivery.courierOrderNumber}, but Shopify did not take its tracking number after ${MAX_STEP_FAILURES} tries: ${message} Add it to the fulfillment by hand, or press Try again.`,
    );
  }
  await transition({
    shop: delivery.shop,
    id: delivery.id,
    from: "created",
    to: "created",
    leaseOwner: deps.owner,
    data: {
      trackingPushedAt: now(deps),
      trackingUrl: url,
      failures: 0,
      // The tracking sync takes over from here (sync.server.ts); a first look soon.
      syncAt: new Date(now(deps).getTime() + FIRST_TRACKING_LOOK_MS),
      leaseOwner: null,
      leaseExpiresAt: null,
      nextAttemptAt: null,
    },
    event: {
      kind: "tracking",
      message: already
        ? `Tracking number ${delivery.courierOrderNumber} was already on the Shopify fulfillment (added before the app stopped); not written again.`
        : `Tracking number ${delivery.courierOrderNumber} added to the Shopify fulfillment.`,
    },
    at: now(deps),
  });
  return null;
};
