import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  answerWhatsAppHandshake,
  receiveWhatsAppCallback,
} from "../actions/whatsapp-callback.server";

/** Meta's WhatsApp callbacks for one shop (actions/whatsapp-callback.server.ts). */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  answerWhatsAppHandshake(params.token ?? "", request);

export const action = ({ request, params }: ActionFunctionArgs) =>
  request.method === "POST"
    ? receiveWhatsAppCallback(params.token ?? "", request)
    : new Response("Method not allowed", { status: 405, headers: { Allow: "GET, POST" } });
