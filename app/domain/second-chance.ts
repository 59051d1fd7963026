import { z } from "zod";
import { normalizeDigits } from "../addresses/normalize";
import { normalizeKuwaitiPhone } from "./contact-phone";
import { kuwaitDay, nextWorkingDay } from "./working-days";

/**
 * A second chance after a failed attempt (issue 27, item 5). Pure: when the order's ask opens
 * again for a delivery the courier could not deliver, what it asks, the shopper's phone and
 * "when will you be in", and what of it goes into the courier's notes.
 *
 *   (no ask, or any ask) ─► asked (after_failed_attempt, round + 1) ─► answered ─► sent again
 */
export const ASK_KINDS = ["before_sending", "after_failed_attempt"] as const;
export type AskKind = (typeof ASK_KINDS)[number];
export const askKind = z.enum(ASK_KINDS);

export type SecondChanceCause = "courier_failed_attempt" | "courier_exception";

/** How long the link of a second chance works at least, from its opening. */
export const SECOND_CHANCE_LINK_DAYS = 7;

/**
 * Whether a failed attempt (or an exception) of `deliveryId` opens the order's ask again: not
 * when the ask is already open for that very delivery and not answered yet — a status read
 * twice, a second exception about the same attempt — so the shopper gets one message per
 * failure the courier reported, and a second failed attempt after an answer opens a new round.
 */
export function opensSecondChance(
  ask: { kind: AskKind; state: string; deliveryId: string | null } | null,
  deliveryId: string,
  cause: SecondChanceCause,
): boolean {
  if (!ask) return true;
  const forThisDelivery = ask.kind === "after_failed_attempt" && ask.deliveryId === deliveryId;
  // The courier reports one failed attempt as a status and as an exception, read at different
  // times: an exception about a delivery already given its second chance opens nothing.
  if (cause === "courier_exception") return !forThisDelivery;
  return !(forThisDelivery && ask.state === "asked");
}

/** Parts of the day a shopper can be in, as the courier's drivers plan their rounds. */
export const DAY_PARTS = ["morning", "afternoon", "evening"] as const;
export type DayPart = (typeof DAY_PARTS)[number];

/** How many working days the shopper may choose from. */
export const WHEN_DAYS = 4;

/** The next few working days in Kuwait ("YYYY-MM-DD"), starting tomorrow (Friday, Saturday off). */
export function whenChoices(now: Date, count = WHEN_DAYS): string[] {
  const days: string[] = [];
  let day = kuwaitDay(now);
  while (days.length < count) {
    day = nextWorkingDay(day);
    days.push(day);
  }
  return days;
}

/** When the shopper will be in, as kept on the answer. */
export const availability = z.object({
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  part: z.enum(DAY_PARTS),
  note: z.string().nullable(),
});
export type Availability = z.infer<typeof availability>;

const KUWAIT_PREFIX = /^(\+965|00965)/;

/**
 * A phone the shopper gives for the driver: a Kuwaiti mobile (8 digits from 5, 6 or 9, with or
 * without +965), or another country's number written with its code (+ or 00, 8 to 15 digits).
 * Kept as +965XXXXXXXX or +<digits>; null when it is neither (a Kuwaiti landline included: the
 * driver calls on the way, and a landline is not answered from the road).
 */
export function shopperPhone(typed: string): string | null {
  const written = normalizeDigits(typed).replace(/[\s\-().\u200e\u200f]/g, "");
  const kuwaiti = normalizeKuwaitiPhone(written);
  if (kuwaiti) return /^\+965[569]/.test(kuwaiti) ? kuwaiti : null;
  if (KUWAIT_PREFIX.test(written)) return null;
  const international = /^(?:\+|00)(\d{8,15})$/.exec(written);
  return international ? `+${international[1]}` : null;
}

const DAY_PART_WORDS: Record<DayPart, string> = {
  morning: "morning (9-12)",
  afternoon: "afternoon (12-5)",
  evening: "evening (5-9)",
};

/** The courier's note for the driver: when the customer said they will be in (English). */
export function availabilityNote(when: Availability): string {
  const weekday = new Date(`${when.day}T00:00:00Z`).toLocaleDateString("en-GB", {
    weekday: "long",
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  });
  const note = when.note ? ` (${when.note})` : "";
  return `Customer is in on ${weekday}, ${DAY_PART_WORDS[when.part]}${note}.`;
}

/** The answer's notes for the driver with the customer's time put first. */
export function notesWithAvailability(
  notes: string | null,
  when: Availability | null | undefined,
): string | null {
  if (!when) return notes;
  return [availabilityNote(when), notes].filter(Boolean).join(" ");
}
