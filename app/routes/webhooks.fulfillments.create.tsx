import type { ActionFunctionArgs } from "@remix-run/node";
import { fulfillmentWebhook, receiveFulfillment } from "../deliveries/intake.server";
import { kickDeliveryWorker } from "../deliveries/runner.server";
import { authenticate } from "../shopify.server";
import { parseWebhookPayload } from "../shopify/webhook-response";

/** Records the intent and answers at once; the courier is called by the worker, never here. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await authenticate.webhook(request);
  const outcome = await receiveFulfillment(shop, parseWebhookPayload(fulfillmentWebhook, payload));
  if (outcome.state === "pending" && !outcome.duplicate) kickDeliveryWorker();
  return new Response();
};
