import {
  GraphqlQueryError,
  HttpMaxRetriesError,
  HttpRequestError,
  HttpResponseError,
  HttpRetriableError,
  HttpThrottlingError,
} from "@shopify/shopify-api";
import { z } from "zod";
import { ShopifyThrottledError } from "./cost-budget";
import {
  runAdminOperation,
  ShopifyReplyError,
  userErrorsMessage,
  type AdminGraphql,
} from "./graphql";

const userErrors = z.array(
  z.object({ field: z.array(z.string()).nullable().optional(), message: z.string() }),
);

const FULFILLMENT_EVENT = `#graphql
  mutation DeliveryFulfillmentEvent($fulfillmentEvent: FulfillmentEventInput!) {
    fulfillmentEventCreate(fulfillmentEvent: $fulfillmentEvent) {
      fulfillmentEvent { id status happenedAt }
      userErrors { field message }
    }
  }`;

const fulfillmentEventReply = z.object({
  fulfillmentEventCreate: z.object({
    fulfillmentEvent: z.object({ id: z.string(), status: z.string() }).nullable(),
    userErrors,
  }),
});

/** Adds a shipment status event (e.g. OUT_FOR_DELIVERY) to a fulfillment, at the time it happened. */
export async function createFulfillmentEvent(
  admin: AdminGraphql,
  input: { fulfillmentId: string; status: string; happenedAt: Date | null; message: string },
): Promise<string> {
  const data = await runAdminOperation(
    admin,
    "DeliveryFulfillmentEvent",
    FULFILLMENT_EVENT,
    fulfillmentEventReply,
    {
      fulfillmentEvent: {
        fulfillmentId: input.fulfillmentId,
        status: input.status,
        message: input.message.slice(0, 255),
        ...(input.happenedAt ? { happenedAt: input.happenedAt.toISOString() } : {}),
      },
    },
  );
  const reply = data.fulfillmentEventCreate;
  if (reply.userErrors.length > 0 || !reply.fulfillmentEvent) {
    throw new ShopifyReplyError(
      `Shopify refused the shipment status: ${userErrorsMessage(reply.userErrors) || "no event was created"}`,
      "DeliveryFulfillmentEvent",
    );
  }
  return reply.fulfillmentEvent.id;
}

const MARK_PAID = `#graphql
  mutation DeliveryMarkPaid($input: OrderMarkAsPaidInput!) {
    orderMarkAsPaid(input: $input) {
      order { id displayFinancialStatus }
      userErrors { field message }
    }
  }`;

const markPaidReply = z.object({
  orderMarkAsPaid: z.object({
    order: z.object({ id: z.string(), displayFinancialStatus: z.string().nullable() }).nullable(),
    userErrors,
  }),
});

const FINANCIAL_STATUS = `#graphql
  query DeliveryOrderFinancialStatus($id: ID!) {
    order(id: $id) { id displayFinancialStatus }
  }`;

const financialStatusReply = z.object({
  order: z.object({ id: z.string(), displayFinancialStatus: z.string().nullable() }).nullable(),
});

/** Financial statuses of an order whose money was collected (some of it may be refunded since). */
const PAID_STATUSES = new Set(["PAID", "PARTIALLY_REFUNDED", "REFUNDED"]);

/**
 * Marks an order paid (cash collected on delivery): "paid", or "already_paid" when Shopify
 * refused because the order was paid already. userErrors carry no code, and their text is
 * Shopify's to change, so the order's financial status is asked instead; any other refusal is
 * thrown (ShopifyReplyError).
 */
export async function markOrderPaid(
  admin: AdminGraphql,
  orderId: string,
): Promise<"paid" | "already_paid"> {
  const data = await runAdminOperation(admin, "DeliveryMarkPaid", MARK_PAID, markPaidReply, {
    input: { id: orderId },
  });
  const reply = data.orderMarkAsPaid;
  if (reply.userErrors.length === 0) return "paid";
  const { order } = await runAdminOperation(
    admin,
    "DeliveryOrderFinancialStatus",
    FINANCIAL_STATUS,
    financialStatusReply,
    { id: orderId },
  );
  if (order?.displayFinancialStatus && PAID_STATUSES.has(order.displayFinancialStatus))
    return "already_paid";
  throw new ShopifyReplyError(
    `Shopify did not mark the order paid (${order?.displayFinancialStatus ?? "order not found"}): ${userErrorsMessage(reply.userErrors)}`,
    "DeliveryMarkPaid",
  );
}

/**
 * What a failed Shopify call means for the caller: "throttled" (THROTTLED in a 200 reply, a 429)
 * and "unavailable" (a 5xx, no reply, an internal error in a 200 reply) pass if one waits;
 * "refused" (userErrors, ACCESS_DENIED or another GraphQL error, any other 4xx, a reply not as
 * expected) will not pass by waiting a few seconds; null: not a Shopify failure at all.
 */
export type ShopifyFailure = "throttled" | "unavailable" | "refused";

export function shopifyFailureKind(error: unknown): ShopifyFailure | null {
  if (error instanceof ShopifyThrottledError) return "throttled";
  if (error instanceof HttpThrottlingError) return "throttled";
  if (error instanceof HttpRetriableError) return "unavailable";
  if (error instanceof HttpMaxRetriesError || error instanceof HttpRequestError)
    return "unavailable";
  if (error instanceof HttpResponseError) return "refused";
  if (error instanceof GraphqlQueryError) {
    const body = error.body as { errors?: { graphQLErrors?: unknown } | unknown } | undefined;
    const errors = (body?.errors as { graphQLErrors?: unknown } | undefined)?.graphQLErrors;
    const text = JSON.stringify(errors ?? body?.errors ?? body ?? "") + error.message;
    if (/THROTTLED|\b429\b|Too Many Requests/i.test(text)) return "throttled";
    if (/INTERNAL_SERVER_ERROR|SERVICE_UNAVAILABLE|\bTIMEOUT\b/.test(text)) return "unavailable";
    return "refused";
  }
  if (error instanceof ShopifyReplyError) return "refused";
  return null;
}

/** A Shopify failure in one line for the timeline: the library appends the reply's body. */
export function shopifyFailureMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split("\n")[0] ?? "").replace(/:\s*$/, "").slice(0, 300);
}
