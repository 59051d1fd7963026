import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Shopify webhook verification without the session lookup `authenticate.webhook` makes: the same
 * checks as `@shopify/shopify-api`'s `webhooks.validate` (a body; the HMAC-SHA256 of the raw body
 * with the app's secret, compared in constant time; the topic, shop domain, API version and
 * webhook id headers), and the same answers (401 for a wrong signature, 400 for anything
 * missing). For webhooks whose handler needs no Admin API client, only the shop's own rows.
 */

export interface VerifiedWebhook {
  ok: true;
  shop: string;
  topic: string;
  apiVersion: string;
  webhookId: string;
  /** The body, decoded as UTF-8. */
  body: string;
}

export type WebhookRefusal = { ok: false; status: 400 | 401; reason: string };

/** Header lookup, case-insensitive (a web `Headers` or a Node request's lower-cased headers). */
export type HeaderLookup = (name: string) => string | null | undefined;

const HEADERS = {
  hmac: "x-shopify-hmac-sha256",
  topic: "x-shopify-topic",
  shop: "x-shopify-shop-domain",
  apiVersion: "x-shopify-api-version",
  webhookId: "x-shopify-webhook-id",
} as const;

export function verifyShopifyWebhook(
  rawBody: string | Buffer,
  header: HeaderLookup,
  secret: string,
): VerifiedWebhook | WebhookRefusal {
  if (rawBody.length === 0) return { ok: false, status: 400, reason: "missing body" };
  const hmac = header(HEADERS.hmac);
  if (!hmac) return { ok: false, status: 400, reason: "missing HMAC header" };
  if (!shopifySignatureMatches(rawBody, hmac, secret)) {
    return { ok: false, status: 401, reason: "invalid HMAC" };
  }
  const topic = header(HEADERS.topic);
  const shop = header(HEADERS.shop);
  const apiVersion = header(HEADERS.apiVersion);
  const webhookId = header(HEADERS.webhookId);
  if (!topic || !shop || !apiVersion || !webhookId) {
    const missing = Object.entries({ topic, shop, apiVersion, webhookId })
      .filter(([, value]) => !value)
      .map(([name]) => name);
    return { ok: false, status: 400, reason: `missing headers: ${missing.join(", ")}` };
  }
  return {
    ok: true,
    shop,
    // As the library reports it ("fulfillments/create" → "FULFILLMENTS_CREATE").
    topic: topic.toUpperCase().replace(/\/|\./g, "_"),
    apiVersion,
    webhookId,
    body: typeof rawBody === "string" ? rawBody : rawBody.toString("utf8"),
  };
}

/** HMAC-SHA256 of the bytes as received (a string is taken as their UTF-8 decoding, as the library does). */
export function shopifySignatureMatches(
  rawBody: string | Buffer,
  signature: string,
  secret: string,
): boolean {
  const expected = Buffer.from(createHmac("sha256", secret).update(rawBody).digest("base64"));
  const given = Buffer.from(signature);
  // timingSafeEqual needs equal lengths; the length of a base64 SHA-256 is public anyway.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A Shopify webhook whose signature verified, with its body parsed. */
export interface ShopifyWebhook {
  shop: string;
  topic: string;
  apiVersion: string;
  webhookId: string;
  payload: unknown;
}

/**
 * Reads a webhook request (its body is already bounded by server.js, ADR 0012), checks it as
 * {@link verifyShopifyWebhook} does and parses its JSON. Throws the answer when it is refused:
 * 405 for another method, 401 for a wrong signature, 400 for a missing header or body, or a
 * correctly signed body that is not JSON.
 */
export async function readShopifyWebhook(
  request: Request,
  secret: string,
): Promise<ShopifyWebhook> {
  if (request.method !== "POST") throw new Response(undefined, { status: 405 });
  const webhook = verifyShopifyWebhook(
    Buffer.from(await request.arrayBuffer()),
    (name) => request.headers.get(name),
    secret,
  );
  if (!webhook.ok) throw new Response(undefined, { status: webhook.status });
  let payload: unknown;
  try {
    payload = JSON.parse(webhook.body);
  } catch {
    throw new Response("Unexpected webhook body: not JSON", { status: 400 });
  }
  return {
    shop: webhook.shop,
    topic: webhook.topic,
    apiVersion: webhook.apiVersion,
    webhookId: webhook.webhookId,
    payload,
  };
}
