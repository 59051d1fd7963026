import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import {
  InvalidHostError,
  InvalidJwtError,
  InvalidShopError,
  MissingJwtTokenError,
  ShopifyError,
} from "@shopify/shopify-api";
import { boundary } from "@shopify/shopify-app-remix/server";
import { tFor } from "../i18n/instance";
import { UNVERIFIED_EMBEDDED_CSP } from "../security/frame-policy";
import { authenticate } from "../shopify.server";

/**
 * The library's auth paths (session-token bounce page, exit-iframe). What it answers goes out as
 * it is, except that its pages may be framed by the Shopify admin only: it names the `?shop=` of
 * the link, which nothing has verified yet (ADR 0012). A link it refuses (a destination it will not
 * open, a malformed shop, host or token) is the visitor's mistake: 400, not a server error.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  try {
    await authenticate.admin(request);
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) throw framedByTheAdminOnly(thrown);
    if (isRefusedLink(thrown)) {
      throw new Response(tFor("en", "errors")("badLink.body"), { status: 400 });
    }
    throw thrown;
  }
};

function isRefusedLink(error: unknown): boolean {
  return (
    error instanceof InvalidShopError ||
    error instanceof InvalidHostError ||
    error instanceof InvalidJwtError ||
    error instanceof MissingJwtTokenError ||
    // The library refuses an exit-iframe destination or redirect URL with a bare ShopifyError.
    (error instanceof ShopifyError && error.constructor === ShopifyError)
  );
}

function framedByTheAdminOnly(response: Response): Response {
  if (!response.headers.has("Content-Security-Policy")) return response;
  const headers = new Headers(response.headers);
  headers.set("Content-Security-Policy", UNVERIFIED_EMBEDDED_CSP);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
