import { describe, expect, it } from "vitest";
import { matchAddress } from "../../../app/addresses";
import { loadLabelled, score } from "../../fixtures/addresses/labelled";
import { syntheticCases } from "../../fixtures/addresses/synthetic";

// Quality assertions over the hand-labelled set; timing lives in bench/addresses.ts.
describe("the labelled address set", () => {
  const cases = loadLabelled();
  const { scores, misses } = score(
    cases,
    cases.map((labelled) => matchAddress(labelled.input)),
  );

  it("holds at least 300 realistic addresses, about a tenth of them ambiguous", () => {
    expect(scores.cases).toBeGreaterThanOrEqual(300);
    expect(scores.ambiguous / scores.cases).toBeGreaterThanOrEqual(0.08);
  });

  it("finds the right area for at least 97% of the resolvable addresses", () => {
    expect(misses.filter((miss) => miss.kind === "area")).toEqual([]);
    expect(scores.areaAccuracy).toBeGreaterThanOrEqual(0.97);
  });

  it("is confident and wrong for at most 0.5% of the addresses", () => {
    expect(misses.filter((miss) => miss.kind === "wrong-but-confident")).toEqual([]);
    expect(scores.wrongButConfidentRate).toBeLessThanOrEqual(0.005);
  });

  it("holds back every genuinely ambiguous address", () => {
    expect(scores.ambiguousHeldBack).toBe(1);
  });

  it("extracts the labelled parts", () => {
    expect(scores.partFieldAccuracy).toBeGreaterThanOrEqual(0.97);
  });
});

describe("synthetic typos of every gazetteer spelling", () => {
  it("rarely sends a corrupted spelling to the wrong area", () => {
    const cases = syntheticCases(2);
    const wrong = cases.filter(({ area, input }) => {
      const match = matchAddress(input);
      return match.confident && match.area !== area;
    });
    expect(wrong.length / cases.length).toBeLessThanOrEqual(0.005);
  });
});
