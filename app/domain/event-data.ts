import { z } from "zod";
import { jsonColumn } from "./json-column";
import { eventTextSchema } from "./timeline-text";

/**
 * `DeliveryEvent.data`: what a timeline entry keeps beside its message. The courier's answer
 * (`courier`, ADR 0029: ids, statuses and messages, never personal data), or for a courier
 * status the status, its name, the delivery state it meant, when it happened and what Shopify
 * was told. Other keys are kept as written. customers/redact empties it.
 */
export const eventDataSchema = z.looseObject({
  courier: z.record(z.string(), z.unknown()).optional(),
  status: z.string().optional(),
  name: z.string().nullish(),
  state: z.string().nullish(),
  at: z.string().nullish(),
  shopify: z.string().nullish(),
  shopifyOwed: z.string().nullish(),
  /** The entry's sentence when the writer chose one beyond its kind's (ADR 0043). */
  text: eventTextSchema.optional(),
});

export type EventData = z.output<typeof eventDataSchema>;

export const eventDataColumn = jsonColumn("DeliveryEvent.data", eventDataSchema);
