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

const text = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

/** orders/create (REST shape): what asking the shopper reads of a new order (issue 26). */
export const ordersCreatePayload = z.object({
  admin_graphql_api_id: z.string().regex(/^gid:\/\/shopify\/Order\/\d+$/),
  name: text,
  confirmation_number: text,
  phone: text,
  customer_locale: text,
  currency: z.string(),
  financial_status: text,
  total_outstanding: z.union([z.string(), z.number()]).nullish(),
  cancelled_at: text,
  shipping_address: z
    .object({
      first_name: text,
      last_name: text,
      address1: text,
      address2: text,
      city: text,
      province_code: text,
      zip: text,
      country_code: text,
      phone: text,
    })
    .nullish(),
  line_items: z.array(z.object({ title: z.string(), quantity: z.number() })).default([]),
});
export type OrdersCreatePayload = z.infer<typeof ordersCreatePayload>;
