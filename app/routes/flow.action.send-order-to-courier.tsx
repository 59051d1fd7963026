import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { noticeInEnglish } from "../actions/notice-english.server";
import { sendOrdersToCourier } from "../actions/send.server";
import { authenticate } from "../shopify.server";

/**
 * Shopify Flow's "Send order to courier" action (extensions/flow-action-send-order-to-courier).
 * authenticate.flow checks Shopify's signature (HMAC-SHA256 of the raw body with the app's secret,
 * x-shopify-hmac-sha256) before anything is read, and finds the shop's offline session. Flow
 * retries a 5xx and not a 4xx; the same run retried finds the order sent already, which is a
 * success, not a second delivery.
 */
const flowActionBody = z.object({
  shopify_domain: z.string(),
  action_run_id: z.string().optional(),
  properties: z.object({ order_id: z.union([z.string().min(1), z.number().int().positive()]) }),
});

const orderGid = (id: string | number) =>
  typeof id === "number" || /^\d+$/.test(id) ? `gid://shopify/Order/${id}` : id;

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, admin, payload } = await authenticate.flow(request);
  const body = flowActionBody.safeParse(payload);
  if (!body.success || !orderGid(body.data.properties.order_id).startsWith("gid://shopify/Order/"))
    return Response.json({ error: "The action needs an order." }, { status: 400 });
  const orderId = orderGid(body.data.properties.order_id);
  const [outcome] = await sendOrdersToCourier(session.shop, admin, [orderId], "manual");
  if (!outcome) return Response.json({ error: "Nothing was sent." }, { status: 400 });
  if (outcome.ok) return Response.json({ deliveryId: outcome.deliveryId });
  const said = await noticeInEnglish(outcome.error);
  if (outcome.error.code === "already_sent") return Response.json({ message: said });
  return Response.json({ error: said }, { status: 422 });
};
