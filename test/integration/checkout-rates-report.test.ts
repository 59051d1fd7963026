import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { addRateTallies } from "../../app/models/checkout-rates.server";
import { checkoutRatesReport } from "../../app/pages/reports.server";
import { shopDomain } from "../support/shopify";

const shop = shopDomain("rates-report");
const now = new Date("2026-11-29T09:00:00Z");

beforeEach(async () => {
  await prisma.rateRequestTally.deleteMany({ where: { shop } });
});

describe("the checkout rates report", () => {
  it("says nothing was asked when there are no tallies", async () => {
    const report = await checkoutRatesReport(shop, now);
    expect(report.requests).toBe(0);
    expect(report.mostAsked).toEqual([]);
  });

  it("counts the last 30 Kuwaiti days by outcome and names the areas behind them", async () => {
    await addRateTallies([
      { shop, day: "2026-11-29", area: "Salmiya", outcome: "priced", count: 6 },
      { shop, day: "2026-11-20", area: "Salmiya", outcome: "fallback", count: 1 },
      { shop, day: "2026-11-28", area: "Wafra", outcome: "fallback", count: 3 },
      { shop, day: "2026-11-28", area: "", outcome: "not_placed", count: 2 },
      { shop, day: "2026-10-30", area: "Wafra", outcome: "fallback", count: 1 },
      // Older than 30 days: left out.
      { shop, day: "2026-10-29", area: "Jahra", outcome: "priced", count: 50 },
    ]);
    const report = await checkoutRatesReport(shop, now);
    expect(report.since).toBe("2026-10-31");
    expect(report.requests).toBe(12);
    expect(report.byOutcome).toMatchObject({ priced: 6, fallback: 4, not_placed: 2, free: 0 });
    expect(report.mostAsked).toEqual([
      { area: "Salmiya", count: 7 },
      { area: "Wafra", count: 3 },
    ]);
    expect(report.fellBack).toEqual([
      { area: "Wafra", count: 3 },
      { area: "Salmiya", count: 1 },
    ]);
  });
});
