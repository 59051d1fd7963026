import { answerRateRequest } from "../checkout/rates.server";
import { readBody } from "./read-body.server";

/** Shopify's rate requests can list a whole cart's items; a megabyte is far above any real one. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Shopify's carrier-service rate request for one shop (app/checkout/rates.server.ts answers it):
 * a POST to `/checkout/rates/<token>`, answered with `{ rates: [...] }` as JSON.
 */
export async function receiveRateRequest(token: string, request: Request): Promise<Response> {
  if (request.method !== "POST")
    return new Response("Method not allowed: Shopify posts rate requests here.", {
      status: 405,
      headers: { Allow: "POST" },
    });
  const raw = await readBody(request, MAX_BODY_BYTES);
  if (!raw) return new Response("Body too large", { status: 413 });
  const answer = await answerRateRequest({
    token,
    rawBody: raw,
    signature: request.headers.get("x-shopify-hmac-sha256"),
    shopDomain: request.headers.get("x-shopify-shop-domain"),
  });
  return Response.json(answer.body, {
    status: answer.status,
    headers: { "Cache-Control": "no-store" },
  });
}
