import { randomBytes } from "node:crypto";
import os from "node:os";
import { env } from "../env.server";
import { closeCircuits } from "../models/courier-circuits.server";
import { resumeWaitingDeliveries } from "../models/deliveries.server";
import { shopCourierClient } from "../services/courier-connection.server";
import { runDueFulfillmentChecks } from "./fulfillment-check.server";
import { shopifyAdminFor } from "../services/shopify-admin.server";
import { trackingLink } from "../domain/tracking-link";
import { assertLeaseOutlastsCourierCalls, leaseMsFor } from "../domain/lease-policy";
import { isLooping, kickDeliveryWorker, startLoop, stopLoop } from "./drain-loop.server";
import { runDueDeliveries, type WorkerDependencies } from "./worker.server";

/**
 * The delivery worker inside the web process (the default, ADR 0003), run by the drain loop
 * (drain-loop.server.ts): a pass every few seconds, and one right away when a webhook records new
 * work. On PostgreSQL the same loop also runs in
 * worker processes of its own (`npm run worker`, scripts/worker.ts, ADR 0009).
 */
export function productionDependencies(): WorkerDependencies & {
  leaseMs: number;
  courierTimeoutMs: number;
} {
  const config = env();
  return {
    owner: workerOwner(),
    // No key, or one that no longer decrypts (Settings then says so): no courier for now.
    courierFor: shopCourierClient,
    // Renews the shop's expiring token once across processes when it is due (ADR 0015).
    adminFor: shopifyAdminFor,
    trackingUrl: (delivery) => trackingLink(config.SHOPIFY_APP_URL, delivery),
    courierDisplayName: config.COURIER_DISPLAY_NAME,
    courierTimeoutMs: config.COURIER_TIMEOUT_MS,
    leaseMs: leaseMsFor(config.COURIER_TIMEOUT_MS),
  };
}

/**
 * Who holds a lease: this process, as started. Host name and pid alone can repeat (two containers
 * are often both pid 1 on hosts of the same name, and pids are reused), and two holders sharing a
 * name would each take the other's leases for their own: a random part makes every start unique.
 */
export function workerOwner(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(6).toString("hex")}`;
}

/**
 * Deliveries leased per pass. Each pass handles its leases concurrently (one create-bulk call per
 * shop for the ready ones), so with a slow courier more per pass means more per second
 * (bench:pipeline: 23/s at 10, 33/s at 25, 44/s at 100 with 200 ms replies); 25 keeps a burst's
 * Admin API calls for one shop well inside Shopify's query cost bucket.
 */
export const LEASES_PER_PASS = 25;

/**
 * Deliveries leased per pass by the worker inside the web process (ADR 0042). It shares the event
 * loop with webhook intake and the pages, and a pass runs its leases' synchronous work (Prisma's
 * query compiler, SQLite, the address match) between turns of the loop: at 25 a webhook waited
 * behind it (bench:faults "busy intake", p99 133-204 ms at 100/s), at 5 it does not (39 ms), and
 * the busy run created as many deliveries. Worker processes (`npm run worker`) keep 25.
 */
export const WEB_PROCESS_LEASES_PER_PASS = 5;

export interface DeliveryWorkerOptions {
  /** A pass every this many milliseconds (and one at once when new work is recorded). */
  intervalMs?: number;
  leasesPerPass?: number;
}

/** How often a worker looks for shops whose fulfillment check is due (each is due every 15 min). */
const CHECK_LOOK_EVERY_MS = 60_000;

/**
 * The check for fulfillments whose webhook never came (ADR 0013), from the same loop, before the
 * passes of each drain: at most once a minute this process looks for shops whose check is due. A
 * failure is kept on the check's row (and it runs again later); it never stops the delivery passes.
 */
function fulfillmentChecksWhenDue(deps: WorkerDependencies) {
  // The first look a minute after start: a process that just started has deliveries to send.
  let nextCheckLookAt = Date.now() + CHECK_LOOK_EVERY_MS;
  return async (stopping: () => boolean): Promise<void> => {
    const at = deps.now?.() ?? new Date();
    if (stopping() || at.getTime() < nextCheckLookAt) return;
    nextCheckLookAt = at.getTime() + CHECK_LOOK_EVERY_MS;
    // What it records is pending and due now: the pass that follows in this drain sends it.
    await runDueFulfillmentChecks(deps).catch(() => undefined);
  };
}

export function startDeliveryWorker({
  intervalMs = 3_000,
  leasesPerPass = LEASES_PER_PASS,
}: DeliveryWorkerOptions = {}): void {
  if (isLooping("delivery worker") || env().DELIVERY_WORKER === "off") return;
  const deps = productionDependencies();
  // A lease a courier call could outlive would let two workers send one delivery: refuse to start.
  assertLeaseOutlastsCourierCalls(deps.leaseMs, deps.courierTimeoutMs);
  startLoop("delivery worker", () => runDueDeliveries(deps, leasesPerPass), intervalMs, {
    beforeDrain: fulfillmentChecksWhenDue(deps),
  });
}

/**
 * A working courier key was just saved: the shop's deliveries that were waiting (for a key, or
 * after the courier failed) are due now rather than at the end of their wait.
 */
export async function resumeDeliveriesAfterConnection(shop: string, at = new Date()) {
  // The courier has just answered with that key: calls may go out again at once.
  await closeCircuits(shop);
  const resumed = await resumeWaitingDeliveries(shop, at);
  if (resumed > 0) kickDeliveryWorker();
  return resumed;
}

/**
 * Stops the worker: no new pass starts, the one under way finishes the batch it leased (rows are
 * never left half-sent by a stop), and the promise settles when it has.
 */
export const stopDeliveryWorker = () => stopLoop("delivery worker");
