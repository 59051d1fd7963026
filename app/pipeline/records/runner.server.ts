import { productionDependencies } from "../runner.server";
import { env } from "../../env.server";
import { readDueCourierExceptions } from "./courier-exceptions.server";
import { sendDueFlowEvents } from "./flow-outbox.server";

/**
 * Beside the delivery worker and the tracking sync, and turned off with them (DELIVERY_WORKER):
 * a pass every few seconds sends the Flow triggers owed and reads the courier's exceptions of the
 * shops due (each shop every 15 minutes).
 */
interface RunningRecords {
  timer: NodeJS.Timeout;
  current: Promise<void> | null;
  stopping: boolean;
}

declare global {
  var __courierRecords: RunningRecords | undefined;
}

async function pass(runner: RunningRecords) {
  if (runner.current || runner.stopping) return;
  const { courierFor, adminFor } = productionDependencies();
  runner.current = (async () => {
    try {
      await sendDueFlowEvents({ adminFor });
      await readDueCourierExceptions({ courierFor });
    } catch (error) {
      console.error(
        "Flow triggers and courier exceptions pass failed:",
        error instanceof Error ? error.message : "unknown error",
      );
    } finally {
      runner.current = null;
    }
  })();
  await runner.current;
}

export function startCourierRecords(intervalMs = 5_000): void {
  if (globalThis.__courierRecords || env().DELIVERY_WORKER === "off") return;
  const runner: RunningRecords = {
    timer: setInterval(() => void pass(runner), intervalMs),
    current: null,
    stopping: false,
  };
  runner.timer.unref();
  globalThis.__courierRecords = runner;
}

export async function stopCourierRecords(): Promise<void> {
  const runner = globalThis.__courierRecords;
  globalThis.__courierRecords = undefined;
  if (!runner) return;
  clearInterval(runner.timer);
  runner.stopping = true;
  await runner.current;
}
