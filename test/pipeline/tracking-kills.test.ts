import { describe, expect, it } from "vitest";
import { killRounds } from "../support/tracking-kills";

/**
 * The tracking number goes on the Shopify fulfillment once, whatever happens to a real worker
 * process on the way (issue 24): killed as Shopify takes it, or stopped past its lease and resumed
 * after another worker put it there. The bench (bench:faults "tracking kills") does this 80 times.
 */
describe("the tracking number on Shopify, with worker processes killed or stopped", () => {
  it("is written once when the worker is killed as Shopify takes it", async () => {
    const result = await killRounds({
      name: "kill-at-write",
      rounds: 2,
      points: ["tracking-write"],
    });
    expect(result.tracked).toBe(4);
    expect(result.rewritten).toBe(0);
  }, 60_000);

  it("is written once when a worker stopped past its lease resumes after another wrote it", async () => {
    const result = await killRounds({
      name: "stopped-past-lease",
      rounds: 2,
      points: ["stopped"],
      resumedRunsOut: true,
    });
    expect(result.stops).toBe(2);
    expect(result.tracked).toBe(4);
    expect(result.rewritten).toBe(0);
  }, 60_000);
});
