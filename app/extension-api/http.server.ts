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
