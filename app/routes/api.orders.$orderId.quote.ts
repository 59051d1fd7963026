import type { LoaderFunctionArgs } from "@remix-run/node";
import { orderIdParam, type QuoteResponse } from "../api-contract";
import { outcomeInEnglish } from "../actions/notice-english.server";
import { quoteOrder } from "../actions/quote.server";
import {
  apiError,
  authenticateExtension,
  firstIssue,
  json,
  preflightOnly,
} from "../extension-api/http.server";

// "Send to courier" on the order page: the courier's price and the pickup it is for.
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { shop, admin, cors } = await authenticateExtension(request);
  const orderId = orderIdParam.safeParse(params.orderId);
  if (!orderId.success) return apiError(cors, 400, firstIssue(orderId.error));
  return json<QuoteResponse>(
    cors,
    await outcomeInEnglish(await quoteOrder(shop, admin, orderId.data)),
  );
};

export const action = preflightOnly;
