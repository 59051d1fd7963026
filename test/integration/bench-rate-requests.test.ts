import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { checkRateAnswer, rateRequests } from "../../bench/support/rate-requests";
import { receiveRateRequest } from "../../app/actions/checkout-rates.server";
import { forgetRateSnapshots } from "../../app/checkout/rates.server";
import { flushRateTallies } from "../../app/checkout/rate-tally.server";
import prisma from "../../app/db.server";
import { getCheckoutRateSettings } from "../../app/models/checkout-rates.server";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import { readyShop } from "../support/pipeline";
import { API_SECRET_KEY, shopDomain } from "../support/shopify";

// bench:rates' requests and its check of the answers, without timings: a bench that sends what
// the callback refuses, or miscounts its answers, fails here first.

setUpCourierSandbox();
const shop = shopDomain("bench-rates");

afterEach(async () => {
  await flushRateTallies();
  forgetRateSnapshots();
  await prisma.rateRequestTally.deleteMany({ where: { shop } });
  await prisma.checkoutRateSettings.deleteMany({ where: { shop } });
  await prisma.pickupLocation.deleteMany({ where: { shop } });
});

describe("the rates benchmark's requests", () => {
  it("are the same for the same seed, signed, and in the three ways shoppers write", () => {
    const cases = rateRequests({ count: 400, seed: 28, secret: API_SECRET_KEY });
    expect(rateRequests({ count: 400, seed: 28, secret: API_SECRET_KEY })).toEqual(cases);
    expect(new Set(cases.map((c) => c.language))).toEqual(new Set(["en", "ar", "arabizi"]));
    expect(new Set(cases.map((c) => c.locale))).toEqual(new Set(["en", "ar"]));
    for (const c of cases) {
      expect(c.signature).toBe(
        createHmac("sha256", API_SECRET_KEY).update(c.body).digest("base64"),
      );
      const { rate } = JSON.parse(c.body);
      expect(rate.items.length).toBeGreaterThanOrEqual(1);
      expect(rate.destination.country === "KW").toBe(c.inKuwait);
      if (c.inKuwait) expect(rate.destination.province ?? "").not.toMatch(/^KW-/);
    }
    expect(cases.some((c) => c.weightKg > 30)).toBe(true);
  });

  it("each get a valid answer from the callback: a rate in Kuwait, none abroad", async () => {
    await readyShop(shop);
    const { callbackToken } = await getCheckoutRateSettings(shop);
    await prisma.checkoutRateSettings.update({ where: { shop }, data: { enabled: true } });
    const cases = rateRequests({ count: 60, seed: 7, secret: API_SECRET_KEY });
    const verdicts = new Map<string, number>();
    for (const c of cases) {
      const response = await receiveRateRequest(
        callbackToken,
        new Request(`https://app.example/checkout/rates/${callbackToken}`, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "X-Shopify-Hmac-Sha256": c.signature,
            "X-Shopify-Shop-Domain": shop,
          },
          body: c.body,
        }),
      );
      const check = checkRateAnswer(c, response.status, await response.text());
      expect(check.verdict, c.addressId).toBe(c.inKuwait ? "rate" : "none");
      const key = check.verdict === "rate" ? `rate placed=${check.placed}` : check.verdict;
      verdicts.set(key, (verdicts.get(key) ?? 0) + 1);
    }
    expect(verdicts.get("rate placed=true")).toBeGreaterThan(30);
  });
});

describe("the rates benchmark's check of an answer", () => {
  const rate = {
    service_name: "Next working day",
    service_code: "courier-delivery",
    total_price: "1500",
    currency: "KWD",
    min_delivery_date: "2026-11-30 12:00:00 +0300",
    max_delivery_date: "2026-12-01 12:00:00 +0300",
    description: "To Salmiya with Courier, with a tracking link.",
  };
  const kuwait = { inKuwait: true };

  it("counts a Kuwaiti destination without a rate as empty", () => {
    expect(checkRateAnswer(kuwait, 200, '{"rates":[]}')).toEqual({ verdict: "empty" });
  });

  it("tells a placed destination from one the app will confirm", () => {
    expect(checkRateAnswer(kuwait, 200, JSON.stringify({ rates: [rate] }))).toEqual({
      verdict: "rate",
      placed: true,
      totalFils: 1500,
    });
    const unplaced = { ...rate, description: "مع Courier. سنؤكد المنطقة معك بعد الطلب." };
    expect(checkRateAnswer(kuwait, 200, JSON.stringify({ rates: [unplaced] }))).toMatchObject({
      placed: false,
    });
  });

  it("counts a refusal, broken JSON, a price in dinars or a rate abroad as an error", () => {
    expect(checkRateAnswer(kuwait, 429, "{}").verdict).toBe("error");
    expect(checkRateAnswer(kuwait, 200, "{").verdict).toBe("error");
    const dinars = { ...rate, total_price: "1.500" };
    expect(checkRateAnswer(kuwait, 200, JSON.stringify({ rates: [dinars] })).verdict).toBe("error");
    expect(
      checkRateAnswer({ inKuwait: false }, 200, JSON.stringify({ rates: [rate] })).verdict,
    ).toBe("error");
  });
});
