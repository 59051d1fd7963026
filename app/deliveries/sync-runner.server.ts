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
  stopping: boolean;
  current: Promise<void> | null;
  deps: SyncDependencies;
  limits: SyncLimits;
}

declare global {
  var __trackingSync: RunningSync | undefined;
}

function pass(sync: RunningSync): Promise<void> {
  if (sync.running || sync.stopping) return sync.current ?? Promise.resolve();
  sync.current = drain(sync);
  return sync.current;
}

async function drain(sync: RunningSync) {
  sync.running = true;
  try {
    // A turn of the event loop between passes, as the delivery worker's drain does, so HTTP
    // requests are served while a backlog drains.
    while (!sync.stopping && (await runTrackingSync(sync.deps, sync.limits)) > 0)
      await new Promise((resolve) => setImmediate(resolve));
  } catch (error) {
    console.error(
      "Tracking sync pass failed:",
      error instanceof Error ? error.message : "unknown error",
    );
  } finally {
    sync.running = false;
    sync.current = null;
  }
}

export function startTrackingSync(intervalMs = 5_000, limits: SyncLimits = {}): void {
  if (globalThis.__trackingSync || env().DELIVERY_WORKER === "off") return;
  const { owner, courierFor, adminFor, leaseMs } = productionDependencies();
  const sync: RunningSync = {
    timer: setInterval(() => void pass(sync), intervalMs),
    running: false,
    stopping: false,
    current: null,
    // The worker's lease: long enough for the slowest courier call (COURIER_TIMEOUT_MS).
    deps: { owner: `${owner}:sync`, courierFor, adminFor, leaseMs },
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

/** Stops the sync; settles when the pass under way has finished the rows it leased. */
export async function stopTrackingSync(): Promise<void> {
  const sync = globalThis.__trackingSync;
  globalThis.__trackingSync = undefined;
  if (!sync) return;
  clearInterval(sync.timer);
  sync.stopping = true;
  await sync.current;
}
