import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { cancelForShopify } from "../deliveries/cancel.server";
import { firstTimeWebhook } from "../models/deliveries.server";
import { authenticate } from "../shopify.server";
import { parseWebhookPayload } from "../shopify/webhook-response";

const payloadSchema = z.object({ admin_graphql_api_id: z.string() });

/** An order cancelled in Shopify cancels its courier deliveries, where the courier still allows. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload, webhookId } = await authenticate.webhook(request);
  // A redelivered webhook must not ask the courier to cancel a second time.
  if (!(await firstTimeWebhook(shop, webhookId, "orders/cancelled"))) return new Response();
  const order = parseWebhookPayload(payloadSchema, payload);
  await cancelForShopify(
    shop,
    { orderId: order.admin_graphql_api_id },
    "the order was cancelled in Shopify",
  );
  return new Response();
};
