import { z } from "zod";

// Only the fields the app reads; Shopify sends more. Ids arrive as numbers and are kept as strings.
const id = z.union([z.number(), z.string()]).transform(String);

export const scopesUpdatePayload = z.object({
  current: z.array(z.string()),
  previous: z.array(z.string()).optional(),
});

export const customersDataRequestPayload = z.object({
  customer: z.object({ id }).nullish(),
  orders_requested: z.array(id).default([]),
});

export const customersRedactPayload = z.object({
  customer: z.object({ id }).nullish(),
  orders_to_redact: z.array(id).default([]),
});
