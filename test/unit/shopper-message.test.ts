import { describe, expect, it } from "vitest";
import {
  firstSendableAt,
  isStopReply,
  kuwaitDayStart,
  messageDedupeKey,
  messagePreview,
  stateAfterStatus,
  templateParameters,
} from "../../app/domain/shopper-message";

/** Kuwait is UTC+3: 21:00 in Kuwait is 18:00 UTC. */
const kuwait = (day: string, time: string) => new Date(`${day}T${time}:00+03:00`);
const NIGHT = { from: 21 * 60, until: 9 * 60 };

describe("quiet hours in Kuwait time", () => {
  it("lets a message go outside them at once", () => {
    const noon = kuwait("2026-11-29", "12:00");
    expect(firstSendableAt(noon, NIGHT)).toEqual(noon);
    expect(firstSendableAt(kuwait("2026-11-29", "20:59"), NIGHT)).toEqual(
      kuwait("2026-11-29", "20:59"),
    );
  });

  it("holds one asked at night until the morning, across midnight", () => {
    expect(firstSendableAt(kuwait("2026-11-29", "21:00"), NIGHT)).toEqual(
      kuwait("2026-11-30", "09:00"),
    );
    expect(firstSendableAt(kuwait("2026-11-29", "23:59"), NIGHT)).toEqual(
      kuwait("2026-11-30", "09:00"),
    );
    expect(firstSendableAt(kuwait("2026-11-30", "03:15"), NIGHT)).toEqual(
      kuwait("2026-11-30", "09:00"),
    );
    expect(firstSendableAt(kuwait("2026-11-30", "09:00"), NIGHT)).toEqual(
      kuwait("2026-11-30", "09:00"),
    );
  });

  it("takes quiet hours within one day, and none when from equals until", () => {
    const lunch = { from: 13 * 60, until: 16 * 60 };
    expect(firstSendableAt(kuwait("2026-11-29", "14:30"), lunch)).toEqual(
      kuwait("2026-11-29", "16:00"),
    );
    const at = kuwait("2026-11-29", "02:00");
    expect(firstSendableAt(at, { from: 0, until: 0 })).toEqual(at);
  });

  it("starts the Kuwaiti day at midnight in Kuwait, not in UTC", () => {
    expect(kuwaitDayStart(kuwait("2026-11-29", "01:30"))).toEqual(kuwait("2026-11-29", "00:00"));
    expect(kuwaitDayStart(kuwait("2026-11-29", "23:30"))).toEqual(kuwait("2026-11-29", "00:00"));
  });
});

describe("status callbacks", () => {
  it("move a message only forward, whatever order they come in", () => {
    expect(stateAfterStatus("unconfirmed", "sent")).toBe("sent");
    expect(stateAfterStatus("sending", "delivered")).toBe("delivered");
    expect(stateAfterStatus("sent", "read")).toBe("read");
    expect(stateAfterStatus("read", "delivered")).toBeNull();
    expect(stateAfterStatus("delivered", "sent")).toBeNull();
    expect(stateAfterStatus("read", "read")).toBeNull();
  });

  it("let a failure win over a send not yet delivered, never over one delivered or read", () => {
    expect(stateAfterStatus("sent", "failed")).toBe("failed");
    expect(stateAfterStatus("unconfirmed", "failed")).toBe("failed");
    expect(stateAfterStatus("delivered", "failed")).toBeNull();
    expect(stateAfterStatus("failed", "read")).toBeNull();
    expect(stateAfterStatus("skipped", "sent")).toBeNull();
  });
});

describe("templates", () => {
  const facts = { shopName: "Dar Al Oud", orderName: "#1042", cash: "36.500 KWD", token: "t" };

  it("fill each template's parameters in order, the cash only where it is asked", () => {
    expect(templateParameters("address_check", facts)).toEqual(["Dar Al Oud", "#1042"]);
    expect(templateParameters("cash_confirmation", facts)).toEqual([
      "Dar Al Oud",
      "#1042",
      "36.500 KWD",
    ]);
  });

  it("preview the message in both languages as the shopper reads it", () => {
    expect(messagePreview("cash_confirmation", "en", facts)).toBe(
      "Hello from Dar Al Oud. Your order #1042 will be paid in cash on delivery: 36.500 KWD. Please confirm.",
    );
    expect(messagePreview("address_check", "ar", facts)).toContain("مرحباً من Dar Al Oud");
    expect(messagePreview("address_check", "ar", facts)).not.toContain("{{");
  });

  it("key one message per question: an ask's round, or a delivery", () => {
    expect(messageDedupeKey("address_check", { askId: "a1", round: 1 })).not.toBe(
      messageDedupeKey("address_check", { askId: "a1", round: 2 }),
    );
    expect(messageDedupeKey("out_for_delivery", { deliveryId: "d1" })).toBe(
      "delivery:d1:out_for_delivery",
    );
  });
});

describe("STOP replies", () => {
  it("are recognised alone, in English and Arabic", () => {
    for (const text of ["STOP", " stop ", "Stop.", "إيقاف", "ايقاف", "الغاء"]) {
      expect(isStopReply(text), text).toBe(true);
    }
    for (const text of ["don't stop the delivery", "stop by at 5", "شكراً"]) {
      expect(isStopReply(text), text).toBe(false);
    }
  });
});
