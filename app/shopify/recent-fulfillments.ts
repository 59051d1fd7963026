import { z } from "zod";
import { runAdminOperation, type AdminGraphql } from "./graphql";

/**
 * Orders updated since a time, with their fulfillments: what the check for missed
 * fulfillments/create webhooks reads (ADR 0013). Only the fields the webhook's intake reads, 10
 * orders a page and 10 fulfillments an order: about 220 points requested a page, 40 or so used.
 */
export const RECENT_ORDERS_PAGE = 10;

const RECENT_FULFILLMENTS = `#graphql
  query RecentFulfillments($first: Int!, $after: String, $query: String!) {
    orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
      nodes {
        id
        name
        shippingAddress { countryCodeV2 }
        fulfillments(first: 10) {
          id
          status
          createdAt
          location { id }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }`;

const recentReply = z.object({
  orders: z.object({
    nodes: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        shippingAddress: z.object({ countryCodeV2: z.string().nullable() }).nullable(),
        fulfillments: z.array(
          z.object({
            id: z.string(),
            status: z.string(),
            createdAt: z.string(),
            location: z.object({ id: z.string() }).nullable(),
          }),
        ),
      }),
    ),
    pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
  }),
});

export interface RecentFulfillment {
  fulfillmentId: string;
  orderId: string;
  orderName: string;
  /** Shopify's FulfillmentStatus (SUCCESS, CANCELLED, …). */
  status: string;
  createdAt: Date;
  locationId: string | null;
  countryCode: string | null;
}

/** Shopify's search time: `2026-11-25T03:00:00Z` (the search syntax wants no milliseconds). */
function searchTime(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * One page of the fulfillments of orders updated at or after `since` (orders with no fulfillment
 * are left out by the search); `after` is the previous page's cursor.
 */
export async function fetchRecentFulfillmentPage(
  admin: AdminGraphql,
  since: Date,
  after: string | null,
): Promise<{ fulfillments: RecentFulfillment[]; nextCursor: string | null }> {
  const data = await runAdminOperation(
    admin,
    "RecentFulfillments",
    RECENT_FULFILLMENTS,
    recentReply,
    {
      first: RECENT_ORDERS_PAGE,
      after,
      query: `updated_at:>=${searchTime(since)} -fulfillment_status:unshipped`,
    },
  );
  const { nodes, pageInfo } = data.orders;
  return {
    fulfillments: nodes.flatMap((order) =>
      order.fulfillments.map((f) => ({
        fulfillmentId: f.id,
        orderId: order.id,
        orderName: order.name,
        status: f.status,
        createdAt: new Date(f.createdAt),
        locationId: f.location?.id ?? null,
        countryCode: order.shippingAddress?.countryCodeV2 ?? null,
      })),
    ),
    nextCursor: pageInfo.hasNextPage ? pageInfo.endCursor : null,
  };
}
