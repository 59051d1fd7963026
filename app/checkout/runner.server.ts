import { env } from "../env.server";
import { isLooping, startLoop, stopLoop } from "../pipeline/drain-loop.server";
import { shopCourierClient } from "../services/courier-connection.server";
import { shopifyAdminFor } from "../services/shopify-admin.server";
import { refreshAllPrices } from "./price-refresh.server";
import { runDueCarrierServiceChecks } from "./service-check.server";

/** How often a process looks for shops whose carrier service check is due (each every 6 h). */
const LOOK_EVERY_MS = 10 * 60_000;

/**
 * The checkout rates' background loop on the worker's drain loop, beside the delivery worker and
 * turned off with it (DELIVERY_WORKER): every few seconds a pass of the price table's refresh
 * (ADR 0062), and at most every 10 minutes, before it, a look for carrier services whose check is
 * due (ADR 0063). A pass never asks for another at once (it returns 0): the courier's price
 * endpoint is asked at the loop's pace.
 */
export function startCheckoutRatesLoop(intervalMs = 5_000): void {
  if (isLooping("checkout rates") || env().DELIVERY_WORKER === "off") return;
  let nextLookAt = Date.now();
  startLoop(
    "checkout rates",
    () => refreshAllPrices({ courierFor: shopCourierClient }),
    intervalMs,
    {
      beforeDrain: async (stopping) => {
        if (stopping() || Date.now() < nextLookAt) return;
        nextLookAt = Date.now() + LOOK_EVERY_MS;
        await runDueCarrierServiceChecks({ adminFor: shopifyAdminFor }).catch((error: unknown) =>
          console.warn("Checkout rates: the carrier service checks failed:", error),
        );
      },
    },
  );
}

export const stopCheckoutRatesLoop = () => stopLoop("checkout rates");
