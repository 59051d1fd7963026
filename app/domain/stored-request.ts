import { z } from "zod";
import { createOrderSchema, type CreateOrderBody } from "../courier/requests";
import { jsonColumn, Unreadable } from "./json-column";
import { erasedRequestSchema, type ErasedRequest } from "./redaction";

/**
 * `Delivery.request`: the courier's create body as the worker built it (prepare) and last sent it
 * (create), checked again by the courier's own schema when read. After customers/redact it is the
 * same body with the delivery address emptied ({@link ErasedRequest}), which is never sent.
 */
export type StoredRequest =
  { erased: false; body: CreateOrderBody } | { erased: true; body: ErasedRequest };

const storedRequestSchema = z.union([
  createOrderSchema.transform((body): StoredRequest => ({ erased: false, body })),
  erasedRequestSchema.transform((body): StoredRequest => ({ erased: true, body })),
]);

/** Written as the body itself; read back as {@link StoredRequest}. */
export const requestColumn = jsonColumn<typeof storedRequestSchema, CreateOrderBody>(
  "Delivery.request",
  storedRequestSchema,
);

/** The body to send, or why it cannot be sent, in the merchant's words. */
export function bodyToSend(
  request: StoredRequest | Unreadable,
): { ok: true; body: CreateOrderBody } | { ok: false; reason: string } {
  if (request instanceof Unreadable) {
    return {
      ok: false,
      reason: `The request built for this delivery can no longer be read (${request.problem}). Press Try again to build it again from the order.`,
    };
  }
  if (request.erased) {
    return {
      ok: false,
      reason: "The customer's personal data was erased at their request: nothing can be sent.",
    };
  }
  return { ok: true, body: request.body };
}
