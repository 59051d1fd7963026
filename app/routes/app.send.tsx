import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { SendPage } from "../components/send/send-page";
import { loadSendPage, sendPageAction } from "../pages/send.server";
import { authenticate } from "../shopify.server";

export type { SendActionResult } from "../pages/send.server";

/**
 * "Send to courier": the unfulfilled orders (searched, by day), each one's price quote in its row,
 * and the selection sent after a confirmation. Data and actions: pages/send.server.ts;
 * the page: components/send/.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin, session } = await authenticate.admin(request);
  return loadSendPage(session.shop, admin, new URL(request.url).searchParams);
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const { status, body } = await sendPageAction(session.shop, admin, await request.formData());
  return Response.json(body, { status });
};

// Sending and quoting change no order the page shows until it is done: the list is not read
// again from Shopify after every batch (each read costs query points).
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formData,
  defaultShouldRevalidate,
}) => {
  const intent = formData?.get("intent");
  return intent === "send" || intent === "quote" ? false : defaultShouldRevalidate;
};

export default SendPage;
