import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { receiveRateRequest } from "../../app/actions/checkout-rates.server";
import { refreshShopPrices } from "../../app/checkout/price-refresh.server";
import { forgetRateSnapshots } from "../../app/checkout/rates.server";
import { flushRateTallies } from "../../app/checkout/rate-tally.server";
import { findArea, resolveCourierIds } from "../../app/addresses";
import prisma from "../../app/db.server";
import { WEIGHT_BANDS_KG } from "../../app/domain/checkout-rates";
import { kuwaitDay } from "../../app/domain/working-days";
import { resetEnvForTests } from "../../app/env.server";
import {
  getCheckoutRateSettings,
  listAreaPrices,
  listRateTallies,
  saveRateChoices,
} from "../../app/models/checkout-rates.server";
import { shopCourierClient } from "../../app/services/courier-connection.server";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import { readyShop } from "../support/pipeline";
import { API_SECRET_KEY, shopDomain } from "../support/shopify";

// The carrier service's callback as Shopify calls it (signed JSON body, the shop's header), with
// the courier sandbox over HTTP behind the price table's refresh.

const sandbox = setUpCourierSandbox();
const shop = shopDomain("rates-boutique");
const other = shopDomain("rates-other");

function rateBody(destination: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    rate: {
      origin: { country: "KW", province: "HA", city: "Salmiya", address1: "Block 10" },
      destination: { country: "KW", ...destination },
      items: [{ name: "Abaya", grams: 1_200, price: 24_500, quantity: 1, requires_shipping: true }],
      currency: "KWD",
      locale: "en",
      ...extra,
    },
  });
}

async function ask(
  token: string,
  body: string,
  { sign = true, shopHeader = shop }: { sign?: boolean; shopHeader?: string | null } = {},
) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (sign)
    headers["X-Shopify-Hmac-Sha256"] = createHmac("sha256", API_SECRET_KEY)
      .update(body)
      .digest("base64");
  if (shopHeader) headers["X-Shopify-Shop-Domain"] = shopHeader;
  const response = await receiveRateRequest(
    token,
    new Request(`https://app.example/checkout/rates/${token}`, { method: "POST", headers, body }),
  );
  return {
    status: response.status,
    json: (await response.json()) as { rates?: Record<string, string>[] },
  };
}

async function enabledShop(name: string) {
  await readyShop(name);
  const settings = await getCheckoutRateSettings(name);
  await prisma.checkoutRateSettings.update({ where: { shop: name }, data: { enabled: true } });
  await saveRateChoices(name, {
    fallbackFils: 2_500,
    marginFils: 250,
    marginBasisPoints: 0,
    freeAboveFils: 50_000,
    hiddenAreas: ["Wafra"],
    cutoffMinutes: 14 * 60,
    preparationDays: 0,
    holidays: [],
  });
  return settings.callbackToken;
}

async function cleanUp() {
  forgetRateSnapshots();
  for (const s of [shop, other]) {
    await prisma.areaPrice.deleteMany({ where: { shop: s } });
    await prisma.rateRequestTally.deleteMany({ where: { shop: s } });
    await prisma.checkoutRateSettings.deleteMany({ where: { shop: s } });
    await prisma.pickupLocation.deleteMany({ where: { shop: s } });
  }
}

beforeEach(cleanUp);
afterEach(async () => {
  await flushRateTallies();
  await cleanUp();
  delete process.env.CHECKOUT_RATES_SIGNATURE;
  resetEnvForTests();
});

const refreshDeps = { courierFor: shopCourierClient, callsPerPass: 1_000 };

describe("the price table", () => {
  it("fills from the courier's price endpoint, lightest band first, and prices as the courier does", async () => {
    await enabledShop(shop);
    const first = await refreshShopPrices(shop, { ...refreshDeps, callsPerPass: 40 });
    expect(first.asked).toBe(40);
    expect(first.saved).toBe(40);
    let cells = await listAreaPrices(shop, "sandbox");
    expect(new Set(cells.map((c) => c.bandKg))).toEqual(new Set([5]));
    // Until none is missing.
    for (let i = 0; i < 20 && (await refreshShopPrices(shop, refreshDeps)).remaining > 0; i += 1);
    cells = await listAreaPrices(shop, "sandbox");
    const areas = new Set(cells.map((c) => c.areaId)).size;
    expect(cells.length).toBe(areas * WEIGHT_BANDS_KG.length);
    // The sandbox's tariff: 1.250 within a governance (Salmiya → Hawalli governance), 0.250 per
    // started kilogram above 5.
    const { directory } = {
      directory: await import("../../app/services/courier-directory.server"),
    };
    const dir = (await directory.loadCourierDirectory(shop, "sandbox"))!;
    const hawalli = dir.areas.find((a) => a.name === "حولي")!;
    const at = (band: number) => cells.find((c) => c.areaId === hawalli.id && c.bandKg === band)!;
    expect(at(5).priceFils).toBe(1_250);
    expect(at(10).priceFils).toBe(2_500);
    // A second pass asks nothing: every cell is fresh.
    expect((await refreshShopPrices(shop, refreshDeps)).asked).toBe(0);
  });

  it("stops at the first failure while the courier is down, and keeps the prices it has", async () => {
    await enabledShop(shop);
    await refreshShopPrices(shop, { ...refreshDeps, callsPerPass: 8 });
    sandbox().faults.add({ endpoint: "calculatePrice", kind: "error", status: 503, times: 100 });
    const down = await refreshShopPrices(shop, { ...refreshDeps, callsPerPass: 40 });
    expect(down.saved).toBe(0);
    expect(down.asked).toBeLessThanOrEqual(4);
    expect(down.stoppedBy).toBeTruthy();
    expect((await listAreaPrices(shop, "sandbox")).length).toBe(8);
  });

  it("asks first for the areas checkout had to price with the fallback", async () => {
    const token = await enabledShop(shop);
    // Saad Al-Abdullah is far down the courier's list; a shopper there got the fallback.
    expect(
      (await ask(token, rateBody({ city: "Saad Al Abdullah", address1: "Block 3, Street 5" }))).json
        .rates?.[0]?.total_price,
    ).toBe("2500");
    await flushRateTallies();
    await refreshShopPrices(shop, { ...refreshDeps, callsPerPass: 1 });
    const dir = await (
      await import("../../app/services/courier-directory.server")
    ).loadCourierDirectory(shop, "sandbox");
    const saad = resolveCourierIds(findArea("Saad Al-Abdullah")!, dir!.index);
    if (saad.status !== "resolved") throw new Error("Saad Al-Abdullah is not a sandbox area");
    expect((await listAreaPrices(shop, "sandbox")).map((c) => c.areaId)).toEqual([saad.areaId]);
  });
});

describe("the callback", () => {
  it("answers from the table, in fils, with the margin, without calling the courier", async () => {
    const token = await enabledShop(shop);
    for (let i = 0; i < 20 && (await refreshShopPrices(shop, refreshDeps)).remaining > 0; i += 1);
    forgetRateSnapshots();
    const calls = sandbox().requestLog.length;
    const { status, json } = await ask(
      token,
      rateBody({ province: "HA", city: "Jabriya", address1: "Block 2, Street 4, House 9" }),
    );
    expect(status).toBe(200);
    expect(json.rates).toHaveLength(1);
    expect(json.rates![0]).toMatchObject({
      service_code: "courier-delivery",
      currency: "KWD",
      // 1.250 from the courier + 0.250 margin
      total_price: "1500",
    });
    expect(json.rates![0]!.description).toContain("Jabriya");
    // A heavier cart: 12 kg is the 15 kg band (1.250 + 10 × 0.250 + margin).
    const heavy = await ask(
      token,
      rateBody(
        { city: "Jabriya", address1: "Block 2" },
        { items: [{ grams: 12_000, price: 1_000, quantity: 1 }] },
      ),
    );
    expect(heavy.json.rates![0]!.total_price).toBe("4000");
    expect(sandbox().requestLog.length).toBe(calls);
  });

  it("speaks the checkout's language", async () => {
    const token = await enabledShop(shop);
    const { json } = await ask(
      token,
      rateBody({ city: "السالمية", address1: "قطعة 10 شارع 5" }, { locale: "ar" }),
    );
    expect(json.rates![0]!.description).toContain("السالمية");
    expect(json.rates![0]!.service_name).toMatch(/توصيل/);
  });

  it("never answers empty by accident: an unknown area gets the fallback; outside Kuwait and hidden areas get none", async () => {
    const token = await enabledShop(shop);
    const unplaced = await ask(
      token,
      rateBody({ city: "somewhere", address1: "near the big mosque" }),
    );
    expect(unplaced.json.rates![0]!.total_price).toBe("2500");
    expect(unplaced.json.rates![0]!.description).toMatch(/confirm your area/);
    expect((await ask(token, rateBody({ country: "SA", city: "Riyadh" }))).json.rates).toEqual([]);
    expect((await ask(token, rateBody({ city: "Wafra", address1: "Block 1" }))).json.rates).toEqual(
      [],
    );
    const free = await ask(
      token,
      rateBody({ city: "Jabriya" }, { order_totals: { total_price: 60_000 } }),
    );
    expect(free.json.rates![0]!.total_price).toBe("0");
    await flushRateTallies();
    const tallies = await listRateTallies(shop, kuwaitDay(new Date()));
    const count = (outcome: string, area?: string) =>
      tallies
        .filter((t) => t.outcome === outcome && (area === undefined || t.area === area))
        .reduce((n, t) => n + t.count, 0);
    expect(count("not_placed", "")).toBe(1);
    expect(count("outside_kuwait")).toBe(1);
    expect(count("hidden", "Wafra")).toBe(1);
    expect(count("free", "Jabriya")).toBe(1);
  });

  it("refuses what Shopify did not send: unknown address, missing or wrong signature, another shop", async () => {
    const token = await enabledShop(shop);
    await readyShop(other);
    const body = rateBody({ city: "Hawalli" });
    expect((await ask("x".repeat(32), body)).status).toBe(404);
    expect((await ask(token, body, { sign: false })).status).toBe(401);
    const forged = await receiveRateRequest(
      token,
      new Request("https://app.example/", {
        method: "POST",
        headers: {
          "X-Shopify-Hmac-Sha256": createHmac("sha256", "not-the-secret")
            .update(body)
            .digest("base64"),
        },
        body,
      }),
    );
    expect(forged.status).toBe(401);
    expect((await ask(token, body, { shopHeader: other })).status).toBe(401);
    expect((await ask(token, "{not json")).status).toBe(400);
    expect((await ask(token, JSON.stringify({ rate: { currency: "KWD" } }))).status).toBe(400);
    // Where a development store shows Shopify does not sign, the operator may accept unsigned.
    process.env.CHECKOUT_RATES_SIGNATURE = "when-present";
    resetEnvForTests();
    expect((await ask(token, body, { sign: false })).status).toBe(200);
  });

  it("answers the merchant's new choices within seconds, without a restart", async () => {
    const token = await enabledShop(shop);
    expect((await ask(token, rateBody({ city: "Hawalli" }))).json.rates![0]!.total_price).toBe(
      "2500",
    );
    const settings = await getCheckoutRateSettings(shop);
    await saveRateChoices(shop, { ...settings, fallbackFils: 3_125 });
    forgetRateSnapshots(shop);
    expect((await ask(token, rateBody({ city: "Hawalli" }))).json.rates![0]!.total_price).toBe(
      "3125",
    );
  });
});
