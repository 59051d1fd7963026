import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requestCancelForShopify } from "../actions/cancel.server";
import { rememberWebhook, webhookHandled } from "../models/deliveries.server";
import { parseWebhookPayload } from "../shopify/webhook-response";
import { env } from "../env.server";
import { readShopifyWebhook } from "../shopify/webhook-hmac";

const payloadSchema = z.object({
  admin_graphql_api_id: z.string(),
  status: z.string().nullish(),
});

/** A fulfillment cancelled in Shopify cancels its courier delivery, if the courier still allows. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload, webhookId } = await readShopifyWebhook(request, env().SHOPIFY_API_SECRET);
  // A redelivered webhook must not ask twice; its id is remembered only once the cancellation
  // is recorded, so a webhook that failed here (answered 500) is handled when Shopify resends it.
  if (await webhookHandled(shop, webhookId)) return new Response();
  const update = parseWebhookPayload(payloadSchema, payload);
  if (update.status === "cancelled") {
    await requestCancelForShopify(
      shop,
      { fulfillmentId: update.admin_graphql_api_id },
      "the fulfillment was cancelled in Shopify",
    );
  }
  await rememberWebhook(shop, webhookId, "fulfillments/update");
  return new Response();
};
