import {
  answerVerification,
  parseInboundMessages,
  parseStatusCallback,
  STATUS_SIGNATURE_HEADER,
  verifyStatusCallback,
} from "../whatsapp";
import {
  recordWebhookVerified,
  whatsAppAccountForWebhook,
} from "../models/whatsapp-account.server";
import { applyInboundReplies, applyMessageStatuses } from "../models/shopper-message-status.server";
import { readBody } from "./read-body.server";

/** Meta's callbacks are small; a body past this is no callback of ours. */
export const MAX_CALLBACK_BYTES = 256 * 1024;

/**
 * The GET handshake Meta makes when the merchant saves the callback URL in their app's
 * dashboard: the challenge echoed when the verify token is the shop's, 403 otherwise.
 */
export async function answerWhatsAppHandshake(
  token: string,
  request: Request,
  now = new Date(),
): Promise<Response> {
  const account = token ? await whatsAppAccountForWebhook(token) : null;
  if (!account) return new Response("Not found", { status: 404 });
  const challenge = answerVerification(new URL(request.url).searchParams, account.verifyToken);
  if (challenge === null) return new Response("Forbidden", { status: 403 });
  await recordWebhookVerified(account.shop, now);
  return new Response(challenge, { status: 200, headers: { "content-type": "text/plain" } });
}

/**
 * Meta's message status callbacks and shoppers' replies for one shop. Unknown URL: 404; a body
 * over 256 KiB: 413; a signature that is not the shop's app secret's (or a secret the app can no
 * longer read): 401 and nothing written; otherwise 200, whatever the callback named, so Meta does
 * not retry what was already applied (applying again changes nothing).
 */
export async function receiveWhatsAppCallback(
  token: string,
  request: Request,
  now = new Date(),
): Promise<Response> {
  const account = token ? await whatsAppAccountForWebhook(token) : null;
  if (!account) return new Response("Not found", { status: 404 });
  if (Number(request.headers.get("content-length") ?? 0) > MAX_CALLBACK_BYTES)
    return new Response("Body too large", { status: 413 });
  const raw = await readBody(request, MAX_CALLBACK_BYTES);
  if (!raw) return new Response("Body too large", { status: 413 });
  if (
    account.appSecret === null ||
    !verifyStatusCallback(raw, request.headers.get(STATUS_SIGNATURE_HEADER), account.appSecret)
  )
    return new Response("Invalid signature", { status: 401 });
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    return new Response("The body is not JSON.", { status: 400 });
  }
  let statuses, replies;
  try {
    statuses = parseStatusCallback(body);
    replies = parseInboundMessages(body);
  } catch {
    return new Response("Not a WhatsApp Business account callback.", { status: 400 });
  }
  // Another number of the same Meta app is not this shop's.
  const ours = <T extends { phoneNumberId: string | undefined }>(item: T) =>
    item.phoneNumberId === undefined || item.phoneNumberId === account.phoneNumberId;
  const outcome = await applyMessageStatuses(account.shop, statuses.filter(ours), now);
  const optedOut = await applyInboundReplies(account.shop, replies.filter(ours));
  return Response.json({ ...outcome, optedOut: outcome.optedOut + optedOut });
}
