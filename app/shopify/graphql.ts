import type { z } from "zod";

/** The part of the library's Admin API client the app uses; routes, webhooks and jobs all have one. */
export interface AdminGraphql {
  graphql(query: string, options?: { variables?: Record<string, unknown> }): Promise<Response>;
}

export class ShopifyReplyError extends Error {
  constructor(
    message: string,
    readonly operation: string,
  ) {
    super(message);
    this.name = "ShopifyReplyError";
  }
}

/**
 * Runs one typed operation: the reply's `data` is checked against `schema`, so a field Shopify
 * renamed fails here, loudly, instead of as an undefined deep inside the app. Throttling and
 * transport errors are thrown by the library as its own errors and pass through.
 */
export async function runAdminOperation<T extends z.ZodType>(
  admin: AdminGraphql,
  operation: string,
  query: string,
  schema: T,
  variables?: Record<string, unknown>,
): Promise<z.infer<T>> {
  const response = await admin.graphql(query, variables ? { variables } : undefined);
  const body = (await response.json()) as { data?: unknown; errors?: { message?: string }[] };
  if (body.errors?.length) {
    throw new ShopifyReplyError(
      `Shopify refused ${operation}: ${body.errors.map((e) => e.message).join("; ")}`,
      operation,
    );
  }
  const parsed = schema.safeParse(body.data);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join(".") ?? "data";
    throw new ShopifyReplyError(
      `Shopify's reply to ${operation} was not as expected at ${where}.`,
      operation,
    );
  }
  return parsed.data;
}

/** Mutations report problems as userErrors with a 200; this turns them into one message. */
export function userErrorsMessage(
  errors: readonly { field?: readonly string[] | null; message: string }[],
) {
  return errors
    .map((e) => (e.field?.length ? `${e.field.join(".")}: ${e.message}` : e.message))
    .join("; ");
}
