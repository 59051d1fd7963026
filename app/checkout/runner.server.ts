import { env } from "../env.server";
import { isLooping, startLoop, stopLoop } from "../pipeline/drain-loop.server";
import { shopifyAdminFor } from "../services/shopify-admin.server";
import { runDueCarrierServiceChecks } from "./service-check.server";

/** How often a process looks for shops whose carrier service check is due (each every 6 h). */
const LOOK_EVERY_MS = 10 * 60_000;

/**
 * The checkout rates' background loop on the worker's drain loop, beside the delivery worker and
 * turned off with it (DELIVERY_WORKER): the carrier service check (ADR 0063). A pass never asks
 * for another at once (it returns 0), so it runs once a look.
 */
export function startCheckoutRatesLoop(intervalMs = LOOK_EVERY_MS): void {
  if (isLooping("checkout rates") || env().DELIVERY_WORKER === "off") return;
  startLoop(
    "checkout rates",
    async () => {
      await runDueCarrierServiceChecks({ adminFor: shopifyAdminFor }).catch((error: unknown) =>
        console.warn("Checkout rates: the carrier service checks failed:", error),
      );
      return 0;
    },
    intervalMs,
  );
}

export const stopCheckoutRatesLoop = () => stopLoop("checkout rates");
