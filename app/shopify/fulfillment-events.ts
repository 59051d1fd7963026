import { GraphqlQueryError, HttpRetriableError } from "@shopify/shopify-api";
import { z } from "zod";
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

/** Marks an order paid (cash collected on delivery). */
export async function markOrderPaid(admin: AdminGraphql, orderId: string): Promise<string | null> {
  const data = await runAdminOperation(admin, "DeliveryMarkPaid", MARK_PAID, markPaidReply, {
    input: { id: orderId },
  });
  const reply = data.orderMarkAsPaid;
  if (reply.userErrors.length > 0) {
    throw new ShopifyReplyError(
      `Shopify did not mark the order paid: ${userErrorsMessage(reply.userErrors)}`,
      "DeliveryMarkPaid",
    );
  }
  return reply.order?.displayFinancialStatus ?? null;
}

/**
 * Whether Shopify asked the app to slow down: THROTTLED in a 200 reply (thrown by the library as
 * GraphqlQueryError) or a 429 the library gave up retrying.
 */
export function isShopifyThrottled(error: unknown): boolean {
  if (error instanceof HttpRetriableError) return true;
  if (error instanceof GraphqlQueryError) {
    const errors = (error.body as { errors?: unknown } | undefined)?.errors;
    const text = JSON.stringify(errors ?? error.body ?? "") + error.message;
    return /THROTTLED|\b429\b|Too Many Requests/i.test(text);
  }
  return false;
}
