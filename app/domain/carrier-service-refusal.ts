/**
 * Why Shopify would not let the shop's carrier service serve rates, from Shopify's own words
 * (ADR 0063). Shopify refuses carrierServiceCreate with a single CARRIER_SERVICE_CREATE_FAILED
 * code whatever the reason, so the message decides: carrier-calculated shipping not on the plan,
 * or a token without `write_shipping` (an install from before the scope was asked for).
 */
export type CarrierServiceRefusal = "plan_not_eligible" | "scope_missing" | "refused";

const SCOPE_WORDS = /access denied|write_shipping|read_shipping|access scope|ACCESS_DENIED/i;
const PLAN_WORDS =
  /carrier[- ]calculated|calculated shipping|not eligible|ineligible|shopify plan|\bplan\b|upgrade|add-on|feature (is )?not (available|enabled)/i;

export function carrierServiceRefusal(message: string): CarrierServiceRefusal {
  if (SCOPE_WORDS.test(message)) return "scope_missing";
  if (PLAN_WORDS.test(message)) return "plan_not_eligible";
  return "refused";
}
