import type { Delivery, DeliveryEvent } from "@prisma/client";
import { addressMatchColumn, type StoredMatch } from "../deliveries/domain/address-match";
import { eventDataColumn, type EventData } from "../deliveries/domain/event-data";
import type { Unreadable } from "../deliveries/domain/json-column";
import {
  shopifyPendingColumn,
  type OwedShopifyEvent,
} from "../deliveries/domain/owed-shopify-event";
import { parseState, type DeliveryState } from "../deliveries/domain/states";
import { requestColumn, type StoredRequest } from "../deliveries/domain/stored-request";
import { parseEnvironment, type CourierEnvironment } from "./shop.server";

/**
 * A delivery as the app reads it: its state and environment typed and its JSON columns decoded
 * once, here, where rows leave the database (every models function that returns deliveries
 * returns these). A JSON value that does not read back is an {@link Unreadable}, for the reader
 * to deal with.
 */
export type DeliveryRow = Omit<
  Delivery,
  "state" | "environment" | "request" | "addressMatch" | "shopifyPending"
> & {
  state: DeliveryState;
  environment: CourierEnvironment;
  request: StoredRequest | Unreadable | null;
  addressMatch: StoredMatch | Unreadable | null;
  shopifyPending: OwedShopifyEvent | Unreadable | null;
};

export type DeliveryEventRow = Omit<DeliveryEvent, "data"> & {
  data: EventData | Unreadable | null;
};

export function deliveryRow(row: Delivery): DeliveryRow {
  return {
    ...row,
    state: parseState(row.state),
    environment: parseEnvironment(row.environment),
    request: requestColumn.decodeNullable(row.request),
    addressMatch: addressMatchColumn.decodeNullable(row.addressMatch),
    shopifyPending: shopifyPendingColumn.decodeNullable(row.shopifyPending),
  };
}

export function deliveryEventRow(row: DeliveryEvent): DeliveryEventRow {
  return { ...row, data: eventDataColumn.decodeNullable(row.data) };
}
