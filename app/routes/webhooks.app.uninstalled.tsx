import type { ActionFunctionArgs } from "@remix-run/node";
import { markShopUninstalled } from "../models/shop.server";
import { authenticate } from "../shopify.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await authenticate.webhook(request);
  await markShopUninstalled(shop);
  return new Response();
};
