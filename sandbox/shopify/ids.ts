/** The resource types whose global ids the stand-in issues. */
export type ResourceType =
  | "DeliveryCarrierService"
  | "Fulfillment"
  | "FulfillmentEvent"
  | "FulfillmentHold"
  | "FulfillmentLineItem"
  | "FulfillmentOrder"
  | "FulfillmentOrderDestination"
  | "FulfillmentOrderLineItem"
  | "InventoryItem"
  | "InventoryItemMeasurement"
  | "Job"
  | "LineItem"
  | "Location"
  | "MailingAddress"
  | "Metafield"
  | "Order"
  | "ProductVariant"
  | "Shop";

/** `gid://shopify/Order/5730120000001`, as Shopify writes a global id. */
export function gid(type: ResourceType, id: number | string): string {
  return `gid://shopify/${type}/${id}`;
}

/** The type and numeric id of a global id, or null when it is not one (query strings ignored). */
export function parseGid(value: string): { type: string; id: number } | null {
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)(?:\?.*)?$/.exec(value);
  if (!match?.[1] || !match[2]) return null;
  const id = Number(match[2]);
  return Number.isSafeInteger(id) ? { type: match[1], id } : null;
}

/**
 * Numeric ids the way Shopify's look: 13 digits, one sequence for every resource of a store, so an
 * order id is never also a fulfillment id and never equal to the order number ("#1001").
 */
export class IdSequence {
  private next: number;

  constructor(start = 5_730_120_000_001) {
    this.next = start;
  }

  take(): number {
    return this.next++;
  }
}
