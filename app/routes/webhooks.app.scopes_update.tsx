import type { ActionFunctionArgs } from "@remix-run/node";
import { recordGrantedScopes } from "../models/shop.server";
import { scopesUpdatePayload } from "../shopify/webhook-payloads";
import { parseWebhookPayload } from "../shopify/webhook-response";
import { env } from "../env.server";
import { readShopifyWebhook } from "../shopify/webhook-hmac";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await readShopifyWebhook(request, env().SHOPIFY_API_SECRET);
  const { current } = parseWebhookPayload(scopesUpdatePayload, payload);
  await recordGrantedScopes(shop, current);
  return new Response();
};
