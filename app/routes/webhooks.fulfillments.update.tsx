import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { cancelForShopify } from "../deliveries/cancel.server";
import { firstTimeWebhook } from "../models/deliveries.server";
import { authenticate } from "../shopify.server";
import { parseWebhookPayload } from "../shopify/webhook-response";

const payloadSchema = z.object({
  admin_graphql_api_id: z.string(),
  status: z.string().nullish(),
});

/** A fulfillment cancelled in Shopify cancels its courier delivery, if the courier still allows. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload, webhookId } = await authenticate.webhook(request);
  // A redelivered webhook must not ask the courier to cancel a second time.
  if (!(await firstTimeWebhook(shop, webhookId, "fulfillments/update"))) return new Response();
  const update = parseWebhookPayload(payloadSchema, payload);
  if (update.status === "cancelled") {
    await cancelForShopify(
      shop,
      { fulfillmentId: update.admin_graphql_api_id },
      "the fulfillment was cancelled in Shopify",
    );
  }
  return new Response();
};
