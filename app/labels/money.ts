/**
 * Kuwaiti dinar on a label, in whole fils (1 KWD = 1,000 fils): the amount is read from its
 * decimal text and printed with exactly three decimals, never through a binary float, so
 * "0.3" + nothing prints "0.300" and "12.345" never becomes "12.344".
 */

const KWD_TEXT = /^(\d{1,9})(?:\.(\d{1,3}))?$/;

/** Fils in a KWD amount written as decimal text ("12.5" → 12500); null when it is not one. */
export function filsFromKwdText(text: string): number | null {
  const match = KWD_TEXT.exec(text.trim());
  if (!match) return null;
  const dinars = Number(match[1]);
  const fils = Number((match[2] ?? "").padEnd(3, "0"));
  return dinars * 1000 + fils;
}

/** "12.500 KWD" for 12500 fils. */
export function formatFils(fils: number): string {
  if (!Number.isSafeInteger(fils) || fils < 0)
    throw new RangeError(`Not an amount of fils: ${fils}`);
  const dinars = Math.floor(fils / 1000);
  const rest = String(fils % 1000).padStart(3, "0");
  return `${dinars.toLocaleString("en-US")}.${rest} KWD`;
}
