import type { ActionFunctionArgs } from "@remix-run/node";
import { cancelRequest, deliveryIdParam, type CancelResponse } from "../api-contract";
import { cancelDelivery } from "../actions/cancel.server";
import { outcomeInEnglish } from "../actions/notice-english.server";
import { apiError, authenticateExtension, json } from "../extension-api/http.server";
import prisma from "../db.server";

// "Cancel delivery" on the order page's block: the same cancellation as the delivery's page.
export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { shop, cors } = await authenticateExtension(request);
  if (request.method !== "POST") return apiError(cors, 405, "Cancel with POST.");
  const id = deliveryIdParam.safeParse(params.id);
  const exists =
    id.success && (await prisma.delivery.count({ where: { shop, id: id.data } })) === 1;
  if (!id.success || !exists) return apiError(cors, 404, "No such delivery in this shop.");
  // No body (the block as it was) keeps the order fulfilled in Shopify.
  const text = await request.text();
  const body = cancelRequest.safeParse(text.trim() ? safeJson(text) : {});
  if (!body.success) {
    return apiError(cors, 400, 'Send {"fulfillment": "cancel"} or {"fulfillment": "keep"}.');
  }
  const outcome = await cancelDelivery(
    shop,
    id.data,
    "cancelled by the merchant on the order page",
    {
      cancelFulfillment: body.data.fulfillment === "cancel",
    },
  );
  return json<CancelResponse>(cors, await outcomeInEnglish(outcome), outcome.ok ? 200 : 409);
};

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
