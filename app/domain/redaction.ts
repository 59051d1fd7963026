import { z } from "zod";
import { createOrderSchema } from "../courier/requests";

/**
 * Erasing a customer from a stored courier request (customers/redact). Pure: the request as
 * stored in, the same request without the customer's contact and address details out.
 */

const erased = z.literal("").optional();

/** Fields of the delivery address that identify or locate the customer: emptied. */
const PERSONAL_ADDRESS_FIELDS = {
  contactName: erased,
  contactPhone: erased,
  block: erased,
  street: erased,
  house: erased,
  building: erased,
  floor: erased,
  avenue: erased,
  office: erased,
  notes: erased,
};
const COORDINATES = ["latitude", "longitude"] as const;

/** A delivery address as {@link redactDeliveryRequest} leaves it: the place's ids, nothing personal. */
export const erasedAddressSchema = z.object({
  governanceId: z.int(),
  areaId: z.int(),
  contactCountryCode: z.string().optional(),
  ...PERSONAL_ADDRESS_FIELDS,
});

/** A request the app built, after {@link redactDeliveryRequest}: never sent again. */
export const erasedRequestSchema = createOrderSchema.extend({
  deliveryAddress: erasedAddressSchema.nullable(),
});
export type ErasedRequest = z.output<typeof erasedRequestSchema>;

/**
 * The stored request with the delivery address's personal fields emptied and its coordinates
 * removed. The governance and area ids, the pickup address (the merchant's), the package and the
 * order-level notes (the app's reference and the Shopify order name) stay. Text that is not a
 * JSON object is dropped whole: nothing unknown is kept.
 */
export function redactDeliveryRequest(stored: string): Record<string, unknown> | null {
  let request: unknown;
  try {
    request = JSON.parse(stored);
  } catch {
    return null;
  }
  if (!isObject(request)) return null;
  const address = request.deliveryAddress;
  if (!isObject(address)) return { ...request, deliveryAddress: null };
  const redacted: Record<string, unknown> = { ...address };
  for (const field of Object.keys(PERSONAL_ADDRESS_FIELDS))
    if (field in redacted) redacted[field] = "";
  for (const field of COORDINATES) delete redacted[field];

  return { ...request, deliveryAddress: redacted };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
