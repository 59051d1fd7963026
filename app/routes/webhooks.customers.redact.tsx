import type { ActionFunctionArgs } from "@remix-run/node";
import { redactCustomer } from "../models/privacy.server";
import { customersRedactPayload } from "../shopify/webhook-payloads";
import { parseWebhookPayload } from "../shopify/webhook-response";
import { env } from "../env.server";
import { readShopifyWebhook } from "../shopify/webhook-hmac";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, webhookId, payload } = await readShopifyWebhook(request, env().SHOPIFY_API_SECRET);
  const body = parseWebhookPayload(customersRedactPayload, payload);
  await redactCustomer({
    shop,
    webhookId,
    customerId: body.customer?.id,
    orderIds: body.orders_to_redact,
  });
  return new Response();
};
