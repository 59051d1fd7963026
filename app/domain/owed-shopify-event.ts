import { z } from "zod";
import { jsonColumn } from "./json-column";
import { shopifyEventStatusSchema } from "./courier-status";

/**
 * `Delivery.shopifyPending`: the latest shipment status Shopify refused, which the app still
 * owes it and tries again with backoff (ADR 0008). Null when nothing is owed.
 */
export const owedShopifyEventSchema = z.object({
  status: shopifyEventStatusSchema,
  happenedAt: z.string().nullable(),
  message: z.string(),
});

export type OwedShopifyEvent = z.output<typeof owedShopifyEventSchema>;

export const shopifyPendingColumn = jsonColumn("Delivery.shopifyPending", owedShopifyEventSchema);
