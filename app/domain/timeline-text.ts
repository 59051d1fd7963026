import { z } from "zod";

/**
 * Specific sentences a writer may choose for its entry (`EventData.text`), beyond the kind's own:
 * the catalog has each under `timeline.text.<key>`.
 */
export const TIMELINE_TEXTS = [
  "area_not_recognised",
  "area_not_at_courier",
  "area_not_sure",
  "area_doubt_two_areas",
  "area_doubt_only_landmark",
  "area_doubt_only_generic",
  "area_doubt_person_name",
  "area_doubt_could_be",
  "area_doubt_town_or_governorate",
  "area_doubt_part_unclear",
  "area_doubt_governorate_differs",
  "area_doubt_everyday_word",
  "address_missing_block",
  "address_missing_street_or_house",
  "address_missing_block_and_street_or_house",
  "no_pickup_address",
  "courier_areas_not_loaded",
  "ready_cod",
  "ready_prepaid",
  "ready_collected_elsewhere",
  "tried_again",
  "sent_again",
  "found_in_history",
  "address_corrected",
  "address_corrected_remembered",
  "place_unreadable",
  "shopper_confirmed",
  "shopper_fixed",
  "shopper_fixed_after_booking",
  "shopper_cash_confirmed",
  "merchant_answered_for_shopper",
] as const;
export type TimelineText = (typeof TIMELINE_TEXTS)[number];

export type SentenceParams = Record<string, string | number>;

/** What a writer stores in `EventData.text`. */
export const eventTextSchema = z.object({
  key: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type EventText = z.output<typeof eventTextSchema>;

export function eventText(key: TimelineText, params: SentenceParams = {}): EventText {
  return { key, params };
}
