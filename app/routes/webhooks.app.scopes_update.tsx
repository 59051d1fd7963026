import type { ActionFunctionArgs } from "@remix-run/node";
import { recordGrantedScopes } from "../models/shop.server";
import { authenticate } from "../shopify.server";
import { scopesUpdatePayload } from "../shopify/webhook-payloads";
import { parseWebhookPayload } from "../shopify/webhook-response";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await authenticate.webhook(request);
  const { current } = parseWebhookPayload(scopesUpdatePayload, payload);
  await recordGrantedScopes(shop, current);
  return new Response();
};
