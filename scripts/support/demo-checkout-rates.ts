/**
 * `npm run demo`'s checkout rates (issue 28): rates turned on for the demo shop in the database
 * (the carrier service in Shopify is Settings' job, not the demo's), a few passes of the worker's
 * price refresh against the courier sandbox, then one Arabic and one English rate request signed
 * and sent to the running app as Shopify's checkout sends them. Returns the lines to print. The
 * caller has set the app's environment.
 */
import { createHmac } from "node:crypto";

const DESTINATIONS = [
  {
    locale: "ar",
    destination: {
      country: "KW",
      province: "HA",
      city: "السالمية",
      address1: "قطعة 10 شارع 5 منزل 12",
    },
  },
  {
    locale: "en",
    destination: {
      country: "KW",
      province: "HA",
      city: "Jabriya",
      address1: "Block 2, Street 4, House 9",
    },
  },
];

const dinars = (fils: string) => `${(Number(fils) / 1000).toFixed(3)} KWD`;
const day = (shopifyDate: string) => shopifyDate.slice(0, 10);

export async function showCheckoutRates(options: {
  shop: string;
  appUrl: string;
  apiSecret: string;
}): Promise<string[]> {
  const { default: prisma } = await import("../../app/db.server");
  const { getCheckoutRateSettings, saveRateChoices, listAreaPrices } =
    await import("../../app/models/checkout-rates.server");
  const { refreshShopPrices } = await import("../../app/checkout/price-refresh.server");
  const { shopCourierClient } = await import("../../app/services/courier-connection.server");
  const { shop } = options;

  const { callbackToken } = await getCheckoutRateSettings(shop);
  await prisma.checkoutRateSettings.update({ where: { shop }, data: { enabled: true } });
  await saveRateChoices(shop, {
    fallbackFils: 2_500,
    marginFils: 250,
    marginBasisPoints: 0,
    freeAboveFils: 50_000,
    hiddenAreas: [],
    cutoffMinutes: 14 * 60,
    preparationDays: 0,
    holidays: [],
  });
  // What the worker's "checkout prices" loop does every few seconds, a few passes at once: the
  // lightest weight band of every area first.
  for (let pass = 0; pass < 4; pass += 1)
    await refreshShopPrices(shop, { courierFor: shopCourierClient, callsPerPass: 40 });
  const cells = (await listAreaPrices(shop, "sandbox")).length;

  const lines = [`${cells} prices in the table (area × weight band); ask again as Shopify does:`];
  for (const { locale, destination } of DESTINATIONS) {
    const body = JSON.stringify({
      rate: {
        origin: { country: "KW", province: "HA", city: "Salmiya", address1: "Salem Al Mubarak St" },
        destination: { ...destination, address2: null, postal_code: null },
        items: [
          {
            name: "Oud Perfume 100ml",
            grams: 450,
            price: 35_000,
            quantity: 1,
            requires_shipping: true,
          },
        ],
        currency: "KWD",
        locale,
      },
    });
    const url = `${options.appUrl}/checkout/rates/${callbackToken}`;
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Shopify-Shop-Domain": shop,
        "X-Shopify-Hmac-Sha256": createHmac("sha256", options.apiSecret)
          .update(body)
          .digest("base64"),
      },
      body,
    });
    const answer = (await response.json()) as {
      rates?: {
        service_name: string;
        total_price: string;
        min_delivery_date: string;
        max_delivery_date: string;
        description: string;
      }[];
    };
    const rate = answer.rates?.[0];
    lines.push(
      `  ${destination.city}, ${destination.address1} (checkout in ${locale === "ar" ? "Arabic" : "English"}) →`,
      rate
        ? `    ${rate.service_name} · ${dinars(rate.total_price)} · ${day(rate.min_delivery_date)} to ${day(rate.max_delivery_date)} · ${rate.description}`
        : `    no rate (HTTP ${response.status}: ${JSON.stringify(answer)})`,
    );
  }
  return lines;
}
