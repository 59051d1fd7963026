import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AddressInput,
  buildCourierIndex,
  findArea,
  matchAddress,
  normalizeArabic,
  normalizeDigits,
  normalizeLatin,
  overrideKey,
  proposePickupLocation,
  resolveCourierIds,
} from "../../../app/addresses";

// Pieces that exercise every branch: keywords, area names, Arabic, Arabizi, separators, noise.
// prettier-ignore
const pieces = [
  "Block", "blk", "b4", "st", "Street", "ave", "jadda", "house", "h", "bldg", "floor", "2nd", "flat", "apt",
  "PACI", "12345678", "99887766", "Salmiya", "Hawalli", "Al", "Kuwait", "Kuwait City", "South Surra", "Rigga",
  "Sabah", "Salem", "near", "or", "/", ",", "\u2060", "\n", "ق", "ش", "م", "قطعة", "شارع", "منزل", "السلام",
  "عليكم", "السالمية", "حولي", "الظهر", "٤", "١٠", "٩ب", "7wly", "5ai6an", "😀", "\u0000", "\u202e", "ﷺ", "ـ",
];
const piece = fc.constantFrom(...pieces);
const text = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.array(piece, { maxLength: 25 }).map((words) => words.join(" ")),
  fc
    .array(fc.oneof(piece, fc.string({ maxLength: 4 })), { maxLength: 25 })
    .map((words) => words.join("")),
);
const field = fc.oneof(text, fc.constant(null), fc.constant(undefined));
const input = fc.record(
  {
    provinceCode: fc.oneof(field, fc.constantFrom("KW-HA", "KW-AH", "kw-ku", "XX", "")),
    city: field,
    address1: field,
    address2: field,
    zip: field,
    countryCode: fc.oneof(field, fc.constantFrom("KW", "QA")),
  },
  { requiredKeys: [] },
);

describe("robustness", () => {
  it("never throws and keeps confidence within 0 and 1, whatever the input", () => {
    fc.assert(
      fc.property(input, (address) => {
        const match = matchAddress(address);
        expect(match.confidence).toBeGreaterThanOrEqual(0);
        expect(match.confidence).toBeLessThanOrEqual(1);
        expect(match.confident).toBe(match.confident && match.area !== null);
        expect(Array.isArray(match.reasons)).toBe(true);
        const key = overrideKey(address);
        expect(key === null || typeof key === "string").toBe(true);
        proposePickupLocation(address);
      }),
      { numRuns: 2000 },
    );
  });

  it("never throws in normalization", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (value) => {
        expect(typeof normalizeArabic(value)).toBe("string");
        expect(typeof normalizeLatin(value)).toBe("string");
        expect(normalizeDigits(value).length).toBe(value.length);
      }),
      { numRuns: 1000 },
    );
  });

  it("survives fields that are not strings at all", () => {
    const odd = {
      city: 42,
      address1: { a: 1 },
      address2: ["x"],
      zip: true,
      provinceCode: Symbol("x"),
    };
    expect(matchAddress(odd as unknown as AddressInput).area).toBeNull();
    expect(matchAddress(null as unknown as AddressInput).area).toBeNull();
    expect(matchAddress(undefined as unknown as AddressInput).area).toBeNull();
  });

  it("reads only the start of huge fields and stays fast", () => {
    const huge = `Salmiya block 4 ${"x".repeat(100_000)} Jabriya`;
    const started = performance.now();
    const match = matchAddress({
      city: huge,
      address1: "😀".repeat(50_000),
      address2: "ق".repeat(100_000),
    });
    expect(performance.now() - started).toBeLessThan(500);
    expect(match.area?.nameEn).toBe("Salmiya");
  });

  it("survives emoji, control characters and mixed scripts", () => {
    const match = matchAddress({
      city: "\u0000\u0007السالمية\u202e Salmiya 🏠",
      address1: "ق١٠\tش٥\r\nم١٢ \uFEFF\u200d",
    });
    expect(match.area?.nameEn).toBe("Salmiya");
    expect(match.parts).toMatchObject({ block: "10", street: "5", house: "12" });
  });

  it("never throws in courier resolution, whatever the master data", () => {
    const salmiya = findArea("Salmiya");
    if (salmiya === undefined) throw new Error("gazetteer lacks Salmiya");
    fc.assert(
      fc.property(
        fc.array(fc.record({ governanceId: fc.integer(), governanceName: text }), { maxLength: 5 }),
        fc.array(fc.record({ areaId: fc.integer(), governanceId: fc.integer(), areaName: text }), {
          maxLength: 20,
        }),
        (governances, areas) => {
          const result = resolveCourierIds(salmiya, buildCourierIndex({ governances, areas }));
          expect(["resolved", "missing", "ambiguous"]).toContain(result.status);
        },
      ),
      { numRuns: 300 },
    );
  });
});
