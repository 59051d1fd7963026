import { describe, expect, it } from "vitest";
import { holdFor } from "../../app/domain/shopper-ask";

/**
 * The hold's note is what Shopify's staff read on the order while the app waits for the
 * customer: it says what is awaited and why, in words, the areas by name.
 */
describe("the hold's note for staff", () => {
  it("says which parts of the address are missing", () => {
    const hold = holdFor({ questions: ["address"], reasons: ["block_and_street_or_house"] });
    expect(hold.reason).toBe("INCORRECT_ADDRESS");
    expect(hold.note).toBe(
      "Waiting for the customer to confirm or fix the delivery address (courier app): the block and the street, house or building number are missing.",
    );
  });

  it("says why the area is not sure, naming the areas", () => {
    const hold = holdFor(
      { questions: ["address"], reasons: ["area_not_sure", "block"] },
      { kind: "two_areas", areas: ["Salmiya", "Rumaithiya"] },
    );
    expect(hold.note).toBe(
      "Waiting for the customer to confirm or fix the delivery address (courier app): the address names both Salmiya and Rumaithiya; the block number is missing.",
    );
  });

  it("says the area is not sure when the matcher gave no reason, and mentions cash too", () => {
    const hold = holdFor({
      questions: ["address", "cash"],
      reasons: ["area_not_sure", "cash_confirmation"],
    });
    expect(hold.note).toBe(
      "Waiting for the customer to confirm or fix the delivery address and to confirm cash on delivery (courier app): the app is not sure of the area.",
    );
  });

  it("asks only about cash with the other reason", () => {
    expect(holdFor({ questions: ["cash"], reasons: ["cash_confirmation"] })).toEqual({
      reason: "OTHER",
      note: "Waiting for the customer to confirm cash on delivery (courier app).",
    });
  });
});
