import type { Language } from "./config";

/**
 * Money, dates and numbers in the page's language. Digits stay Latin in Arabic too (`nu-latn`):
 * order, courier and phone numbers are written that way in Kuwait and must read the same beside
 * an amount. Money is always Kuwaiti dinars with three decimals (fils); times are Kuwait's.
 */
const TIME_ZONE = "Asia/Kuwait";
const LOCALES: Record<Language, string> = { en: "en-KW", ar: "ar-KW-u-nu-latn" };

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let format = cache.get(key) as T | undefined;
  if (!format) cache.set(key, (format = make()));
  return format;
}

/** 36 → "KWD 36.000" / "‏36.000 د.ك.‏"; text amounts ("12.5") as stored are accepted. */
export function formatKwd(amount: number | string, language: Language): string {
  const value = typeof amount === "string" ? Number(amount) : amount;
  const format = cached(
    `kwd:${language}`,
    () =>
      new Intl.NumberFormat(LOCALES[language], {
        style: "currency",
        currency: "KWD",
        minimumFractionDigits: 3,
        maximumFractionDigits: 3,
      }),
  );
  return format.format(Number.isFinite(value) ? value : 0);
}

export function formatNumber(value: number, language: Language): string {
  return cached(`n:${language}`, () => new Intl.NumberFormat(LOCALES[language])).format(value);
}

/** A moment in Kuwait's time: "25 Nov 2026, 14:05" / "25 نوفمبر 2026، 14:05". */
export function formatDateTime(at: Date | string, language: Language): string {
  return cached(
    `dt:${language}`,
    () =>
      new Intl.DateTimeFormat(LOCALES[language], {
        dateStyle: "medium",
        timeStyle: "short",
        timeZone: TIME_ZONE,
        hourCycle: "h23",
      }),
  ).format(new Date(at));
}

export function formatDate(at: Date | string, language: Language): string {
  return cached(
    `d:${language}`,
    () => new Intl.DateTimeFormat(LOCALES[language], { dateStyle: "medium", timeZone: TIME_ZONE }),
  ).format(new Date(at));
}
