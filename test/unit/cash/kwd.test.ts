import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parcelCharge } from "../../../app/domain/request";
import { displayKwd, fils, formatKwd, kwdToFils, parseKwd, sumFils } from "../../../app/domain/kwd";

const read = (text: string) => {
  const parsed = parseKwd(text);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.fils;
};

describe("parseKwd", () => {
  it.each([
    ["36", 36_000],
    ["36.5", 36_500],
    ["36.500", 36_500],
    ["0.005", 5],
    [".750", 750],
    ["KWD 36.500", 36_500],
    ["36.500 KD", 36_500],
    ["36.500 د.ك", 36_500],
    ["٣٦٫٥٠٠", 36_500],
    ["۳۶.۵", 36_500],
    ["1,250.000", 1_250_000],
    ["1٬250٫5", 1_250_500],
    ["-1.250", -1_250],
    ["(2.000)", -2_000],
    ["12.3400", 12_340],
  ])("reads %s as %i fils", (text, expected) => {
    expect(read(text)).toBe(expected);
  });

  it.each(["", "abc", "12.3456", "1.2.3", "1,25.000", "12e3"])(
    "refuses %j with a reason",
    (text) => {
      const parsed = parseKwd(text);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.problem.length).toBeGreaterThan(5);
    },
  );

  it("formats with exactly three decimals", () => {
    expect(formatKwd(fils(36_500))).toBe("36.500");
    expect(formatKwd(fils(5))).toBe("0.005");
    expect(formatKwd(fils(-1_250))).toBe("-1.250");
    expect(displayKwd(fils(1_234_567))).toBe("1,234.567 KWD");
  });

  it("round-trips every amount through its text", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (n) => {
        expect(read(formatKwd(fils(n)))).toBe(n);
      }),
    );
  });

  it("sums exactly where floating point drifts", () => {
    const amounts = Array.from({ length: 10 }, () => read("0.1"));
    expect(sumFils(amounts)).toBe(1_000);
    expect(Array.from({ length: 10 }, () => 0.1).reduce((a, b) => a + b, 0)).not.toBe(1);
  });

  it("refuses a fractional fils", () => {
    expect(() => fils(1.5)).toThrow(RangeError);
  });
});

describe("the ledger's amount and the courier request's", () => {
  const order = (outstanding: string) => ({
    currencyCode: "KWD",
    totalPrice: outstanding,
    totalOutstanding: outstanding,
    presentment: { currencyCode: "KWD", totalPrice: outstanding, totalOutstanding: outstanding },
    items: [{ value: { shop: 1, presentment: 1 } }],
  });

  it.each(["36.5", "12.345", "0.1", "999.999", "20", "1250.750"])(
    "agree for an outstanding balance of %s",
    (outstanding) => {
      const charge = parcelCharge(order(outstanding), true);
      if (!charge.ok) throw new Error(charge.problem);
      // What the worker stores on the delivery (request.ts: value.toFixed(3)) and the ledger reads.
      expect(kwdToFils(charge.value.toFixed(3))).toBe(read(outstanding));
    },
  );

  it("agree when Shopify gives a fourth decimal, rounded half up as the request rounds it", () => {
    const charge = parcelCharge(order("1.0005"), true);
    if (!charge.ok) throw new Error(charge.problem);
    expect(kwdToFils(charge.value.toFixed(3))).toBe(1_001);
  });
});
