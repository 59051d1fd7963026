import { z } from "zod";
import { jsonColumn } from "./json-column";

/**
 * `Delivery.lineItemsRead`: a fulfillment's line items read so far, as parcel items, and the
 * cursor of the page after them, kept while Shopify's cost budget holds the rest of the read back
 * (issue 24). In the row, not in a process's memory: the next attempt may be another worker
 * process's (ADR 0009). Product titles, quantities, weights and prices; nothing of the customer.
 */
export const parcelItemSchema = z.object({
  title: z.string(),
  quantity: z.number(),
  unitWeightKg: z.number().nullable(),
  value: z.object({ shop: z.number(), presentment: z.number() }),
});

export const lineItemsReadSchema = z.object({
  cursor: z.string(),
  items: z.array(parcelItemSchema),
});

export type LineItemsRead = z.output<typeof lineItemsReadSchema>;

export const lineItemsReadColumn = jsonColumn("Delivery.lineItemsRead", lineItemsReadSchema);
