import { describe, expect, it } from "vitest";
import { quoteTotal } from "../../app/domain/quote-total";
import { cityName } from "../../app/i18n/place-names";

describe("the courier's price for a selection of orders", () => {
  it("adds the priced orders in fils and counts the others apart", () => {
    expect(
      quoteTotal([
        { ok: true, price: 1.1, currency: "KWD" },
        { ok: true, price: 2.2, currency: null },
        { ok: true, price: null, currency: "KWD" },
        { ok: false },
        { ok: true, price: 5, currency: "USD" },
      ]),
    ).toEqual({ priced: 2, unpriced: 3, totalKwd: 3.3 });
  });
});

describe("a customer's city on the page", () => {
  it("reads an Arabic city in English on the English page, and back", () => {
    expect(cityName("السالمية", "en")).toBe("Salmiya");
    expect(cityName("salmiya", "ar")).toBe("السالمية");
  });

  it("keeps a city the gazetteer does not know as written", () => {
    expect(cityName("Riyadh", "ar")).toBe("Riyadh");
  });
});
