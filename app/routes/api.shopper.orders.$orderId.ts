import type { LoaderFunctionArgs } from "@remix-run/node";
import { orderIdParam, shopperOrderQuery, type ShopperOrderResponse } from "../api-contract";
import { apiError, authenticateShopper, firstIssue, json } from "../extension-api/http.server";
import { shopperOrder } from "../extension-api/shopper-order.server";

// The shopper's blocks on Shopify's thank-you and order status pages (docs/api-contract.md).
// server.js limits how often one client may ask, as for the tracking page.
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  const surface = url.searchParams.get("surface") === "order-status" ? "order-status" : "thank-you";
  const { shop, cors } = await authenticateShopper(request, surface);
  const orderId = orderIdParam.safeParse(params.orderId);
  if (!orderId.success) return apiError(cors, 400, firstIssue(orderId.error));
  const query = shopperOrderQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) return apiError(cors, 400, firstIssue(query.error));
  const answer = await shopperOrder(shop, orderId.data, query.data.confirmation);
  return json<ShopperOrderResponse>(cors, answer);
};

/** Only the CORS preflight (answered by the authentication) and GET. */
export const action = async ({ request }: LoaderFunctionArgs) => {
  const { cors } = await authenticateShopper(request, "thank-you");
  return apiError(cors, 405, "This address only answers GET.");
};
