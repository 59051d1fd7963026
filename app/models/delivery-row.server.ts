import type { Delivery, DeliveryEvent } from "@prisma/client";
import { addressMatchColumn, type StoredMatch } from "../domain/address-match";
import { shopifyEventStatusSchema, type ShopifyEventStatus } from "../domain/courier-status";
import { eventDataColumn, type EventData } from "../domain/event-data";
import { Unreadable } from "../domain/json-column";
import { lineItemsReadColumn, type LineItemsRead } from "../domain/line-items-read";
import { shopifyPendingColumn, type OwedShopifyEvent } from "../domain/owed-shopify-event";
import { parseState, type DeliveryState } from "../domain/states";
import { requestColumn, type StoredRequest } from "../domain/stored-request";
import { readWaitKind, type WaitKind } from "../domain/waits";
import { parseEnvironment, type CourierEnvironment } from "./shop.server";

/**
 * A delivery as the app reads it: its state and environment typed and its JSON columns decoded
 * once, here, where rows leave the database (every models function that returns deliveries
 * returns these). A JSON value that does not read back is an {@link Unreadable}, for the reader
 * to deal with.
 */
export type DeliveryRow = Omit<
  Delivery,
  | "state"
  | "environment"
  | "shopifyEventStatus"
  | "request"
  | "addressMatch"
  | "shopifyPending"
  | "lineItemsRead"
  | "waitingFor"
> & {
  state: DeliveryState;
  environment: CourierEnvironment;
  /** The shipment status Shopify last took; one Shopify does not have is an Unreadable. */
  shopifyEventStatus: ShopifyEventStatus | Unreadable | null;
  request: StoredRequest | Unreadable | null;
  addressMatch: StoredMatch | Unreadable | null;
  shopifyPending: OwedShopifyEvent | Unreadable | null;
  lineItemsRead: LineItemsRead | Unreadable | null;
  /** What an uncounted wait waits for; one the app no longer knows reads as none. */
  waitingFor: WaitKind | null;
};

export type DeliveryEventRow = Omit<DeliveryEvent, "data"> & {
  data: EventData | Unreadable | null;
};

export function deliveryRow(row: Delivery): DeliveryRow {
  return {
    ...row,
    state: parseState(row.state),
    environment: parseEnvironment(row.environment),
    shopifyEventStatus: readShopifyEventStatus(row.shopifyEventStatus),
    request: requestColumn.decodeNullable(row.request),
    addressMatch: addressMatchColumn.decodeNullable(row.addressMatch),
    shopifyPending: shopifyPendingColumn.decodeNullable(row.shopifyPending),
    lineItemsRead: lineItemsReadColumn.decodeNullable(row.lineItemsRead),
    waitingFor: readWaitKind(row.waitingFor),
  };
}

function readShopifyEventStatus(value: string | null): ShopifyEventStatus | Unreadable | null {
  if (value === null) return null;
  const parsed = shopifyEventStatusSchema.safeParse(value);
  return parsed.success
    ? parsed.data
    : new Unreadable("Delivery.shopifyEventStatus", "not a Shopify shipment status", value);
}

export function deliveryEventRow(row: DeliveryEvent): DeliveryEventRow {
  return { ...row, data: eventDataColumn.decodeNullable(row.data) };
}
