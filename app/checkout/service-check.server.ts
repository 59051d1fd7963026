import { findCheckoutRateSettings, shopsWithRatesOn } from "../models/checkout-rates.server";
import type { AdminGraphql } from "../shopify/graphql";
import { checkCarrierService } from "./carrier-service.server";

/** Each shop's carrier service is read at most this often (Shopify says nothing of a downgrade). */
export const SERVICE_CHECK_EVERY_MS = 6 * 60 * 60_000;

export interface ServiceCheckDependencies {
  adminFor: (shop: string) => Promise<AdminGraphql>;
  now?: () => Date;
}

/**
 * Checks the carrier service of every shop with checkout rates on whose last check is older than
 * six hours. One shop's failure (token lost, Shopify down) is logged and never stops the others;
 * its check was not recorded, so it is tried again at the next look. Returns the shops checked.
 */
export async function runDueCarrierServiceChecks(deps: ServiceCheckDependencies): Promise<number> {
  let checked = 0;
  for (const shop of await shopsWithRatesOn()) {
    const now = deps.now?.() ?? new Date();
    const settings = await findCheckoutRateSettings(shop);
    const last = settings?.serviceCheckedAt?.getTime() ?? 0;
    if (now.getTime() - last < SERVICE_CHECK_EVERY_MS) continue;
    try {
      await checkCarrierService(shop, await deps.adminFor(shop), now);
      checked += 1;
    } catch (error) {
      console.warn(
        `Checkout rates: the carrier service check of ${shop} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return checked;
}
