import { afterEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { countRateRequest, flushRateTallies } from "../../app/checkout/rate-tally.server";
import {
  addRateTallies,
  areasThatFellBack,
  listRateTallies,
  pruneRateTallies,
} from "../../app/models/checkout-rates.server";
import { testDatabaseName } from "../support/database";
import { shopDomain } from "../support/shopify";

/**
 * What checkout asked, counted against the test file's database, SQLite or PostgreSQL: one
 * statement adds a batch to the rows already there, a batch bigger than one statement's share is
 * written whole, the counts kept in memory reach the table, old days go.
 */
const database = testDatabaseName();
const shop = shopDomain(`rate-tallies-${database}`);

afterEach(() => prisma.rateRequestTally.deleteMany({ where: { shop } }));

describe(`checkout's counts (${database})`, () => {
  it("adds to the counts already there, row by row", async () => {
    await addRateTallies([
      { shop, day: "2026-11-29", area: "Salmiya", outcome: "priced", count: 3 },
      { shop, day: "2026-11-29", area: "", outcome: "not_placed", count: 1 },
    ]);
    await addRateTallies([
      { shop, day: "2026-11-29", area: "Salmiya", outcome: "priced", count: 2 },
      { shop, day: "2026-11-29", area: "Jahra", outcome: "fallback", count: 4 },
    ]);
    const rows = await listRateTallies(shop, "2026-11-01");
    const count = (area: string, outcome: string) =>
      rows.find((r) => r.area === area && r.outcome === outcome)?.count;
    expect(count("Salmiya", "priced")).toBe(5);
    expect(count("", "not_placed")).toBe(1);
    expect(count("Jahra", "fallback")).toBe(4);
    expect(await areasThatFellBack(shop, "2026-11-29")).toEqual(["Jahra"]);
  });

  it("writes a batch larger than one statement takes", async () => {
    const batch = Array.from({ length: 1_234 }, (_, i) => ({
      shop,
      day: "2026-11-29",
      area: `Area ${i}`,
      outcome: "priced" as const,
      count: 1,
    }));
    await addRateTallies(batch);
    expect(await prisma.rateRequestTally.count({ where: { shop } })).toBe(1_234);
  });

  it("writes what was counted in memory, and keeps 90 days", async () => {
    for (let i = 0; i < 7; i += 1) countRateRequest(shop, "2026-11-29", "Fintas", "priced");
    await addRateTallies([
      { shop, day: "2026-08-30", area: "Fintas", outcome: "priced", count: 1 },
      { shop, day: "2026-08-31", area: "Fintas", outcome: "priced", count: 1 },
    ]);
    // The first write of a day deletes the days more than 90 days before it.
    await flushRateTallies();
    const kept = await listRateTallies(shop, "2026-01-01");
    expect(kept.map((r) => [r.day, r.count]).sort()).toEqual([
      ["2026-08-31", 1],
      ["2026-11-29", 7],
    ]);
    expect(await pruneRateTallies("2026-11-29")).toBeGreaterThanOrEqual(1);
    expect((await listRateTallies(shop, "2026-01-01")).map((r) => r.day)).toEqual(["2026-11-29"]);
  });
});
