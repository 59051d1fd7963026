import { env } from "../../env.server";
import { isLooping, startLoop, stopLoop } from "../drain-loop.server";
import { productionDependencies } from "../runner.server";
import type { SyncLimits } from "./context.server";
import { runTrackingSync } from "./sync.server";

/**
 * The tracking sync inside the web process, beside the delivery worker (ADR 0003), run by the
 * same drain loop (../drain-loop.server.ts): a pass every few seconds over the deliveries due, and
 * more while passes find some. Turned off with the worker (DELIVERY_WORKER=off).
 */
export function startTrackingSync(intervalMs = 5_000, limits: SyncLimits = {}): void {
  if (isLooping("tracking sync") || env().DELIVERY_WORKER === "off") return;
  const { owner, courierFor, adminFor, leaseMs } = productionDependencies();
  // The worker's lease: long enough for the slowest courier call (COURIER_TIMEOUT_MS).
  const deps = { owner: `${owner}:sync`, courierFor, adminFor, leaseMs };
  startLoop("tracking sync", () => runTrackingSync(deps, limits), intervalMs);
}

/** Stops the sync; settles when the pass under way has finished the rows it leased. */
export const stopTrackingSync = () => stopLoop("tracking sync");
