import type { CourierError } from "../courier/errors";

/**
 * What the courier answered, kept on the timeline event for the merchant (ADR 0029): ids,
 * statuses and messages only — never the request's personal data, a reply body or the key.
 */
export type CourierAnswer = { courier: Record<string, unknown> };

export function courierReply(answer: Record<string, unknown>): CourierAnswer {
  return { courier: answer };
}

/** A courier error as the merchant may read it: its summary without body or cause. */
export function courierFailure(error: CourierError): CourierAnswer {
  const { name, status, responseCode, courierMessage, requestId, outcome, fieldErrors } =
    error.toJSON() as Record<string, unknown>;
  return courierReply({
    error: name,
    outcome,
    status,
    responseCode,
    message: courierMessage,
    requestId,
    fieldErrors,
  });
}
