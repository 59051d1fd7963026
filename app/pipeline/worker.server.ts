import { claimDueDeliveries, releaseLease, type DeliveryRow } from "../models/deliveries.server";
import { lateCommitWaitMs } from "../domain/courier-timing";
import { BULK_BATCH } from "../domain/lease-policy";
import { type DeliveryState } from "../domain/states";
import { bodyToSend } from "../domain/stored-request";
import { carryOutCancel } from "./steps/cancel.server";
import { createBulk, type ReadyToSend } from "./steps/create-bulk.server";
import { create } from "./steps/create.server";
import { prepare } from "./steps/prepare.server";
import { pushTracking } from "./steps/push-tracking.server";
import { interrupted, reconcile } from "./steps/reconcile.server";
import {
  adminOf,
  courierOf,
  courierTimeoutOf,
  leaseMsOf,
  now,
  stepFailed,
  type Step,
  type WorkerDependencies,
} from "./steps/shared.server";

export type { WorkerDependencies } from "./steps/shared.server";

/**
 * The delivery worker: leases due rows and moves each one step or more along
 * pending → ready → creating → created → tracking on Shopify, one step per file under steps/.
 * Every call that may have reached the courier is recorded before it is made, so a crash leaves a
 * row that says what to check.
 */

/** One pass: lease up to `limit` due deliveries and process them. Returns how many it handled. */
export async function runDueDeliveries(deps: WorkerDependencies, limit = 10): Promise<number> {
  const now = deps.now?.() ?? new Date();
  const leased = await claimDueDeliveries(deps.owner, limit, leaseMsOf(deps), now);
  // Several ready deliveries of one shop go to the courier in one create-bulk call.
  // A request that cannot be sent goes alone: the create step says why to the merchant.
  const batches = new Map<string, ReadyToSend[]>();
  const single: DeliveryRow[] = [];
  for (const delivery of leased) {
    const request = delivery.request && bodyToSend(delivery.request);
    if (delivery.state !== "ready" || !request?.ok) {
      single.push(delivery);
      continue;
    }
    const key = `${delivery.shop}|${delivery.environment}`;
    batches.set(key, [...(batches.get(key) ?? []), { delivery, body: request.body }]);
  }
  const work: Promise<void>[] = single.map((delivery) => processDelivery(delivery, deps));
  for (const batch of batches.values()) {
    if (batch.length === 1) work.push(processDelivery(batch[0]!.delivery, deps));
    else
      for (let i = 0; i < batch.length; i += BULK_BATCH) {
        const part = batch.slice(i, i + BULK_BATCH);
        work.push(
          createBulk(part, deps, processDelivery).catch(async (error: unknown) => {
            for (const { delivery } of part) await stepFailed(delivery, deps, error);
          }),
        );
      }
  }
  // Each row's failure is its own: recorded on the row, never the end of the others' pass.
  await Promise.allSettled(work);
  return leased.length;
}

/**
 * Processes one leased delivery until it waits for something (time, the courier, the merchant).
 * An error is the row's own (see {@link stepFailed}); this never rejects.
 */
export async function processDelivery(
  leased: DeliveryRow,
  deps: WorkerDependencies,
): Promise<void> {
  let delivery: DeliveryRow | null = leased;
  try {
    for (let step = 0; delivery && step < 6; step += 1) {
      const before: string = delivery.state;
      delivery = await advance(delivery, deps);
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

async function advance(
  delivery: DeliveryRow,
  deps: WorkerDependencies,
): Promise<DeliveryRow | null> {
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
      adminFor: () => adminOf(delivery, deps),
      leaseMs: leaseMsOf(deps),
      lateCommitWaitMs: lateCommitWaitMs(courierTimeoutOf(deps)),
    });
    return null;
  }
  const step = steps[delivery.state];
  if (!step || (delivery.state === "created" && delivery.trackingPushedAt)) {
    await releaseLease(delivery.shop, delivery.id, deps.owner);
    return null;
  }
  return step(delivery, deps);
}
