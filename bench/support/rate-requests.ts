/**
 * bench:rates' requests and the check of each answer (test/integration/bench-rate-requests.test.ts
 * runs both, without timings). Destinations are the project's own hand-written address sets
 * (test/fixtures/addresses/), in English, Arabic and Arabizi, shuffled with a fixed seed; carts of
 * 1–5 items from 200 g to 8 kg each, a few heavy enough for the fallback; a small share outside
 * Kuwait, which must get no rate.
 */
import { createHmac } from "node:crypto";
import { z } from "zod";
import { seededRandom } from "../../sandbox/courier/faults";
import {
  HOLDOUT_2_FILE,
  HOLDOUT_FILE,
  LABELLED_FILE,
  loadLabelled,
} from "../../test/fixtures/addresses/labelled";

export type AddressLanguage = "en" | "ar" | "arabizi";

export interface RateRequestCase {
  /** The fixture line the destination comes from ("abroad" for the ones outside Kuwait). */
  addressId: string;
  language: AddressLanguage;
  locale: "ar" | "en";
  inKuwait: boolean;
  weightKg: number;
  body: string;
  /** Shopify's X-Shopify-Hmac-Sha256 for the body. */
  signature: string;
}

const OUTSIDE_KUWAIT_SHARE = 0.02;
const HEAVY_CART_SHARE = 0.08;
const ARABIC_SCRIPT = /[\u0600-\u06ff]/;

const PRODUCTS = [
  "Abaya",
  "Oud perfume 100ml",
  "Dates gift box",
  "Prayer rug",
  "Bakhoor burner",
  "Dishdasha",
  "Coffee dallah",
  "Basmati rice 5 kg",
];

const ABROAD = [
  { country: "SA", province: "01", city: "Riyadh", address1: "King Fahd Road 12" },
  { country: "AE", province: "DU", city: "Dubai", address1: "Al Wasl Road, Villa 4" },
];

function languageOf(id: string, fields: string[]): AddressLanguage {
  if (id.startsWith("arabizi")) return "arabizi";
  return fields.some((f) => ARABIC_SCRIPT.test(f)) ? "ar" : "en";
}

/**
 * `count` signed rate requests for `shop`, the same ones for the same seed. Shopify sends the
 * province without the country ("HA" where an order says "KW-HA") and the ZIP as `postal_code`.
 */
export function rateRequests(options: {
  count: number;
  seed: number;
  secret: string;
}): RateRequestCase[] {
  const random = seededRandom(options.seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const addresses = [HOLDOUT_FILE, HOLDOUT_2_FILE, LABELLED_FILE].flatMap((f) => loadLabelled(f));
  // Fisher–Yates with the seeded generator.
  for (let i = addresses.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [addresses[i], addresses[j]] = [addresses[j]!, addresses[i]!];
  }
  const cases: RateRequestCase[] = [];
  for (let n = 0; n < options.count; n += 1) {
    const fixture = addresses[n % addresses.length]!;
    const input = fixture.input;
    const abroad = random() < OUTSIDE_KUWAIT_SHARE;
    const language = abroad
      ? "en"
      : languageOf(fixture.id, [input.city, input.address1, input.address2]);
    const locale = (language === "ar") === random() < 0.8 ? "ar" : "en";
    const items = Array.from({ length: 1 + Math.floor(random() * 5) }, () => ({
      name: pick(PRODUCTS),
      sku: null,
      // Most items are light; weights spread evenly on a log scale from 200 g to 8 kg.
      grams: Math.round(200 * 40 ** random()),
      price: 1_500 + Math.floor(random() * 44) * 1_000,
      quantity: random() < 0.8 ? 1 : 2,
      requires_shipping: true,
      taxable: true,
      vendor: "Bench Kuwait Store",
    }));
    if (random() < HEAVY_CART_SHARE)
      items.push({ ...items[0]!, name: "Water dispenser", grams: 8_000, quantity: 3 });
    const subtotal = items.reduce((sum, i) => sum + i.price * i.quantity, 0);
    const destination = abroad
      ? { ...pick(ABROAD), postal_code: null, address2: null }
      : {
          country: "KW",
          province: input.provinceCode?.replace(/^KW-/, "") ?? null,
          city: input.city,
          address1: input.address1,
          address2: input.address2 || null,
          postal_code: input.zip || null,
        };
    const body = JSON.stringify({
      rate: {
        origin: {
          country: "KW",
          province: "HA",
          city: "Salmiya",
          address1: "Salem Al Mubarak Street, Block 10",
          postal_code: "22000",
          name: null,
          phone: null,
          company_name: "Bench Kuwait Store",
        },
        destination: {
          ...destination,
          name: "Shopper",
          phone: "+96599990000",
          company_name: null,
          address3: null,
          fax: null,
          email: null,
          address_type: null,
        },
        items,
        currency: "KWD",
        locale,
        order_totals: { subtotal_price: subtotal, total_price: subtotal },
      },
    });
    cases.push({
      addressId: abroad ? "abroad" : fixture.id,
      language,
      locale,
      inKuwait: !abroad,
      weightKg: items.reduce((sum, i) => sum + i.grams * i.quantity, 0) / 1000,
      body,
      signature: createHmac("sha256", options.secret).update(body).digest("base64"),
    });
  }
  return cases;
}

const shopifyDate = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/);
const rateAnswer = z.object({
  rates: z.array(
    z.object({
      service_name: z.string().min(1),
      service_code: z.string().min(1),
      total_price: z.string().regex(/^\d+$/),
      currency: z.literal("KWD"),
      min_delivery_date: shopifyDate,
      max_delivery_date: shopifyDate,
      description: z.string().min(1),
    }),
  ),
});

/** The description's words when the app could not place the address (both languages). */
const NOT_PLACED = /confirm your area|سنؤكد المنطقة/;

export type AnswerCheck =
  | { verdict: "rate"; placed: boolean; totalFils: number }
  /** No rate, as it should be outside Kuwait. */
  | { verdict: "none" }
  /** No rate for a Kuwaiti destination: the shopper would be told the shop cannot ship. */
  | { verdict: "empty" }
  | { verdict: "error"; problem: string };

/** What one answer of the callback means for the request it answers. */
export function checkRateAnswer(
  request: Pick<RateRequestCase, "inKuwait">,
  status: number,
  text: string,
): AnswerCheck {
  if (status !== 200) return { verdict: "error", problem: `HTTP ${status}` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { verdict: "error", problem: "not JSON" };
  }
  const parsed = rateAnswer.safeParse(json);
  if (!parsed.success) return { verdict: "error", problem: "not Shopify's rate answer" };
  const [rate, ...more] = parsed.data.rates;
  if (!rate) return request.inKuwait ? { verdict: "empty" } : { verdict: "none" };
  if (!request.inKuwait) return { verdict: "error", problem: "a rate outside Kuwait" };
  if (more.length > 0) return { verdict: "error", problem: "more than one rate" };
  if (rate.min_delivery_date > rate.max_delivery_date)
    return { verdict: "error", problem: "delivery dates out of order" };
  return {
    verdict: "rate",
    placed: !NOT_PLACED.test(rate.description),
    totalFils: Number(rate.total_price),
  };
}
