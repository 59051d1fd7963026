import { randomUUID } from "node:crypto";
import http from "node:http";
import { ADMIN_API_VERSION } from "../../app/shopify/api-version";

/**
 * The attacks of the security suite and `npm run bench:security`, against a running server on
 * loopback: one definition, so the tests and the benchmark measure the same thing.
 */

/** Every Shopify webhook route the app serves, as shopify.app.toml subscribes them. */
export const SHOPIFY_WEBHOOK_ROUTES = [
  "app/uninstalled",
  "app/scopes_update",
  "fulfillments/create",
  "fulfillments/update",
  "orders/cancelled",
  "customers/data_request",
  "customers/redact",
  "shop/redact",
] as const;

/** Headers of a Shopify webhook whose signature is well formed but made up. */
export function forgedWebhookHeaders(topic: string, shop: string): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "X-Shopify-Topic": topic,
    "X-Shopify-Shop-Domain": shop,
    "X-Shopify-API-Version": ADMIN_API_VERSION,
    "X-Shopify-Webhook-Id": randomUUID(),
    // 32 bytes in base64, as a real signature is.
    "X-Shopify-Hmac-Sha256": Buffer.alloc(32, 0x5a).toString("base64"),
  };
}

export interface FloodOutcome {
  /** The server's answer, or null when it closed the connection without one. */
  status: number | null;
  /** Bytes of body the client had written when the server answered or hung up. */
  bytesSent: number;
  /** Whether the whole body went out (the server read it all). */
  completed: boolean;
}

/**
 * POSTs `totalBytes` of body with chunked transfer encoding (no Content-Length, so the server
 * cannot refuse it up front), writing as fast as the server reads, and stops as soon as the
 * server answers or hangs up.
 */
export function chunkedFlood(
  url: string,
  options: { totalBytes: number; headers?: Record<string, string>; chunkBytes?: number },
): Promise<FloodOutcome> {
  const chunk = Buffer.alloc(options.chunkBytes ?? 64 * 1024, 0x61);
  return new Promise((resolve) => {
    let bytesSent = 0;
    let settled = false;
    let status: number | null = null;
    const finish = (completed: boolean) => {
      if (settled) return;
      settled = true;
      request.destroy();
      resolve({ status, bytesSent, completed });
    };
    const request = http.request(url, {
      method: "POST",
      headers: { ...options.headers, "Transfer-Encoding": "chunked" },
      agent: false,
    });
    request.on("response", (response) => {
      status = response.statusCode ?? null;
      response.resume();
      response.on("end", () => finish(bytesSent >= options.totalBytes));
      response.on("error", () => finish(false));
    });
    request.on("error", () => finish(false));
    request.on("close", () => finish(bytesSent >= options.totalBytes));
    const write = () => {
      while (!settled && bytesSent < options.totalBytes) {
        const part =
          options.totalBytes - bytesSent >= chunk.length
            ? chunk
            : chunk.subarray(0, options.totalBytes - bytesSent);
        bytesSent += part.length;
        if (!request.write(part)) {
          request.once("drain", write);
          return;
        }
      }
      if (!settled) request.end();
    };
    write();
  });
}

/** A plain request, answered as status, headers and body text. */
export async function probe(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; body: string }> {
  const response = await fetch(url, {
    redirect: "manual",
    ...init,
    headers: {
      // Shopify's library answers bot user agents with 410 on admin routes.
      "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36",
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** Whether a response would stop a page from being framed by a site other than the admin. */
export function hasFrameProtection(headers: Headers): boolean {
  const csp = headers.get("content-security-policy") ?? "";
  const ancestors = /frame-ancestors([^;]*)/.exec(csp)?.[1]?.trim();
  if (ancestors !== undefined) return !/(^|\s)(\*|https?:|https:\/\/\*)(\s|$)/.test(ancestors);
  return /^(deny|sameorigin)$/i.test(headers.get("x-frame-options") ?? "");
}

/** A stack trace or a path on the server's disk, shown to a visitor. */
export function showsStackTrace(body: string): boolean {
  return /\n\s+at [^\n]+:\d+:\d+|at [\w$.<>]+ \(\/|\/(work|home|root|usr|srv|app)\/[\w./-]+\.(js|ts|mjs|cjs)/.test(
    body,
  );
}
