import type { ActionFunctionArgs } from "@remix-run/node";
import { fulfillmentWebhook, receiveFulfillment } from "../deliveries/intake.server";
import { kickDeliveryWorker } from "../deliveries/runner.server";
import { env } from "../env.server";
import { verifyShopifyWebhook } from "../shopify/webhook-hmac";
import { parseWebhookPayload } from "../shopify/webhook-response";

/**
 * Records the intent and answers once it is on disk; the courier is called by the worker, never
 * here. The signature is checked without `authenticate.webhook`'s session lookup: intake needs no
 * Admin API client, only the shop's own rows (ADR 0007).
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return new Response(undefined, { status: 405 });
  const webhook = verifyShopifyWebhook(
    Buffer.from(await request.arrayBuffer()),
    (name) => request.headers.get(name),
    env().SHOPIFY_API_SECRET,
  );
  if (!webhook.ok) return new Response(undefined, { status: webhook.status });
  let body: unknown;
  try {
    body = JSON.parse(webhook.body);
  } catch {
    return new Response("Unexpected webhook body: not JSON", { status: 400 });
  }
  const outcome = await receiveFulfillment(
    webhook.shop,
    parseWebhookPayload(fulfillmentWebhook, body),
  );
  if (outcome.state === "pending" && !outcome.duplicate) kickDeliveryWorker();
  return new Response();
};
