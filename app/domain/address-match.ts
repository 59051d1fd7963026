import { z } from "zod";
import { addressDoubtSchema } from "./address-doubt";
import { jsonColumn } from "./json-column";

/**
 * `Delivery.addressMatch`: how the worker placed the shipping address (prepare), kept for the
 * address review page, "Send again" (which rebuilds the request for the place chosen before) and
 * the label. customers/redact empties it.
 *
 * Every field is optional: rows written before the shopper's input was kept have no `input`, and
 * a place the merchant chose by hand may have only `courier`, `parts` and `fixedByMerchant`.
 * Fields no longer written are dropped when read.
 */
const text = z.string().nullish();

export const storedMatchSchema = z.object({
  /** What the shopper typed; personal data. */
  input: z
    .object({ city: text, address1: text, address2: text, provinceCode: text, zip: text })
    .optional(),
  /** The gazetteer's English names of the area and governorate recognised, if any. */
  area: text,
  governorate: text,
  confidence: z.number().optional(),
  confident: z.boolean().optional(),
  reasons: z.array(z.string()).optional(),
  /** Why the matcher was not sure, as data (app/addresses/doubt.ts); none on older rows. */
  doubt: addressDoubtSchema.nullish().catch(null),
  overrideKey: text,
  parts: z
    .object({
      block: text,
      street: text,
      avenue: text,
      house: text,
      building: text,
      floor: text,
      apartment: text,
      paci: text,
    })
    .optional(),
  /** The courier's ids of the place the request was (or is to be) built for. */
  courier: z.object({ governanceId: z.int(), areaId: z.int() }).nullish(),
  /** The merchant chose the place on the address review page or corrected it on the fix page. */
  fixedByMerchant: z.boolean().optional(),
  /** The customer's phone as the merchant corrected it; personal data. */
  contactPhone: text,
  /** The shopper gave the place on their page (issue 26): with their notes and pin. */
  fromShopper: z.boolean().optional(),
  shopperNotes: text,
  location: z.object({ latitude: z.number(), longitude: z.number() }).nullish(),
});

export type StoredMatch = z.output<typeof storedMatchSchema>;

export const addressMatchColumn = jsonColumn("Delivery.addressMatch", storedMatchSchema);
