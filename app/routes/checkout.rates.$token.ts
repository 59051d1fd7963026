import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { receiveRateRequest } from "../actions/checkout-rates.server";

/** Shopify's rate requests at checkout for one shop (actions/checkout-rates.server.ts). */
export const action = ({ request, params }: ActionFunctionArgs) =>
  receiveRateRequest(params.token ?? "", request);

/** Shopify only posts here; a person opening the URL is told so. */
export const loader = (_args: LoaderFunctionArgs) =>
  new Response("Method not allowed: Shopify posts rate requests here.", {
    status: 405,
    headers: { Allow: "POST" },
  });
