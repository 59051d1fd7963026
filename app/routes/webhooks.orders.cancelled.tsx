import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { cancelForShopify } from "../deliveries/cancel.server";
import { authenticate } from "../shopify.server";
import { parseWebhookPayload } from "../shopify/webhook-response";

const payloadSchema = z.object({ admin_graphql_api_id: z.string() });

/** An order cancelled in Shopify cancels its courier deliveries, where the courier still allows. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await authenticate.webhook(request);
  const order = parseWebhookPayload(payloadSchema, payload);
  await cancelForShopify(
    shop,
    { orderId: order.admin_graphql_api_id },
    "the order was cancelled in Shopify",
  );
  return new Response();
};
