import type { ActionFunctionArgs } from "@remix-run/node";
import { redactCustomer } from "../models/privacy.server";
import { authenticate } from "../shopify.server";
import { customersRedactPayload } from "../shopify/webhook-payloads";
import { parseWebhookPayload } from "../shopify/webhook-response";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, webhookId, payload } = await authenticate.webhook(request);
  const body = parseWebhookPayload(customersRedactPayload, payload);
  await redactCustomer({
    shop,
    webhookId,
    customerId: body.customer?.id,
    orderIds: body.orders_to_redact,
  });
  return new Response();
};
