import { describe, expect, it } from "vitest";
import { countScale } from "../../app/components/outcome-chart";
import { nextSteps, type NextStepFigures } from "../../app/domain/next-steps";

const none: NextStepFigures = {
  needsAddress: 0,
  rejected: 0,
  needsReview: 0,
  needsAttention: 0,
  failed: 0,
  stuck: 0,
  cashDifferences: 0,
};

describe("Home's next steps", () => {
  it("says nothing when nothing waits for the merchant", () => {
    expect(nextSteps(none)).toEqual([]);
  });

  it("lists what waits, most urgent first, each with the page that does it", () => {
    const steps = nextSteps({ ...none, needsAddress: 4, rejected: 2, cashDifferences: 1 });
    expect(steps).toEqual([
      { kind: "addresses", count: 4, to: "/app/address-review" },
      { kind: "refused", count: 2, to: "/app/deliveries?tab=attention&state=rejected" },
      { kind: "cashDifferences", count: 1, to: "/app/cash" },
    ]);
  });
});

describe("the chart's count axis", () => {
  it("keeps small numbers on a small axis, with a tick at every whole delivery", () => {
    expect(countScale(0)).toEqual({ top: 4, ticks: [0, 1, 2, 3, 4] });
    expect(countScale(3)).toEqual({ top: 4, ticks: [0, 1, 2, 3, 4] });
  });

  it("rounds a busy fortnight's top up to a round step", () => {
    expect(countScale(7)).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] });
    expect(countScale(270)).toEqual({ top: 300, ticks: [0, 100, 200, 300] });
    expect(countScale(41).ticks.at(-1)).toBeGreaterThanOrEqual(41);
  });
});
