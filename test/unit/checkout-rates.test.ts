import { describe, expect, it } from "vitest";
import {
  bandFor,
  cartValueFils,
  cartWeightKg,
  checkoutLanguage,
  decideRate,
  deliveryPromise,
  destinationForMatcher,
  kwdTotalPrice,
  rateRequestSchema,
  rateWords,
  shopifyRates,
  subunitsPerUnit,
  withMargin,
  type RateChoices,
  type RateFacts,
} from "../../app/domain/checkout-rates";

const choices: RateChoices = {
  fallbackFils: 2_000,
  marginFils: 100,
  marginBasisPoints: 150,
  freeAboveFils: 30_000,
  hiddenAreas: ["Wafra"],
  cutoffMinutes: 14 * 60,
  preparationDays: 0,
  holidays: [],
};
const facts: RateFacts = {
  inKuwait: true,
  area: "Salmiya",
  courierFils: 1_250,
  tooHeavy: false,
  cartFils: 12_500,
};

/** An instant given as Kuwait local time. */
const kuwait = (local: string) => new Date(`${local}+03:00`);

describe("money as Shopify's total_price", () => {
  it("is in the currency's subunits: fils for KWD, cents for USD, ×100 for a currency without", () => {
    expect(subunitsPerUnit("KWD")).toBe(1000);
    expect(subunitsPerUnit("BHD")).toBe(1000);
    expect(subunitsPerUnit("USD")).toBe(100);
    expect(subunitsPerUnit("JPY")).toBe(100);
    expect(subunitsPerUnit("XXQ")).toBe(100);
  });

  it("never rounds a fils away", () => {
    expect(kwdTotalPrice(1_250)).toBe("1250");
    expect(kwdTotalPrice(1_005)).toBe("1005");
    expect(kwdTotalPrice(0)).toBe("0");
    expect(() => kwdTotalPrice(1.5)).toThrow(RangeError);
  });

  it("adds the margin in whole fils, a share rounded half up", () => {
    // 1.250 + 0.100 + 1.5 % of 1.250 (18.75 fils → 19)
    expect(withMargin(1_250, choices)).toBe(1_369);
    expect(withMargin(1_250, { ...choices, marginFils: -2_000, marginBasisPoints: 0 })).toBe(0);
  });

  it("reads the cart's value in fils from a KWD request, not from another currency's", () => {
    const rate = rateRequestSchema.parse({
      rate: {
        destination: { country: "KW" },
        items: [{ grams: 500, price: 4_250, quantity: 2 }],
        currency: "KWD",
      },
    }).rate;
    expect(cartValueFils(rate)).toBe(8_500);
    expect(cartValueFils({ ...rate, order_totals: { total_price: 7_900 } })).toBe(7_900);
    expect(cartValueFils({ ...rate, currency: "USD" })).toBeNull();
  });
});

describe("weight", () => {
  it("counts what needs shipping, times its quantity", () => {
    expect(
      cartWeightKg([
        { grams: 1_200, quantity: 3, price: 0, requires_shipping: true },
        { grams: 9_000, quantity: 1, price: 0, requires_shipping: false },
      ]),
    ).toBeCloseTo(3.6);
  });

  it("falls in the band of its heaviest weight; above 30 kg in none", () => {
    expect(bandFor(0)).toBe(5);
    expect(bandFor(5)).toBe(5);
    expect(bandFor(5.001)).toBe(10);
    expect(bandFor(30)).toBe(30);
    expect(bandFor(30.5)).toBeNull();
  });
});

describe("the rate", () => {
  it("is the courier's price with the margin when the area is priced", () => {
    expect(decideRate(facts, choices)).toEqual({ offer: true, fils: 1_369, outcome: "priced" });
  });

  it("is the fallback when the area is not priced yet, not placed, or the cart too heavy", () => {
    expect(decideRate({ ...facts, courierFils: null }, choices)).toMatchObject({
      fils: 2_000,
      outcome: "fallback",
    });
    expect(decideRate({ ...facts, area: null }, choices)).toMatchObject({
      fils: 2_000,
      outcome: "not_placed",
    });
    expect(decideRate({ ...facts, tooHeavy: true }, choices)).toMatchObject({
      fils: 2_000,
      outcome: "too_heavy",
    });
  });

  it("is free from the merchant's amount on", () => {
    expect(decideRate({ ...facts, cartFils: 30_000 }, choices)).toEqual({
      offer: true,
      fils: 0,
      outcome: "free",
    });
    expect(decideRate({ ...facts, cartFils: 29_999 }, choices).outcome).toBe("priced");
    expect(
      decideRate({ ...facts, cartFils: 99_000 }, { ...choices, freeAboveFils: null }).outcome,
    ).toBe("priced");
  });

  it("is no rate at all only on purpose: outside Kuwait, or an area the merchant hid", () => {
    expect(decideRate({ ...facts, inKuwait: false }, choices)).toEqual({
      offer: false,
      outcome: "outside_kuwait",
    });
    expect(decideRate({ ...facts, area: "Wafra" }, choices)).toEqual({
      offer: false,
      outcome: "hidden",
    });
  });
});

describe("the promise (Kuwait time, Friday and Saturday off)", () => {
  it("before the cut-off on a working day: the next working day", () => {
    // Sunday 29 November 2026, 10:00 in Kuwait.
    expect(deliveryPromise(kuwait("2026-11-29T10:00:00"), choices)).toEqual({
      minDay: "2026-11-30",
      maxDay: "2026-12-01",
      workingDays: 1,
    });
  });

  it("after the cut-off: a working day later", () => {
    expect(deliveryPromise(kuwait("2026-11-29T14:00:00"), choices).minDay).toBe("2026-12-01");
  });

  it("over the weekend: a Thursday evening order arrives on Monday", () => {
    const promise = deliveryPromise(kuwait("2026-12-03T18:00:00"), choices);
    expect(promise).toEqual({ minDay: "2026-12-07", maxDay: "2026-12-08", workingDays: 2 });
  });

  it("the cut-off is Kuwait's clock, not the server's: 23:30 UTC Saturday is Sunday 02:30", () => {
    expect(deliveryPromise(new Date("2026-11-28T23:30:00Z"), choices).minDay).toBe("2026-11-30");
  });

  it("skips the merchant's holidays and adds preparation days", () => {
    const holidays = ["2026-11-30"];
    expect(deliveryPromise(kuwait("2026-11-29T10:00:00"), { ...choices, holidays })).toMatchObject({
      minDay: "2026-12-01",
      maxDay: "2026-12-02",
    });
    expect(
      deliveryPromise(kuwait("2026-11-29T10:00:00"), { ...choices, preparationDays: 2 }).minDay,
    ).toBe("2026-12-02");
  });
});

describe("the words", () => {
  const promise = deliveryPromise(kuwait("2026-11-29T10:00:00"), choices);

  it("are in the checkout's language", () => {
    expect(checkoutLanguage("ar")).toBe("ar");
    expect(checkoutLanguage("ar-KW")).toBe("ar");
    expect(checkoutLanguage("en-KW")).toBe("en");
    expect(checkoutLanguage(null)).toBe("en");
    const ar = rateWords({
      language: "ar",
      promise,
      outcome: "priced",
      courierName: "Sahel",
      areaName: "السالمية",
    });
    expect(ar.serviceName).toBe("توصيل خلال يوم عمل");
    expect(ar.description).toContain("السالمية");
    const en = rateWords({
      language: "en",
      promise,
      outcome: "free",
      courierName: "Sahel",
      areaName: null,
    });
    expect(en.serviceName).toBe("Next working day (free)");
    expect(en.description).toContain("confirm your area");
  });

  it("make Shopify's rate: KWD in fils, noon dates in Kuwait, one stable code", () => {
    const words = rateWords({
      language: "en",
      promise,
      outcome: "priced",
      courierName: "Sahel",
      areaName: "Salmiya",
    });
    const answer = shopifyRates({ offer: true, fils: 1_369, outcome: "priced" }, words, promise);
    expect(answer.rates).toEqual([
      {
        service_name: "Next working day",
        service_code: "courier-delivery",
        total_price: "1369",
        description: "To Salmiya with Sahel, with a tracking link.",
        currency: "KWD",
        min_delivery_date: "2026-11-30 12:00:00 +0300",
        max_delivery_date: "2026-12-01 12:00:00 +0300",
      },
    ]);
    expect(shopifyRates({ offer: false, outcome: "hidden" }, words, promise)).toEqual({
      rates: [],
    });
  });
});

describe("Shopify's request", () => {
  it("is read loosely: a wrong field is absent, not a refusal", () => {
    const parsed = rateRequestSchema.parse({
      rate: {
        origin: null,
        destination: { country: "KW", province: "HA", city: "Salmiya", address1: "Block 10" },
        items: [{ grams: "heavy", quantity: 2, price: "1500", extra: true }],
        currency: "KWD",
        locale: "ar",
        customer: { id: 1 },
      },
    });
    expect(parsed.rate.items[0]).toMatchObject({ grams: 0, quantity: 2, price: 1_500 });
    expect(destinationForMatcher(parsed.rate.destination)).toMatchObject({
      countryCode: "KW",
      provinceCode: "KW-HA",
      city: "Salmiya",
    });
  });
});
