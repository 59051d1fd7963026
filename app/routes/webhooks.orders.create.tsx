import type { ActionFunctionArgs } from "@remix-run/node";
import { env } from "../env.server";
import { receiveOrder } from "../shopper/order-intake.server";
import { kickShopperLoop } from "../shopper/runner.server";
import { readShopifyWebhook } from "../shopify/webhook-hmac";
import { ordersCreatePayload } from "../shopify/webhook-payloads";
import { parseWebhookPayload } from "../shopify/webhook-response";

/** A new order: recorded for the shopper loop, which decides whether to ask (ADR 0056). */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await readShopifyWebhook(request, env().SHOPIFY_API_SECRET);
  if (await receiveOrder(shop, parseWebhookPayload(ordersCreatePayload, payload)))
    kickShopperLoop();
  return new Response();
};
