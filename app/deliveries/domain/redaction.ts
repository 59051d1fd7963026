/**
 * Erasing a customer from a stored courier request (customers/redact). Pure: the request as
 * stored in, the same request without the customer's contact and address details out.
 */

/** Fields of the delivery address that identify or locate the customer. */
const PERSONAL_ADDRESS_FIELDS = [
  "contactName",
  "contactPhone",
  "block",
  "street",
  "house",
  "building",
  "floor",
  "avenue",
  "office",
  "notes",
] as const;
const COORDINATES = ["latitude", "longitude"] as const;

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
  for (const field of PERSONAL_ADDRESS_FIELDS) if (field in redacted) redacted[field] = "";
  for (const field of COORDINATES) delete redacted[field];

  return { ...request, deliveryAddress: redacted };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
