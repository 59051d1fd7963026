import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requestCancelForShopify } from "../actions/cancel.server";
import { rememberWebhook, webhookHandled } from "../models/deliveries.server";
import { parseWebhookPayload } from "../shopify/webhook-response";
import { env } from "../env.server";
import { readShopifyWebhook } from "../shopify/webhook-hmac";

const payloadSchema = z.object({ admin_graphql_api_id: z.string() });

/** An order cancelled in Shopify cancels its courier deliveries, where the courier still allows. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload, webhookId } = await readShopifyWebhook(request, env().SHOPIFY_API_SECRET);
  // A redelivered webhook must not ask twice; its id is remembered only once the cancellation
  // is recorded, so a webhook that failed here (answered 500) is handled when Shopify resends it.
  if (await webhookHandled(shop, webhookId)) return new Response();
  const order = parseWebhookPayload(payloadSchema, payload);
  await requestCancelForShopify(
    shop,
    { orderId: order.admin_graphql_api_id },
    "the order was cancelled in Shopify",
  );
  await rememberWebhook(shop, webhookId, "orders/cancelled");
  return new Response();
};
