import { PUSH_SIGNATURE_HEADER, pushEventId, verifyPushSignature } from "../courier";
import { shopForPushToken } from "../models/push-credentials.server";
import { kickTrackingSync } from "../pipeline/drain-loop.server";
import { productionDependencies } from "../pipeline/runner.server";
import { applyPushedStatus, courierPush } from "../pipeline/tracking/push.server";
import { parseWebhookPayload } from "../shopify/webhook-response";
import { readBody } from "./read-body.server";

const MAX_BODY_BYTES = 64 * 1024;

/**
 * The courier's status pushes for one shop (the URL and secret are on Settings). Unknown URL:
 * 404; a body over 64 KiB: 413, read no further; bad signature, or a secret the app can no longer
 * read: 401 and nothing written; a body without what the app needs: 422 saying what.
 */
export async function receiveCourierPush(token: string, request: Request): Promise<Response> {
  const target = token ? await shopForPushToken(token) : null;
  if (!target) return new Response("Not found", { status: 404 });
  if (target.secret === null) {
    return new Response(
      "This URL's secret can no longer be read by the app: the shop must make a new URL and secret in Settings.",
      { status: 401 },
    );
  }
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES)
    return new Response("Body too large", { status: 413 });
  const raw = await readBody(request, MAX_BODY_BYTES);
  if (!raw) return new Response("Body too large", { status: 413 });
  if (!verifyPushSignature(raw, request.headers.get(PUSH_SIGNATURE_HEADER), target.secret))
    return new Response("Invalid signature", { status: 401 });
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    return new Response("The body is not JSON.", { status: 400 });
  }
  const push = parseWebhookPayload(courierPush, body);
  push.eventId = pushEventId(raw, push.eventId);
  const { owner, courierFor, adminFor } = productionDependencies();
  const outcome = await applyPushedStatus(target.shop, push, { owner, courierFor, adminFor });
  if (outcome === "queued") kickTrackingSync();
  return Response.json({ outcome });
}
