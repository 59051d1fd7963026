import type { ActionFunctionArgs } from "@remix-run/node";
import { deliveryIdParam, type CancelResponse } from "../api-contract";
import { cancelDelivery } from "../deliveries/cancel.server";
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
  const outcome = await cancelDelivery(
    shop,
    id.data,
    "cancelled by the merchant on the order page",
  );
  return json<CancelResponse>(cors, outcome, outcome.ok ? 200 : 409);
};
