import type { ActionFunctionArgs } from "@remix-run/node";
import { recordCustomerDataRequest } from "../models/privacy.server";
import { authenticate } from "../shopify.server";
import { customersDataRequestPayload } from "../shopify/webhook-payloads";
import { parseWebhookPayload } from "../shopify/webhook-response";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, webhookId, payload } = await authenticate.webhook(request);
  const body = parseWebhookPayload(customersDataRequestPayload, payload);
  await recordCustomerDataRequest({
    shop,
    webhookId,
    customerId: body.customer?.id,
    orderIds: body.orders_requested,
  });
  return new Response();
};
