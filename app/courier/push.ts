import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The courier's status pushes. Its document says it sends webhooks but not how; the app assumes
 * what the sandbox does (sandbox/README.md, "Webhooks"): a JSON POST signed with HMAC-SHA256 of the
 * raw body under a secret shared per shop, hex, in `X-Courier-Signature: sha256=<hex>`, and an
 * event id that repeats on redelivery in `X-Courier-Event-Id`.
 */
export const PUSH_SIGNATURE_HEADER = "x-courier-signature";
export const PUSH_EVENT_ID_HEADER = "x-courier-event-id";

export function signPush(rawBody: string | Buffer, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`;
}

/** Checks the signature header against the raw bytes, in constant time. */
export function verifyPushSignature(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secret: string,
): boolean {
  if (!header) return false;
  const expected = Buffer.from(signPush(rawBody, secret));
  const given = Buffer.from(header.trim());
  return expected.length === given.length && timingSafeEqual(expected, given);
}
