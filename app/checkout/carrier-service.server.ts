import type { CarrierServiceProblem } from "../models/checkout-rates.server";
import type { AdminGraphql } from "../shopify/graphql";

/**
 * The shop's carrier service in Shopify (issue 28): turned on from Settings (carrierServiceCreate
 * with the callback URL), off again (deleted), and checked now and then, since Shopify switches it
 * off when the shop leaves a plan that allows it. Each outcome is saved on the shop's
 * CheckoutRateSettings row (saveCarrierServiceState) so Settings and Home can say it in words.
 *
 * STUB: signatures agreed; implemented by the carrier-service work (see its ADR).
 */

export type CarrierServiceOutcome =
  { ok: true } | { ok: false; problem: CarrierServiceProblem; detail: string | null };

/** Where Shopify calls for rates: `<app>/checkout/rates/<token>`. */
export function checkoutRatesCallbackUrl(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, "")}/checkout/rates/${token}`;
}

/** Creates (or re-uses and re-activates) the shop's carrier service; saves the outcome. */
export async function turnOnCheckoutRates(
  _shop: string,
  _admin: AdminGraphql,
  _appUrl: string,
): Promise<CarrierServiceOutcome> {
  throw new Error("not implemented yet");
}

/** Removes the shop's carrier service from Shopify; saves enabled = false. */
export async function turnOffCheckoutRates(
  _shop: string,
  _admin: AdminGraphql,
): Promise<CarrierServiceOutcome> {
  throw new Error("not implemented yet");
}

/** Reads the service from Shopify; notices when Shopify turned it off (problem "deactivated"). */
export async function checkCarrierService(
  _shop: string,
  _admin: AdminGraphql,
  _now: Date = new Date(),
): Promise<CarrierServiceOutcome> {
  throw new Error("not implemented yet");
}
