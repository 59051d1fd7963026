/**
 * Kuwaiti dinar as whole fils (1 KWD = 1000 fils), so sums and differences are integer arithmetic
 * and never drift the way binary fractions do (0.1 + 0.2). Pure; no I/O.
 *
 * Amounts come from the app itself (the delivery's `cashToCollect`, "36.500", written by the
 * request builder) and from the courier's statements, typed by people: "36", "36.5", "KWD 36.500",
 * "٣٦٫٥٠٠ د.ك", "1,250.000". {@link parseKwd} reads them all or says what is wrong.
 */

declare const filsBrand: unique symbol;
/** A whole number of fils. */
export type Fils = number & { readonly [filsBrand]: true };

export const FILS_PER_KWD = 1000;
export const ZERO_FILS = 0 as Fils;

export function fils(value: number): Fils {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${value} is not a whole number of fils`);
  return value as Fils;
}

/** Why an amount could not be read, for a page to say in its own language. */
export type KwdProblemCode = "not_number" | "empty" | "not_amount" | "decimals" | "too_large";
export type ParsedKwd =
  { ok: true; fils: Fils } | { ok: false; problem: string; code: KwdProblemCode };

// Arabic-Indic (٠–٩) and Eastern Arabic-Indic (۰–۹, Persian and Urdu keyboards) digits.
const ARABIC_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g;
const CURRENCY_WORDS =
  /(?:\bKWD\b|\bK\.?D\.?(?![A-Za-z])|\bdinars?\b|د\.?\s?ك\.?|دينار(?:\s?كويتي)?|فلس)/giu;

function westernDigits(text: string): string {
  return text.replace(ARABIC_DIGITS, (digit) => {
    const code = digit.charCodeAt(0);
    return String(code >= 0x06f0 ? code - 0x06f0 : code - 0x0660);
  });
}

/**
 * Reads an amount of dinar written as people write it: digits in Arabic or Latin, "." or the
 * Arabic decimal separator "٫", thousands grouped with "," or "٬" or spaces, a currency word
 * before or after, a minus sign or brackets for a negative amount. At most three decimals: a
 * fourth non-zero decimal is an error, not a rounding.
 */
export function parseKwd(input: string | number): ParsedKwd {
  if (typeof input === "number") {
    if (!Number.isFinite(input))
      return { ok: false, problem: "is not a number", code: "not_number" };
    // A spreadsheet's number: its shortest decimal text is what the cell shows.
    return parseKwd(String(input));
  }
  let text = westernDigits(input.normalize("NFKC"))
    .replace(/[\u200e\u200f\u061c\u00a0\u202f]/g, " ")
    .replace(CURRENCY_WORDS, " ")
    .trim();
  if (text === "") return { ok: false, problem: "is empty", code: "empty" };
  let negative = false;
  if (/^\(.*\)$/.test(text)) {
    negative = true;
    text = text.slice(1, -1).trim();
  }
  if (/^[-−–]/.test(text)) {
    negative = !negative;
    text = text.slice(1).trim();
  } else if (text.startsWith("+")) {
    text = text.slice(1).trim();
  }
  text = text.replace(/\u066b/g, ".");
  // Thousands separators: "," and "٬" only between groups of three digits, or spaces likewise.
  if (/^\d{1,3}(?:[,\u066c ]\d{3})+(?:\.\d*)?$/.test(text)) text = text.replace(/[,\u066c ]/g, "");
  const match = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[1] === "" && (match[2] ?? "") === ""))
    return {
      ok: false,
      problem: `"${input.trim()}" is not an amount (write it like 36.500)`,
      code: "not_amount",
    };
  const whole = match[1] || "0";
  const decimals = (match[2] ?? "").replace(/0+$/, "");
  if (decimals.length > 3)
    return {
      ok: false,
      problem: `"${input.trim()}" has more than three decimals; dinar amounts stop at fils (36.500)`,
      code: "decimals",
    };
  const value = Number(whole) * FILS_PER_KWD + Number(decimals.padEnd(3, "0"));
  if (!Number.isSafeInteger(value))
    return { ok: false, problem: `"${input.trim()}" is too large`, code: "too_large" };
  return { ok: true, fils: (negative && value !== 0 ? -value : value) as Fils };
}

/** {@link parseKwd} for amounts the app wrote itself: throws when one is not an amount. */
export function kwdToFils(input: string): Fils {
  const parsed = parseKwd(input);
  if (!parsed.ok) throw new RangeError(`Amount ${parsed.problem}`);
  return parsed.fils;
}

/** Three decimals, always: 36500 → "36.500", -1250 → "-1.250". */
export function formatKwd(amount: Fils): string {
  const sign = amount < 0 ? "-" : "";
  const abs = Math.abs(amount);
  const whole = Math.floor(abs / FILS_PER_KWD);
  const rest = abs - whole * FILS_PER_KWD;
  return `${sign}${whole}.${String(rest).padStart(3, "0")}`;
}

/** For pages: "36.500 KWD", thousands grouped ("1,250.000 KWD"). */
export function displayKwd(amount: Fils): string {
  const [whole = "0", decimals = "000"] = formatKwd(amount).split(".");
  const sign = whole.startsWith("-") ? "-" : "";
  const grouped = whole.replace("-", "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${grouped}.${decimals} KWD`;
}

export function addFils(a: Fils, b: Fils): Fils {
  return fils(a + b);
}

export function subtractFils(a: Fils, b: Fils): Fils {
  return fils(a - b);
}

export function sumFils(amounts: Iterable<Fils>): Fils {
  let total = 0;
  for (const amount of amounts) total += amount;
  return fils(total);
}
