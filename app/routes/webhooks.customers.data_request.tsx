import type { ActionFunctionArgs } from "@remix-run/node";
import { recordCustomerDataRequest } from "../models/privacy.server";
import { customersDataRequestPayload } from "../shopify/webhook-payloads";
import { parseWebhookPayload } from "../shopify/webhook-response";
import { env } from "../env.server";
import { readShopifyWebhook } from "../shopify/webhook-hmac";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, webhookId, payload } = await readShopifyWebhook(request, env().SHOPIFY_API_SECRET);
  const body = parseWebhookPayload(customersDataRequestPayload, payload);
  await recordCustomerDataRequest({
    shop,
    webhookId,
    customerId: body.customer?.id,
    orderIds: body.orders_requested,
  });
  return new Response();
};
