import type { Language } from "./config";

/**
 * Money, dates and numbers in the page's language. Digits stay Latin in Arabic too (`nu-latn`):
 * order, courier and phone numbers are written that way in Kuwait and must read the same beside
 * an amount. Money is always Kuwaiti dinars with three decimals (fils); times are Kuwait's.
 */
const TIME_ZONE = "Asia/Kuwait";
const LOCALES: Record<Language, string> = { en: "en-KW", ar: "ar-KW-u-nu-latn" };

type Format = Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat;
const cache = new Map<string, Format>();
function cached<T extends Format>(key: string, make: () => T): T {
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

// The shopper's page writes days the way people in Kuwait say them, day before month (British
// English; Arabic month names), and times on the 12-hour clock.
const SHOPPER_LOCALES: Record<Language, string> = { en: "en-GB", ar: "ar-KW-u-nu-latn" };

/** A Kuwait date ("2026-11-30") as a day: "Monday 30 November" / "الاثنين، 30 نوفمبر". */
export function formatShopperDay(day: string, language: Language): string {
  return cached(
    `sd:${language}`,
    () =>
      new Intl.DateTimeFormat(SHOPPER_LOCALES[language], {
        weekday: "long",
        day: "numeric",
        month: "long",
        timeZone: "UTC",
      }),
  ).format(new Date(`${day}T00:00:00Z`));
}

/** A moment in Kuwait's time for a shopper: "Sun 29 Nov, 2:05 pm" / "الأحد، 29 نوفمبر، 2:05 م". */
export function formatShopperMoment(at: Date | string, language: Language): string {
  return cached(
    `sm:${language}`,
    () =>
      new Intl.DateTimeFormat(SHOPPER_LOCALES[language], {
        weekday: "short",
        day: "numeric",
        month: "short",
        hour: "numeric",
        minute: "2-digit",
        hour12: true,
        timeZone: TIME_ZONE,
      }),
  ).format(new Date(at));
}

/** How long ago, in the page's language: "5 minutes ago" / "قبل 5 دقائق". */
export function formatTimeAgo(at: Date | string, now: Date | string, language: Language): string {
  const seconds = (new Date(at).getTime() - new Date(now).getTime()) / 1000;
  const format = cached(
    `ago:${language}`,
    () => new Intl.RelativeTimeFormat(LOCALES[language], { numeric: "auto" }),
  );
  const steps: [number, Intl.RelativeTimeFormatUnit][] = [
    [60, "second"],
    [60, "minute"],
    [24, "hour"],
    [Number.POSITIVE_INFINITY, "day"],
  ];
  let value = Math.min(seconds, 0);
  for (const [size, unit] of steps) {
    if (Math.abs(value) < size || unit === "day") return format.format(Math.round(value), unit);
    value /= size;
  }
  return format.format(Math.round(value), "day");
}

/** A share as a whole percentage: 0.625 → "63%" / "63٪". */
export function formatPercent(share: number, language: Language): string {
  return cached(
    `pct:${language}`,
    () => new Intl.NumberFormat(LOCALES[language], { style: "percent", maximumFractionDigits: 0 }),
  ).format(share);
}

/** A Kuwait date ("2026-12-31") with its weekday and year: "Thursday 31 December 2026". */
export function formatLongDay(day: string, language: Language): string {
  return cached(
    `ld:${language}`,
    () =>
      new Intl.DateTimeFormat(SHOPPER_LOCALES[language], {
        weekday: "long",
        day: "numeric",
        month: "long",
        year: "numeric",
        timeZone: "UTC",
      }),
  ).format(new Date(`${day}T00:00:00Z`));
}

/** The twelve months' names in the page's language: "January"… / "يناير"…, for date choices. */
export function monthNames(language: Language): string[] {
  const format = cached(
    `mn:${language}`,
    () => new Intl.DateTimeFormat(SHOPPER_LOCALES[language], { month: "long", timeZone: "UTC" }),
  );
  return Array.from({ length: 12 }, (_, month) => format.format(Date.UTC(2026, month, 1)));
}
