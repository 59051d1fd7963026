/**
 * A day chosen with three lists (day, month, year) instead of the browser's date box, which
 * writes dates in the browser's language, not the page's. Pure: "2026-02-30" is no day.
 */
export function dayFromParts(day: string, month: string, year: string): string | null {
  const d = Number(day);
  const m = Number(month);
  const y = Number(year);
  if (!Number.isInteger(d) || !Number.isInteger(m) || !Number.isInteger(y)) return null;
  if (m < 1 || m > 12 || d < 1 || y < 2000 || y > 2100) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return date.toISOString().slice(0, 10);
}

/** "14:05" from an hour and a minute chosen in lists; null when either is not a clock value. */
export function timeFromParts(hour: string, minute: string): string | null {
  const h = Number(hour);
  const m = Number(minute);
  if (hour === "" || minute === "" || !Number.isInteger(h) || !Number.isInteger(m)) return null;
  if (h < 0 || h > 23 || m < 0 || m > 59) return null;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}
