import { z } from "zod";
import { normalizeDigits } from "../addresses/normalize";

/**
 * The customer's phone as the merchant corrects it for the courier: a Kuwaiti number, eight
 * digits starting with 2 (landline), 5, 6 or 9 (mobile), written with or without +965 or 00965,
 * spaces, dashes or Arabic digits. Kept as the eight digits with +965 in front.
 */
const KUWAITI = /^[2569]\d{7}$/;

export function normalizeKuwaitiPhone(typed: string): string | null {
  const digits = normalizeDigits(typed).replace(/[\s\-().\u200e\u200f]/g, "");
  const local = digits.replace(/^(\+965|00965)/, "").replace(/^965(?=\d{8}$)/, "");
  return KUWAITI.test(local) ? `+965${local}` : null;
}

/** The zod field: its messages are catalog keys of the `delivery` namespace (ADR 0040). */
export const contactPhoneField = z
  .string()
  .trim()
  .min(1, "fix.errors.phoneMissing")
  .max(30, "fix.errors.phoneInvalid")
  .transform((typed, context) => {
    const phone = normalizeKuwaitiPhone(typed);
    if (phone === null) {
      context.addIssue({ code: "custom", message: "fix.errors.phoneInvalid" });
      return z.NEVER;
    }
    return phone;
  });

/**
 * A phone as the pages show it and dial it: a Kuwaiti number grouped "+965 9999 1234", another
 * country's left as stored with its "+"; `tel` is the number to call (null when it has too few
 * digits to be one). Shown left to right whatever the page's direction (the caller isolates it).
 */
export function phoneForDisplay(stored: string): { display: string; tel: string | null } {
  const digits = normalizeDigits(stored).replace(/[^\d+]/g, "");
  const kuwaiti = normalizeKuwaitiPhone(digits);
  if (kuwaiti) {
    const local = kuwaiti.slice(4);
    return { display: `+965 ${local.slice(0, 4)} ${local.slice(4)}`, tel: `tel:${kuwaiti}` };
  }
  const international = digits.startsWith("+") ? digits : digits.replace(/^00/, "+");
  const count = international.replace(/\D/g, "").length;
  return {
    display: stored.trim(),
    tel:
      count >= 7 && count <= 15
        ? `tel:${international.startsWith("+") ? international : `+${international}`}`
        : null,
  };
}
