import { describe, expect, it } from "vitest";
import { phoneForDisplay } from "../../app/domain/contact-phone";

describe("a phone on the merchant's pages", () => {
  it("groups a Kuwaiti number and dials it with +965, however it was stored", () => {
    for (const stored of ["+96599991234", "99991234", "0096599991234", "+965 ٩٩٩٩ ١٢٣٤"]) {
      expect(phoneForDisplay(stored), stored).toEqual({
        display: "+965 9999 1234",
        tel: "tel:+96599991234",
      });
    }
  });

  it("keeps another country's number as stored and dials it with its code", () => {
    expect(phoneForDisplay("+44 7700 900123")).toEqual({
      display: "+44 7700 900123",
      tel: "tel:+447700900123",
    });
    expect(phoneForDisplay("00201001234567").tel).toBe("tel:+201001234567");
  });

  it("offers no call for something too short to be a number", () => {
    expect(phoneForDisplay("123").tel).toBeNull();
  });
});
