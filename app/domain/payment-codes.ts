/**
 * The courier's payment codes as a merchant chooses them: in words ("Cash on delivery",
 * "Prepaid"), with a typed code only for a courier that gave another one. The stored value stays
 * the code the courier reads (`COD`, `PREPAID`, or what was typed), so shops set up before keep
 * theirs; the courier reads the code in any case.
 */
export const STANDARD_PAYMENT_CODES = { cod: "COD", prepaid: "PREPAID" } as const;
export type PaymentKind = keyof typeof STANDARD_PAYMENT_CODES;

/** How a stored code reads on the page: the courier's usual code, another one, or none yet. */
export type PaymentCodeChoice = "standard" | "other" | "none";

export function paymentCodeChoice(kind: PaymentKind, stored: string): PaymentCodeChoice {
  const code = stored.trim();
  if (code === "") return "none";
  return code.toUpperCase() === STANDARD_PAYMENT_CODES[kind] ? "standard" : "other";
}

/** The code to store for a choice: the usual code (as it was stored, if it was), or what is typed. */
export function paymentCodeFor(
  kind: PaymentKind,
  choice: PaymentCodeChoice,
  current: string,
): string {
  if (choice === "none") return "";
  if (choice === "standard") {
    return paymentCodeChoice(kind, current) === "standard"
      ? current.trim()
      : STANDARD_PAYMENT_CODES[kind];
  }
  return paymentCodeChoice(kind, current) === "other" ? current : "";
}
