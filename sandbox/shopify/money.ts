// Amounts are kept as decimal strings in the currency's own precision ("12.500" KWD) and added in
// minor units, so three-decimal currencies never meet floating-point sums.

const MINOR_DIGITS: Record<string, number> = { BHD: 3, KWD: 3, OMR: 3 };

export function minorDigits(currency: string): number {
  return MINOR_DIGITS[currency] ?? 2;
}

/** "12.5" or 12.5 in KWD → 12500. Throws on anything that is not a plain non-negative amount. */
export function toMinor(amount: string | number, currency: string): number {
  const text = typeof amount === "number" ? amount.toFixed(minorDigits(currency)) : amount.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match?.[1]) throw new RangeError(`"${amount}" is not an amount`);
  const digits = minorDigits(currency);
  const fraction = (match[2] ?? "").padEnd(digits, "0");
  if (fraction.length > digits && /[1-9]/.test(fraction.slice(digits))) {
    throw new RangeError(`${amount} has more than ${digits} decimals for ${currency}`);
  }
  return Number(match[1]) * 10 ** digits + Number(fraction.slice(0, digits) || "0");
}

/** 12500 KWD → "12.500", as REST webhooks write prices. */
export function fromMinor(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  if (digits === 0) return String(minor);
  const whole = Math.floor(minor / 10 ** digits);
  const fraction = String(minor % 10 ** digits).padStart(digits, "0");
  return `${whole}.${fraction}`;
}

/** 12500 KWD → "12.5", as the GraphQL Decimal scalar writes it (at least one decimal). */
export function graphqlDecimal(minor: number, currency: string): string {
  const text = fromMinor(minor, currency);
  if (!text.includes(".")) return `${text}.0`;
  return text.replace(/0+$/, "").replace(/\.$/, ".0");
}
