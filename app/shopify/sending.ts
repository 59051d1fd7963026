import { z } from "zod";
import type { OrderForDelivery } from "../domain/request";
import {
  amountsOf,
  ORDER_AMOUNT_FIELDS,
  orderAmounts,
  PARCEL_LINE_ITEM_FIELDS,
  parcelItem,
  parcelLineItem,
} from "./fulfillments";
import { shopifyFailureKind } from "./fulfillment-events";
import { runAdminOperation, type AdminGraphql } from "./graphql";

/**
 * The Admin operations "Send to courier" needs beyond orders.ts: the Send page's list, a page at a
 * time; what a fulfillment order carries (for the price quote); what became of a fulfillment
 * order after Shopify's answer to fulfillmentCreate was lost; and waiting out Shopify's throttle.
 */

/** Orders per page of the Send page: 4 points each, so a page asks for about 200 of the 1,000. */
export const ORDER_PAGE_SIZE = 50;

const SENDABLE_ORDER_PAGE = `#graphql
  query SendableOrderPage($first: Int!, $after: String, $query: String) {
    orders(first: $first, after: $after, query: $query, sortKey: CREATED_AT, reverse: true) {
      nodes {
        id
        name
        createdAt
        displayFinancialStatus
        totalPriceSet { shopMoney { amount currencyCode } }
        shippingAddress { name city countryCodeV2 }
      }
      pageInfo { hasNextPage endCursor }
    }
  }`;

const orderRow = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  displayFinancialStatus: z.string().nullable(),
  totalPriceSet: z.object({
    shopMoney: z.object({ amount: z.string(), currencyCode: z.string() }),
  }),
  shippingAddress: z
    .object({
      name: z.string().nullish(),
      city: z.string().nullable(),
      countryCodeV2: z.string().nullable(),
    })
    .nullable(),
});

const orderPageReply = z.object({
  orders: z.object({
    nodes: z.array(orderRow),
    pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
  }),
});

export type SendableOrderRow = z.infer<typeof orderRow>;

export interface SendableOrderPage {
  orders: SendableOrderRow[];
  /** Where the next page starts; null when this was the last one. */
  nextCursor: string | null;
}

/**
 * One page of unfulfilled open orders, newest first; `after` is the previous page's cursor.
 * `search`: more terms of Shopify's order search syntax (a name, a customer, created_at bounds).
 */
export async function fetchSendableOrderPage(
  admin: AdminGraphql,
  after: string | null = null,
  first = ORDER_PAGE_SIZE,
  search: readonly string[] = [],
): Promise<SendableOrderPage> {
  const data = await whenShopifyAllows(() =>
    runAdminOperation(admin, "SendableOrderPage", SENDABLE_ORDER_PAGE, orderPageReply, {
      first,
      after,
      query: ["fulfillment_status:unshipped", "status:open", ...search].join(" AND "),
    }),
  );
  const { nodes, pageInfo } = data.orders;
  return { orders: nodes, nextCursor: pageInfo.hasNextPage ? pageInfo.endCursor : null };
}

// The same weights the delivery is built from (fulfillments.ts reads a fulfillment's line items
// the same way): 50 lines at 6 points each stays well under the 1,000-point limit.
const FULFILLMENT_ORDER_PARCEL = `#graphql
  query SendFulfillmentOrderParcel($id: ID!) {
    fulfillmentOrder(id: $id) {
      id
      status
      lineItems(first: 50) {
        nodes {
          remainingQuantity
          lineItem { ${PARCEL_LINE_ITEM_FIELDS} }
        }
      }
      order { ${ORDER_AMOUNT_FIELDS} }
    }
  }`;

const parcelReply = z.object({
  fulfillmentOrder: z
    .object({
      id: z.string(),
      status: z.string(),
      lineItems: z.object({
        nodes: z.array(z.object({ remainingQuantity: z.number(), lineItem: parcelLineItem })),
      }),
      order: orderAmounts,
    })
    .nullable(),
});

/** What fulfilling the whole fulfillment order would ship, as the delivery's order and items. */
export type FulfillmentOrderParcel = Pick<
  OrderForDelivery,
  "currencyCode" | "totalPrice" | "totalOutstanding" | "presentment" | "items"
>;

/** What fulfilling this fulfillment order in full would put in the parcel; null when it is gone. */
export async function fetchFulfillmentOrderParcel(
  admin: AdminGraphql,
  fulfillmentOrderId: string,
): Promise<FulfillmentOrderParcel | null> {
  const data = await runAdminOperation(
    admin,
    "SendFulfillmentOrderParcel",
    FULFILLMENT_ORDER_PARCEL,
    parcelReply,
    { id: fulfillmentOrderId },
  );
  const fo = data.fulfillmentOrder;
  if (!fo) return null;
  return {
    items: fo.lineItems.nodes
      .filter((node) => node.remainingQuantity > 0)
      .map((node) => parcelItem(node.lineItem, node.remainingQuantity)),
    ...amountsOf(fo.order),
  };
}

const FULFILLMENT_ORDER_OUTCOME = `#graphql
  query SendFulfillmentOrderOutcome($id: ID!) {
    fulfillmentOrder(id: $id) {
      status
      fulfillments(first: 5, reverse: true) { nodes { id status } }
    }
  }`;

const outcomeReply = z.object({
  fulfillmentOrder: z
    .object({
      status: z.string(),
      fulfillments: z.object({
        nodes: z.array(z.object({ id: z.string(), status: z.string() })),
      }),
    })
    .nullable(),
});

export type FulfillmentOrderOutcome =
  /** Still open: Shopify did not fulfil it. */
  | { kind: "open" }
  /** Fulfilled: the newest live fulfillment drawn from it. */
  | { kind: "fulfilled"; fulfillmentId: string }
  /** Neither (closed without a live fulfillment, cancelled, on hold, gone). */
  | { kind: "other"; status: string | null };

/**
 * What became of a fulfillment order, asked after fulfillmentCreate failed without a clear
 * answer: the fulfillment order, not the lost reply, says whether Shopify fulfilled it.
 */
export async function readFulfillmentOrderOutcome(
  admin: AdminGraphql,
  fulfillmentOrderId: string,
): Promise<FulfillmentOrderOutcome> {
  const data = await runAdminOperation(
    admin,
    "SendFulfillmentOrderOutcome",
    FULFILLMENT_ORDER_OUTCOME,
    outcomeReply,
    { id: fulfillmentOrderId },
  );
  const fo = data.fulfillmentOrder;
  if (!fo) return { kind: "other", status: null };
  const live = fo.fulfillments.nodes.find((f) => f.status !== "CANCELLED");
  if (live && fo.status !== "OPEN") return { kind: "fulfilled", fulfillmentId: live.id };
  if (fo.status === "OPEN") return { kind: "open" };
  return { kind: "other", status: fo.status };
}

/**
 * Runs a Shopify call, waiting and trying again while Shopify says it is throttled (a THROTTLED
 * reply or a 429: nothing was done). The bucket refills 100 points a second, so a second is
 * enough for a 10-point mutation and a few seconds for a page of orders.
 */
export async function whenShopifyAllows<T>(
  call: () => Promise<T>,
  { tries = 6, waitMs = 1_000 }: { tries?: number; waitMs?: number } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= tries || shopifyFailureKind(error) !== "throttled") throw error;
      await new Promise((resolve) => setTimeout(resolve, waitMs * Math.min(attempt, 3)));
    }
  }
}
