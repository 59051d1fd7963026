import type { LoaderFunctionArgs } from "@remix-run/node";
import { orderIdParam, type OrderDeliveriesResponse } from "../api-contract";
import {
  apiError,
  authenticateExtension,
  firstIssue,
  json,
  preflightOnly,
} from "../extension-api/http.server";
import { orderDeliveries } from "../extension-api/orders.server";

// The order page's block: the order's deliveries and whether it can be sent.
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { shop, admin, cors } = await authenticateExtension(request);
  const orderId = orderIdParam.safeParse(params.orderId);
  if (!orderId.success) return apiError(cors, 400, firstIssue(orderId.error));
  const answer = await orderDeliveries(shop, admin, orderId.data);
  if (!answer) return apiError(cors, 404, "No such order in this shop.");
  return json<OrderDeliveriesResponse>(cors, answer);
};

export const action = preflightOnly;
