import { describe, expect, it } from "vitest";
import { dayFromParts, timeFromParts } from "../../app/domain/day-choice";
import { paymentCodeChoice, paymentCodeFor } from "../../app/domain/payment-codes";
import { monthNames } from "../../app/i18n/format";

describe("a holiday chosen as day, month and year", () => {
  it("reads a real day as a Kuwait date", () => {
    expect(dayFromParts("5", "12", "2026")).toBe("2026-12-05");
  });

  it("refuses a day the month does not have", () => {
    expect(dayFromParts("30", "2", "2027")).toBeNull();
    expect(dayFromParts("", "2", "2027")).toBeNull();
  });
});

describe("a cut-off chosen as hour and minute", () => {
  it("writes the time as hours and minutes", () => {
    expect(timeFromParts("9", "5")).toBe("09:05");
    expect(timeFromParts("24", "0")).toBeNull();
  });
});

describe("the months offered in each language", () => {
  it("names them in the page's language", () => {
    expect(monthNames("en")[0]).toBe("January");
    expect(monthNames("ar")[11]).toBe("ديسمبر");
  });
});

describe("the courier's payment codes chosen in words", () => {
  it("reads a stored COD, in any case, as the usual cash-on-delivery code", () => {
    expect(paymentCodeChoice("cod", "cod")).toBe("standard");
    expect(paymentCodeChoice("prepaid", "PREPAID")).toBe("standard");
    expect(paymentCodeChoice("cod", "CASH-1")).toBe("other");
    expect(paymentCodeChoice("cod", "")).toBe("none");
  });

  it("keeps a stored code as it was when the same choice is made again", () => {
    expect(paymentCodeFor("cod", "standard", "cod")).toBe("cod");
    expect(paymentCodeFor("cod", "standard", "")).toBe("COD");
    expect(paymentCodeFor("prepaid", "other", "PREPAID")).toBe("");
    expect(paymentCodeFor("prepaid", "other", "PP-9")).toBe("PP-9");
    expect(paymentCodeFor("cod", "none", "COD")).toBe("");
  });
});
