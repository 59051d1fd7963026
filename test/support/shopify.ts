import type { LoaderFunctionArgs } from "@remix-run/node";
import { randomUUID } from "node:crypto";
import {
  API_KEY,
  API_SECRET_KEY,
  APP_URL,
  getHmac,
  RequestType,
  setUpValidRequest,
  setUpValidSession,
} from "@shopify/shopify-api/test-helpers";
import { ADMIN_API_VERSION } from "../../app/shopify/api-version";
import { TEST_SCOPES } from "./test-env";

export { API_SECRET_KEY, APP_URL };

/** Shopify's published test helpers, bent to this app: signed webhooks and session-token requests. */

export function shopDomain(name: string): string {
  return `${name}.myshopify.com`;
}

/** Stores a valid expiring offline session for `shop`, as token exchange would after install. */
export async function installShop(shop: string) {
  const { sessionStorage } = await import("../../app/shopify.server");
  const session = setUpValidSession({
    shop,
    expires: new Date(Date.now() + 24 * 3600 * 1000),
  });
  session.scope = TEST_SCOPES;
  session.accessToken = `offline-token-${shop}`;
  await sessionStorage.storeSession(session);
  return session;
}

type RequestInit2 = { method?: string; form?: Record<string, string>; json?: unknown };

/** A document request from the Shopify admin iframe: `?embedded=1&shop&host&id_token`. */
export async function adminDocumentRequest(shop: string, path: string, init: RequestInit2 = {}) {
  return setUpValidRequest(
    {
      type: RequestType.Admin,
      store: shop.replace(/\.myshopify\.com$/, ""),
      apiKey: API_KEY,
      apiSecretKey: API_SECRET_KEY,
    },
    buildRequest(path, init),
  );
}

/** A fetch from the embedded page: `Authorization: Bearer <session token>`, as App Bridge adds. */
export async function adminFetchRequest(shop: string, path: string, init: RequestInit2 = {}) {
  return setUpValidRequest(
    {
      type: RequestType.Bearer,
      store: shop.replace(/\.myshopify\.com$/, ""),
      apiKey: API_KEY,
      apiSecretKey: API_SECRET_KEY,
    },
    buildRequest(path, init),
  );
}

function buildRequest(path: string, init: RequestInit2): Request {
  const url = new URL(path, APP_URL);
  if (init.form) {
    return new Request(url, {
      method: init.method ?? "POST",
      body: new URLSearchParams(init.form),
    });
  }
  if (init.json !== undefined) {
    return new Request(url, {
      method: init.method ?? "POST",
      body: JSON.stringify(init.json),
      headers: { "content-type": "application/json" },
    });
  }
  return new Request(url, { method: init.method ?? "GET" });
}

export interface WebhookOptions {
  topic: string;
  shop: string;
  payload: unknown;
  /** Signs with this secret instead of the app's (a forged webhook). */
  secret?: string;
  /** Headers to leave out, e.g. "X-Shopify-Hmac-Sha256". */
  omit?: string[];
  webhookId?: string;
}

/** A webhook request as Shopify sends it, HMAC-signed with the app's secret. */
export function webhookRequest({
  topic,
  shop,
  payload,
  secret,
  omit = [],
  webhookId,
}: WebhookOptions): Request {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-Shopify-Topic": topic,
    "X-Shopify-Shop-Domain": shop,
    "X-Shopify-API-Version": ADMIN_API_VERSION,
    "X-Shopify-Webhook-Id": webhookId ?? randomUUID(),
    "X-Shopify-Triggered-At": new Date().toISOString(),
    "X-Shopify-Event-Id": randomUUID(),
    "X-Shopify-Hmac-Sha256": getHmac(body, secret ?? API_SECRET_KEY),
  };
  for (const name of omit) delete headers[name];
  return new Request(new URL(`/webhooks/${topic}`, APP_URL), { method: "POST", headers, body });
}

type RouteFunction = (args: LoaderFunctionArgs) => unknown;

/**
 * Runs a route's loader or action the way Remix does and returns a Response: a thrown Response
 * (Shopify's redirects and 401s) is returned, plain data is wrapped as JSON.
 */
function isDataWithInit(value: unknown): value is { data: unknown; init?: ResponseInit } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { type?: unknown }).type === "DataWithResponseInit"
  );
}

export async function callRoute(
  fn: RouteFunction,
  request: Request,
  params: Record<string, string> = {},
) {
  try {
    const result = await fn({ request, params, context: {} });
    if (result instanceof Response) return result;
    // Remix's `data(value, init)`: the value with its status and headers.
    if (isDataWithInit(result)) return Response.json(result.data ?? null, result.init ?? {});
    return Response.json(result ?? null);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
