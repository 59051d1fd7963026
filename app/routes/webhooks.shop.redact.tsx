import type { ActionFunctionArgs } from "@remix-run/node";
import { deleteShopData } from "../models/privacy.server";
import { authenticate } from "../shopify.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await authenticate.webhook(request);
  await deleteShopData(shop);
  return new Response();
};
