import type { ActionFunctionArgs } from "@remix-run/node";
import { deleteShopData } from "../models/privacy.server";
import { env } from "../env.server";
import { readShopifyWebhook } from "../shopify/webhook-hmac";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await readShopifyWebhook(request, env().SHOPIFY_API_SECRET);
  await deleteShopData(shop);
  return new Response();
};
