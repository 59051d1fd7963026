import os from "node:os";
import { env } from "../env.server";
import { readCourierApiKey } from "../models/courier-account.server";
import { courierClientFor } from "../services/courier-connection.server";
import { unauthenticated } from "../shopify.server";
import { runDueDeliveries, type WorkerDependencies } from "./worker.server";

/**
 * The delivery worker inside the web process (the default, ADR 0003): a pass every few seconds,
 * and one right away when a webhook records new work.
 */
export function productionDependencies(): WorkerDependencies {
  const config = env();
  return {
    owner: `${os.hostname()}:${process.pid}`,
    courierFor: async (shop, environment) => {
      const apiKey = await readCourierApiKey(shop);
      return apiKey ? courierClientFor(environment, apiKey) : null;
    },
    adminFor: async (shop) => (await unauthenticated.admin(shop)).admin,
    trackingUrl: (delivery) => `${config.SHOPIFY_APP_URL}/tracking/${delivery.id}`,
    courierDisplayName: config.COURIER_DISPLAY_NAME,
  };
}

interface RunningWorker {
  timer: NodeJS.Timeout;
  running: boolean;
  again: boolean;
  deps: WorkerDependencies;
}

declare global {
  var __deliveryWorker: RunningWorker | undefined;
}

async function pass(worker: RunningWorker) {
  if (worker.running) {
    worker.again = true;
    return;
  }
  worker.running = true;
  try {
    do {
      worker.again = false;
      // Keep going while passes find work, so a burst drains without waiting for the timer.
      while ((await runDueDeliveries(worker.deps, 10)) > 0) worker.again = false;
    } while (worker.again);
  } catch (error) {
    console.error(
      "Delivery worker pass failed:",
      error instanceof Error ? error.message : "unknown error",
    );
  } finally {
    worker.running = false;
  }
}

export function startDeliveryWorker(intervalMs = 3_000): void {
  if (globalThis.__deliveryWorker || env().DELIVERY_WORKER === "off") return;
  const worker: RunningWorker = {
    timer: setInterval(() => void pass(worker), intervalMs),
    running: false,
    again: false,
    deps: productionDependencies(),
  };
  worker.timer.unref();
  globalThis.__deliveryWorker = worker;
}

export function kickDeliveryWorker(): void {
  const worker = globalThis.__deliveryWorker;
  if (worker) setImmediate(() => void pass(worker));
}

export function stopDeliveryWorker(): void {
  const worker = globalThis.__deliveryWorker;
  if (worker) clearInterval(worker.timer);
  globalThis.__deliveryWorker = undefined;
}
