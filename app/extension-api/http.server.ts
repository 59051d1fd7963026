import type { z } from "zod";
import type { ApiError } from "../api-contract";
import { authenticate } from "../shopify.server";

/**
 * The admin extensions' requests: authenticated by `authenticate.admin` from the session token
 * the admin gives the extension (an OPTIONS preflight is answered by the library with its CORS
 * headers), answered through the library's `cors` so the admin's origin may read the answer.
 */
export async function authenticateExtension(request: Request) {
  const { session, admin, cors } = await authenticate.admin(request);
  return { shop: session.shop, admin, cors };
}

type Cors = Awaited<ReturnType<typeof authenticateExtension>>["cors"];

export function json<T>(cors: Cors, body: T, status = 200): Response {
  return cors(Response.json(body, { status }));
}

export function apiError(cors: Cors, status: number, error: string): Response {
  return json<ApiError>(cors, { error }, status);
}

/** The first problem of a failed parse, in the words of the schema. */
export function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Invalid request.";
}

/**
 * The action of a route that only answers GET: the CORS preflight (OPTIONS) an extension's fetch
 * sends first is answered by `authenticate.admin`; any other method is refused.
 */
export async function preflightOnly({ request }: { request: Request }): Promise<Response> {
  const { cors } = await authenticateExtension(request);
  return apiError(cors, 405, "This address only answers GET.");
}

/**
 * The shopper's blocks' requests (thank-you and order status pages): the session token Shopify
 * gives a checkout or customer account extension, checked by the library with the app's secret
 * (`authenticate.public.*`; both answer the CORS preflight, and a missing or bad token with 401).
 * The shop is the token's `dest`, never anything the request says.
 */
export async function authenticateShopper(request: Request, surface: "thank-you" | "order-status") {
  const { sessionToken, cors } =
    surface === "order-status"
      ? await authenticate.public.customerAccount(request)
      : await authenticate.public.checkout(request);
  const dest = String(sessionToken.dest ?? "");
  const shop = URL.canParse(dest) ? new URL(dest).hostname : dest;
  if (!/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(shop)) {
    throw new Response(undefined, { status: 401, statusText: "Unauthorized" });
  }
  return { shop, cors };
}
