import { describe, expect, it } from "vitest";
import { createI18n } from "../../app/i18n/instance";
import { reasonOnPage } from "../../app/i18n/messages";

/** A delivery's recorded reason, as the list, the address review and Send to courier show it. */
describe("a delivery's reason on a page", () => {
  const known = "This delivery is no longer waiting for an address.";
  const unknown = "Block 4 does not exist in Salmiya, says the courier.";
  const shown = (language: "en" | "ar", state: string, reason: string | null) => {
    const i18n = createI18n(language);
    return reasonOnPage(i18n.t, (key) => i18n.exists(key), language, state, reason);
  };

  it("uses the catalog's sentence in either language", () => {
    expect(shown("en", "needs_address", known)).toBe(known);
    const arabic = shown("ar", "needs_address", known)!;
    expect(arabic).not.toBe(known);
    expect(arabic).toMatch(/[\u0600-\u06FF]/);
  });

  it("never puts an English sentence on an Arabic page: the state's explanation instead", () => {
    expect(shown("en", "rejected", unknown)).toBe(unknown);
    const arabic = shown("ar", "rejected", unknown)!;
    expect(arabic).toBe(createI18n("ar").t("delivery:why.rejected"));
    expect(arabic).toMatch(/[\u0600-\u06FF]/);
    // A state without an explanation shows nothing rather than English.
    expect(shown("ar", "delivered", unknown)).toBeNull();
    expect(shown("ar", "rejected", null)).toBeNull();
  });
});
