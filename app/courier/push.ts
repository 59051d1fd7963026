import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/**
 * The courier's status pushes. Its document says it sends webhooks but not how; the app assumes
 * what the sandbox does (sandbox/README.md, "Webhooks"): a JSON POST signed with HMAC-SHA256 of the
 * raw body under a secret shared per shop, hex, in `X-Courier-Signature: sha256=<hex>`. The
 * sandbox also sends the event id in `X-Courier-Event-Id`, but that header is not signed: the app
 * only trusts the id inside the signed body, or else the body's digest ({@link pushEventId}).
 */
export const PUSH_SIGNATURE_HEADER = "x-courier-signature";

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

/**
 * The id a push is remembered by: the signed body's own `eventId` when it has one (at most 200
 * characters, checked where the body is parsed), otherwise the SHA-256 of the signed bytes. A
 * captured push replayed with any other id in an unsigned header is therefore the same event.
 */
export function pushEventId(rawBody: string | Buffer, signedEventId: string | undefined): string {
  return signedEventId ?? `sha256:${createHash("sha256").update(rawBody).digest("hex")}`;
}
