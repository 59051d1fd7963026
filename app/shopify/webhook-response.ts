import type { z } from "zod";

/**
 * A verified webhook whose body lacks what the app needs: 422 with the reason (Shopify shows it in
 * the app's webhook delivery log), and nothing is written.
 */
export function parseWebhookPayload<T extends z.ZodType>(schema: T, payload: unknown): z.infer<T> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const reason = result.error.issues
    .map((i) => `${i.path.join(".") || "body"}: ${i.message}`)
    .join("; ");
  throw new Response(`Unexpected webhook body: ${reason}`, { status: 422 });
}
