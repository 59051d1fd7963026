/**
 * Wire formats of numbers and times. Kuwait keeps UTC+3 all year (no daylight saving), so its
 * local time is a fixed offset and needs no time-zone database.
 */
const KUWAIT_OFFSET_MS = 3 * 60 * 60 * 1000;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function kuwaitParts(date: Date) {
  const time = date.getTime();
  if (!Number.isFinite(time)) throw new RangeError("Invalid date");
  const local = new Date(time + KUWAIT_OFFSET_MS);
  const year = local.getUTCFullYear();
  if (year < 0 || year > 9999) throw new RangeError(`Year ${year} cannot be written as YYYY`);
  return { local, year };
}

/** `YYYY-MM-DDTHH:MM:SS` in Kuwait local time, without offset (the courier's `pickupDate`). */
export function formatKuwaitDateTime(date: Date): string {
  const { local, year } = kuwaitParts(date);
  return `${pad(year, 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(
    local.getUTCHours(),
  )}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
}

/** `YYYY-MM-DD`: the calendar day in Kuwait at that instant. */
export function formatKuwaitDate(date: Date): string {
  return formatKuwaitDateTime(date).slice(0, 10);
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/;
const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ZONED_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/i;

// Milliseconds since the epoch of a wall-clock time read as UTC, or null when a part is out of
// range: Date.UTC rolls 2025-02-30 over to March and 24:00 over to the next day, a real time maps
// back onto itself.
function wallClock(parts: (string | undefined)[]): number | null {
  const [year, month, day, hour = 0, minute = 0, second = 0] = parts
    .slice(0, 6)
    .map((part) => (part === undefined ? undefined : Number(part)));
  if (year === undefined || month === undefined || day === undefined) return null;
  const fraction = parts[6] ? Number(`0.${parts[6]}`) * 1000 : 0;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, Math.floor(fraction));
  const check = new Date(utc);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    check.getUTCHours() !== hour ||
    check.getUTCMinutes() !== minute ||
    check.getUTCSeconds() !== second
  ) {
    return null;
  }
  return utc;
}

/**
 * The instant a courier local date-time (`YYYY-MM-DDTHH:MM:SS`, optional fraction) stands for, or
 * null when the text is not one or names a day that does not exist (2025-02-30).
 */
export function parseKuwaitDateTime(text: string): Date | null {
  const m = LOCAL_DATE_TIME.exec(text) ?? LOCAL_DATE.exec(text);
  const utc = m ? wallClock(m.slice(1)) : null;
  return utc === null ? null : new Date(utc - KUWAIT_OFFSET_MS);
}

/**
 * The instant an ISO 8601 date-time with an offset (`Z`, `+05:30`; seconds optional) stands for,
 * or null when the text is not one or a part is out of range (2026-02-30, 24:00, +24:00). Checked
 * part by part, where `new Date` would roll an impossible day over into the next month.
 */
export function parseZonedDateTime(text: string): Date | null {
  const m = ZONED_DATE_TIME.exec(text);
  if (!m) return null;
  const utc = wallClock(m.slice(1, 8));
  if (utc === null) return null;
  if (m[8]) return new Date(utc);
  const hours = Number(m[10]);
  const minutes = Number(m[11]);
  if (hours > 23 || minutes > 59) return null;
  const offsetMs = (m[9] === "-" ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  return new Date(utc - offsetMs);
}

/**
 * Rounds half away from zero to `places` decimals, on the decimal digits the number prints as
 * (so 1.0005 gives 1.001, where `toFixed` would give 1.000 from its binary value).
 */
export function roundDecimal(value: number, places: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`Cannot round ${value}`);
  const abs = Math.abs(value);
  // Past 2^53 there are no decimals left to round.
  if (abs >= 2 ** 53 / 10 ** places) return value;
  const [mantissa = "0", exponent = "0"] = String(abs).split("e");
  const shifted = Math.round(Number(`${mantissa}e${Number(exponent) + places}`));
  const rounded = Number(`${shifted}e-${places}`);
  return rounded === 0 ? 0 : Math.sign(value) * rounded;
}

/** An amount of Kuwaiti dinar: three decimals (fils). */
export const roundKwd = (value: number) => roundDecimal(value, 3);

/** A coordinate in decimal degrees: six decimals (about 11 cm). */
export const roundCoordinate = (value: number) => roundDecimal(value, 6);
