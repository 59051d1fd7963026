import type { ActionFunctionArgs } from "@remix-run/node";
import { fulfillmentWebhook, receiveFulfillment } from "../pipeline/intake.server";
import { kickDeliveryWorker } from "../pipeline/drain-loop.server";
import { env } from "../env.server";
import { readShopifyWebhook } from "../shopify/webhook-hmac";
import { parseWebhookPayload } from "../shopify/webhook-response";

/**
 * Records the intent and answers once it is on disk; the courier is called by the worker, never
 * here. The signature is checked without `authenticate.webhook`'s session lookup: intake needs no
 * Admin API client, only the shop's own rows (ADR 0007).
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await readShopifyWebhook(request, env().SHOPIFY_API_SECRET);
  const outcome = await receiveFulfillment(shop, parseWebhookPayload(fulfillmentWebhook, payload));
  if (outcome.state === "pending" && !outcome.duplicate) kickDeliveryWorker();
  return new Response();
};
