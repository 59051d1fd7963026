import { env } from "../env.server";
import { productionDependencies } from "./runner.server";
import { runTrackingSync, type SyncDependencies, type SyncLimits } from "./sync.server";

/**
 * The tracking sync inside the web process, beside the delivery worker (ADR 0003): a pass every
 * few seconds that looks at the deliveries due, and keeps going while passes find some. Turned off
 * with the worker (DELIVERY_WORKER=off).
 */
interface RunningSync {
  timer: NodeJS.Timeout;
  running: boolean;
  deps: SyncDependencies;
  limits: SyncLimits;
}

declare global {
  var __trackingSync: RunningSync | undefined;
}

async function pass(sync: RunningSync) {
  if (sync.running) return;
  sync.running = true;
  try {
    while ((await runTrackingSync(sync.deps, sync.limits)) > 0);
  } catch (error) {
    console.error(
      "Tracking sync pass failed:",
      error instanceof Error ? error.message : "unknown error",
    );
  } finally {
    sync.running = false;
  }
}

export function startTrackingSync(intervalMs = 5_000, limits: SyncLimits = {}): void {
  if (globalThis.__trackingSync || env().DELIVERY_WORKER === "off") return;
  const { owner, courierFor, adminFor } = productionDependencies();
  const sync: RunningSync = {
    timer: setInterval(() => void pass(sync), intervalMs),
    running: false,
    deps: { owner: `${owner}:sync`, courierFor, adminFor },
    limits,
  };
  sync.timer.unref();
  globalThis.__trackingSync = sync;
}

/** A pass right away (a push asked for a look sooner). */
export function kickTrackingSync(): void {
  const sync = globalThis.__trackingSync;
  if (sync) setImmediate(() => void pass(sync));
}

export function stopTrackingSync(): void {
  const sync = globalThis.__trackingSync;
  if (sync) clearInterval(sync.timer);
  globalThis.__trackingSync = undefined;
}
