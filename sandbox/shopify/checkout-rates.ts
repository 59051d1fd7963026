import { signWebhookBody } from "./webhooks";
import { minorDigits, toMinor } from "./money";
import type { ShopifyStandInStore } from "./store";

// Checkout asking the app's carrier service for rates, as shopify.dev documents it for
// DeliveryCarrierService: a POST of `{ rate: { origin, destination, items, currency, locale,
// order_totals } }` (prices in subunits) to the callback URL, signed like a webhook, one try, at
// most 10 s; then what checkout shows the buyer.

/** Shopify's read timeout at under 1,500 requests a minute (5 s and 3 s above). */
export const CHECKOUT_RATES_TIMEOUT_MS = 10_000;

export interface CheckoutRatesInput {
  destination: {
    country?: string;
    province?: string | null;
    city?: string | null;
    address1?: string | null;
    address2?: string | null;
    zip?: string | null;
    name?: string | null;
    phone?: string | null;
  };
  /** `price` per unit: a number in subunits (fils), or a decimal string ("12.500") in `currency`. */
  items: {
    grams: number;
    price: number | string;
    quantity: number;
    name?: string;
    sku?: string;
    requiresShipping?: boolean;
  }[];
  /** Default the shop's currency. */
  currency?: string;
  /** The checkout's language (default "en"). */
  locale?: string;
  /** Shorter than Shopify's 10 s, for tests; never longer. */
  timeoutMs?: number;
}

export interface CheckoutRate {
  service_name: string;
  service_code: string;
  total_price: string;
  description: string;
  currency: string;
  min_delivery_date?: string;
  max_delivery_date?: string;
  [field: string]: unknown;
}

export type CheckoutRatesShown =
  | { shown: "rates"; rates: CheckoutRate[] }
  | { shown: "cannot_ship" }
  | { shown: "backup_rates"; reason: string }
  | { shown: "no_carrier_service" };

export type CheckoutRatesResult = CheckoutRatesShown & {
  elapsedMs: number;
  /** The callback's HTTP status (null when none came). */
  status: number | null;
  /** What was sent: the JSON body and the callback URL. */
  request: { url: string; body: unknown } | null;
};

const REQUIRED_RATE_FIELDS = [
  "service_name",
  "service_code",
  "total_price",
  "description",
  "currency",
] as const;

/** The rate request body checkout would send for this cart and address. */
export function rateRequestBody(store: ShopifyStandInStore, input: CheckoutRatesInput): unknown {
  const currency = input.currency ?? store.shop.currencyCode;
  const subunits = (price: number | string) =>
    typeof price === "number" ? Math.round(price) : toMinor(price, currency);
  const origin = store.locations().find((l) => l.isActive && l.fulfillsOnlineOrders);
  const address = (a: Partial<Record<string, string | null>> | undefined) => ({
    country: a?.country ?? null,
    postal_code: a?.zip ?? null,
    province: a?.province ?? null,
    city: a?.city ?? null,
    name: a?.name ?? null,
    address1: a?.address1 ?? null,
    address2: a?.address2 ?? null,
    address3: null,
    phone: a?.phone ?? null,
    fax: null,
    email: null,
    address_type: null,
    company_name: null,
  });
  const items = input.items.map((item, index) => ({
    name: item.name ?? `Item ${index + 1}`,
    sku: item.sku ?? "",
    quantity: item.quantity,
    grams: item.grams,
    price: subunits(item.price),
    vendor: store.shop.name,
    requires_shipping: item.requiresShipping ?? true,
    taxable: true,
    fulfillment_service: "manual",
    properties: null,
    product_id: 9_100_000_000_000 + index,
    variant_id: 9_200_000_000_000 + index,
  }));
  const subtotal = items.reduce((sum, item) => sum + item.price * item.quantity, 0);
  return {
    rate: {
      origin: address(
        origin && {
          country: origin.address.countryCode,
          zip: origin.address.zip,
          province: origin.address.provinceCode?.replace(/^[A-Z]{2}-/, "") ?? null,
          city: origin.address.city,
          address1: origin.address.address1,
          address2: origin.address.address2,
          phone: origin.address.phone,
        },
      ),
      destination: address({ country: "KW", ...input.destination }),
      items,
      currency,
      locale: input.locale ?? "en",
      order_totals: {
        subtotal_price: String(subtotal),
        total_price: String(subtotal),
        discount_amount: "0",
      },
    },
  };
}

/**
 * Asks the shop's active carrier service for rates as checkout does and says what the buyer sees:
 * the rates, "cannot ship" for an empty list, or Shopify's backup rates for an error status, a
 * timeout, a redirect elsewhere or a reply that is not a list of rates.
 */
export async function simulateCheckoutRates(
  store: ShopifyStandInStore,
  apiSecret: string,
  input: CheckoutRatesInput,
): Promise<CheckoutRatesResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const service = store.shipping.activeAppService();
  if (!service) return { shown: "no_carrier_service", elapsedMs: 0, status: null, request: null };

  const body = rateRequestBody(store, input);
  const raw = JSON.stringify(body);
  const request = { url: service.callbackUrl, body };
  const timeoutMs = Math.min(
    input.timeoutMs ?? CHECKOUT_RATES_TIMEOUT_MS,
    CHECKOUT_RATES_TIMEOUT_MS,
  );
  const backup = (reason: string, status: number | null = null): CheckoutRatesResult => ({
    shown: "backup_rates",
    reason,
    elapsedMs: elapsed(),
    status,
    request,
  });

  let response: Response;
  let text: string;
  try {
    response = await fetch(service.callbackUrl, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Shopify-Shop-Domain": store.shop.domain,
        "X-Shopify-Hmac-Sha256": signWebhookBody(raw, apiSecret),
      },
      body: raw,
      // Shopify follows a redirect only on the callback's own domain: the stand-in follows none.
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && /timeout|abort/i.test(error.name);
    return backup(
      timedOut ? `no answer within ${timeoutMs} ms` : `request failed: ${String(error)}`,
    );
  }
  if (response.status < 200 || response.status >= 300)
    return backup(`HTTP ${response.status}`, response.status);

  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return backup("the answer is not JSON", response.status);
  }
  const rates = (parsed as { rates?: unknown } | null)?.rates;
  if (!Array.isArray(rates)) return backup("the answer has no rates list", response.status);
  if (rates.length === 0)
    return { shown: "cannot_ship", elapsedMs: elapsed(), status: response.status, request };
  for (const [index, rate] of rates.entries()) {
    const problem = rateProblem(rate, input.currency ?? store.shop.currencyCode);
    if (problem) return backup(`rate ${index}: ${problem}`, response.status);
  }
  return {
    shown: "rates",
    rates: rates as CheckoutRate[],
    elapsedMs: elapsed(),
    status: response.status,
    request,
  };
}

function rateProblem(rate: unknown, currency: string): string | null {
  if (typeof rate !== "object" || rate === null) return "not an object";
  const fields = rate as Record<string, unknown>;
  for (const field of REQUIRED_RATE_FIELDS) {
    if (fields[field] === undefined || fields[field] === null) return `${field} is missing`;
  }
  // total_price is in subunits: a whole number, written as a string or a number.
  if (!/^\d+$/.test(String(fields.total_price)))
    return `total_price ${String(fields.total_price)} is not a whole number of subunits (${minorDigits(currency)} decimals in ${currency})`;
  return null;
}
