import type { ActionFunctionArgs } from "@remix-run/node";
import { sendRequest, type SendResponse } from "../api-contract";
import { outcomeInEnglish } from "../actions/notice-english.server";
import { sendOrdersToCourier } from "../actions/send.server";
import { apiError, authenticateExtension, firstIssue, json } from "../extension-api/http.server";

// "Send to courier" from the order page (one order) and the order list (a batch of the selection).
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, admin, cors } = await authenticateExtension(request);
  if (request.method !== "POST") return apiError(cors, 405, "Send with POST.");
  const body = sendRequest.safeParse(await request.json().catch(() => null));
  if (!body.success) return apiError(cors, 400, firstIssue(body.error));
  const source = body.data.orderIds.length > 1 ? "bulk" : "manual";
  const outcomes = await sendOrdersToCourier(shop, admin, body.data.orderIds, source);
  // The extensions have their own locales; the app's words reach them in English (ADR 0045).
  return json<SendResponse>(cors, { outcomes: await Promise.all(outcomes.map(outcomeInEnglish)) });
};
