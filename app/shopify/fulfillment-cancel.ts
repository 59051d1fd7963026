import { z } from "zod";
import {
  runAdminOperation,
  ShopifyReplyError,
  userErrorsMessage,
  type AdminGraphql,
} from "./graphql";

const FULFILLMENT_CANCEL = `#graphql
  mutation DeliveryFulfillmentCancel($id: ID!) {
    fulfillmentCancel(id: $id) {
      fulfillment { id status }
      userErrors { field message }
    }
  }`;

const fulfillmentCancelReply = z.object({
  fulfillmentCancel: z.object({
    fulfillment: z.object({ id: z.string(), status: z.string() }).nullable(),
    userErrors: z.array(
      z.object({ field: z.array(z.string()).nullable().optional(), message: z.string() }),
    ),
  }),
});

const FULFILLMENT_STATUS = `#graphql
  query DeliveryFulfillmentStatus($id: ID!) {
    fulfillment(id: $id) { id status }
  }`;

const fulfillmentStatusReply = z.object({
  fulfillment: z.object({ id: z.string(), status: z.string() }).nullable(),
});

/**
 * Cancels a fulfillment in Shopify (its order's items become unfulfilled again, so the order can
 * be sent again): "cancelled", or "already_cancelled" when Shopify refused because it was
 * cancelled already (userErrors carry no code and their text is Shopify's to change, so the
 * fulfillment's status is asked instead). Any other refusal is thrown (ShopifyReplyError), in
 * Shopify's words.
 */
export async function cancelFulfillment(
  admin: AdminGraphql,
  fulfillmentId: string,
): Promise<"cancelled" | "already_cancelled"> {
  const data = await runAdminOperation(
    admin,
    "DeliveryFulfillmentCancel",
    FULFILLMENT_CANCEL,
    fulfillmentCancelReply,
    { id: fulfillmentId },
  );
  const reply = data.fulfillmentCancel;
  if (reply.userErrors.length === 0 && reply.fulfillment) return "cancelled";
  const { fulfillment } = await runAdminOperation(
    admin,
    "DeliveryFulfillmentStatus",
    FULFILLMENT_STATUS,
    fulfillmentStatusReply,
    { id: fulfillmentId },
  );
  if (fulfillment?.status === "CANCELLED") return "already_cancelled";
  throw new ShopifyReplyError(
    `Shopify did not cancel the fulfillment: ${userErrorsMessage(reply.userErrors) || "no reason given"}`,
    "DeliveryFulfillmentCancel",
  );
}
