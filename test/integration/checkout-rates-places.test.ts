import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { receiveRateRequest } from "../../app/actions/checkout-rates.server";
import { overrideKey } from "../../app/addresses";
import { forgetRateSnapshots } from "../../app/checkout/rates.server";
import { flushRateTallies } from "../../app/checkout/rate-tally.server";
import prisma from "../../app/db.server";
import { rememberAreaSpelling } from "../../app/models/area-overrides.server";
import { getCheckoutRateSettings } from "../../app/models/checkout-rates.server";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import { readyShop } from "../support/pipeline";
import { API_SECRET_KEY, shopDomain } from "../support/shopify";

// The callback remembers where it placed a destination (checkout asks again on every update);
// what it remembers must never outlive the merchant's remembered spellings.

setUpCourierSandbox();
const shop = shopDomain("rates-places");

afterEach(async () => {
  vi.restoreAllMocks();
  await flushRateTallies();
  forgetRateSnapshots();
  await prisma.areaOverride.deleteMany({ where: { shop } });
  await prisma.rateRequestTally.deleteMany({ where: { shop } });
  await prisma.checkoutRateSettings.deleteMany({ where: { shop } });
  await prisma.pickupLocation.deleteMany({ where: { shop } });
});

async function ask(token: string, destination: Record<string, string>) {
  const body = JSON.stringify({
    rate: {
      destination: { country: "KW", ...destination },
      items: [{ name: "Abaya", grams: 1_200, price: 24_500, quantity: 1 }],
      currency: "KWD",
      locale: "en",
    },
  });
  const response = await receiveRateRequest(
    token,
    new Request(`https://app.example/checkout/rates/${token}`, {
      method: "POST",
      headers: {
        "X-Shopify-Hmac-Sha256": createHmac("sha256", API_SECRET_KEY).update(body).digest("base64"),
        "X-Shopify-Shop-Domain": shop,
      },
      body,
    }),
  );
  const json = (await response.json()) as { rates: { description: string }[] };
  return json.rates[0]!.description;
}

describe("places the callback remembers", () => {
  it("answer a repeated destination as the first time", async () => {
    await readyShop(shop);
    const { callbackToken } = await getCheckoutRateSettings(shop);
    await prisma.checkoutRateSettings.update({ where: { shop }, data: { enabled: true } });
    const jabriya = { province: "HA", city: "Jabriya", address1: "Block 2, Street 4" };
    const unknown = { city: "Zbeedat", address1: "near the big mosque" };
    const first = [await ask(callbackToken, jabriya), await ask(callbackToken, unknown)];
    expect(first[0]).toContain("Jabriya");
    expect(first[1]).toMatch(/confirm your area/);
    expect([await ask(callbackToken, jabriya), await ask(callbackToken, unknown)]).toEqual(first);
  });

  it("are forgotten when the merchant remembers a spelling, at the next reload", async () => {
    await readyShop(shop);
    const { callbackToken } = await getCheckoutRateSettings(shop);
    await prisma.checkoutRateSettings.update({ where: { shop }, data: { enabled: true } });
    const odd = { city: "Um Zuwair", address1: "Block 4, Street 2" };
    expect(await ask(callbackToken, odd)).toMatch(/confirm your area/);
    const key = overrideKey({ city: odd.city, address1: odd.address1 });
    expect(key).toBeTruthy();
    await rememberAreaSpelling(shop, key!, { governorate: "Hawalli", area: "Salmiya" });
    // The snapshot is reloaded once it is a few seconds old: the request that notices it still
    // gets the old answer, the next ones the new.
    const later = Date.now() + 60_000;
    vi.spyOn(Date, "now").mockReturnValue(later);
    await ask(callbackToken, odd);
    await vi.waitFor(async () => expect(await ask(callbackToken, odd)).toContain("Salmiya"));
  });
});
