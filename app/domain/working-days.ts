/**
 * Kuwait's working days: the weekend is Friday and Saturday, the clock Asia/Kuwait (UTC+3, no
 * daylight saving). Dates are "YYYY-MM-DD" in Kuwait.
 */
const KUWAIT_OFFSET_MS = 3 * 3_600_000;
const DAY_MS = 24 * 3_600_000;

/** The Kuwait date of an instant. */
export function kuwaitDay(at: Date): string {
  return new Date(at.getTime() + KUWAIT_OFFSET_MS).toISOString().slice(0, 10);
}

/** Friday (5) and Saturday (6), or a holiday the merchant entered. */
export function isWorkingDay(day: string, holidays: readonly string[] = []): boolean {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return weekday !== 5 && weekday !== 6 && !holidays.includes(day);
}

/** The first working day after `day`. */
export function nextWorkingDay(day: string, holidays: readonly string[] = []): string {
  let at = Date.parse(`${day}T00:00:00Z`);
  for (let i = 0; i < 60; i += 1) {
    at += DAY_MS;
    const candidate = new Date(at).toISOString().slice(0, 10);
    if (isWorkingDay(candidate, holidays)) return candidate;
  }
  return new Date(at).toISOString().slice(0, 10);
}

/**
 * The day a parcel picked up on `pickupDate` (the courier's local "YYYY-MM-DDTHH:MM:SS") is
 * expected: the courier's own promise is not published, so the next working day after pickup.
 */
export function expectedDeliveryDay(pickupDate: string, holidays: readonly string[] = []): string {
  return nextWorkingDay(pickupDate.slice(0, 10), holidays);
}
