import { describe, expect, it } from "vitest";
import {
  availabilityNote,
  opensSecondChance,
  shopperPhone,
  whenChoices,
} from "../../app/domain/second-chance";
import { shopperAnswer, shopperAnswerForm } from "../../app/domain/shopper-ask";

describe("a second chance's rules", () => {
  it("offers the next four working days in Kuwait, skipping Friday and Saturday", () => {
    // Thursday 3 December 2026, 23:30 in Kuwait (20:30 UTC).
    expect(whenChoices(new Date("2026-12-03T20:30:00Z"))).toEqual([
      "2026-12-06",
      "2026-12-07",
      "2026-12-08",
      "2026-12-09",
    ]);
  });

  it("takes a Kuwaiti mobile or an international number, and refuses a landline", () => {
    expect(shopperPhone("9999 1234")).toBe("+96599991234");
    expect(shopperPhone("+965 6600 1122")).toBe("+96566001122");
    expect(shopperPhone("٩٩٩٩١٢٣٤")).toBe("+96599991234");
    expect(shopperPhone("+44 7700 900123")).toBe("+447700900123");
    expect(shopperPhone("00971501234567")).toBe("+971501234567");
    expect(shopperPhone("2222 1234")).toBeNull();
    expect(shopperPhone("+965 2222 1234")).toBeNull();
    expect(shopperPhone("12345")).toBeNull();
  });

  it("opens once per failure of a delivery, and once per delivery for exceptions", () => {
    const open = { kind: "after_failed_attempt" as const, state: "asked", deliveryId: "d1" };
    expect(opensSecondChance(null, "d1", "courier_failed_attempt")).toBe(true);
    expect(opensSecondChance(open, "d1", "courier_failed_attempt")).toBe(false);
    expect(opensSecondChance({ ...open, state: "answered" }, "d1", "courier_failed_attempt")).toBe(
      true,
    );
    expect(opensSecondChance({ ...open, state: "answered" }, "d1", "courier_exception")).toBe(
      false,
    );
    expect(opensSecondChance(open, "d2", "courier_exception")).toBe(true);
    expect(
      opensSecondChance({ ...open, kind: "before_sending" }, "d1", "courier_failed_attempt"),
    ).toBe(true);
  });

  it("writes when the customer will be in for the driver", () => {
    expect(availabilityNote({ day: "2026-12-06", part: "evening", note: "Ring twice" })).toBe(
      "Customer is in on Sunday 6 Dec, evening (5-9) (Ring twice).",
    );
  });

  it("reads answers kept before the second chance", () => {
    const before = {
      kind: "fixed",
      governanceId: 1,
      areaId: 2,
      areaName: { en: "Salmiya", ar: "السالمية" },
      provinceCode: "KW-HA",
      parts: {
        block: "3",
        street: "12",
        avenue: null,
        house: "7",
        building: null,
        floor: null,
        apartment: null,
        paci: null,
      },
      notes: null,
      phone: null,
      latitude: null,
      longitude: null,
      cashConfirmed: false,
    };
    expect(shopperAnswer.parse(before).availability).toBeUndefined();
  });

  it("asks the day and the time of day after a failed attempt only", () => {
    const address = { areaId: "2", block: "3", street: "12", house: "7" };
    expect(shopperAnswerForm.safeParse({ intent: "fix", ...address }).success).toBe(true);
    const rescue = shopperAnswerForm.safeParse({ intent: "rescue", ...address });
    expect(rescue.success).toBe(false);
    expect(rescue.error?.issues.map((i) => i.message).sort()).toEqual([
      "when_day_missing",
      "when_part_missing",
    ]);
  });
});
