import type { CourierEndpoint } from "./endpoints";
import { CourierMalformedReplyError, CourierUnavailableError, type CourierError } from "./errors";

/*
 * What went wrong on the wire, as a CourierError: whether the request can have reached the
 * courier (refused before sending, or lost after) decides the outcome a caller acts on.
 */

const CONNECT_FAILURES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "address not found",
  EAI_AGAIN: "address lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
};
const DROPS: Record<string, string> = {
  ECONNRESET: "connection reset",
  EPIPE: "connection closed",
  UND_ERR_SOCKET: "connection closed by the courier",
  UND_ERR_CLOSED: "connection closed",
};

// The error codes of an error and its causes (undici wraps the socket error in `cause`).
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

export function transportError(
  error: unknown,
  details: { endpoint: CourierEndpoint; action: string },
  sideEffects: boolean,
  status: number | undefined,
): CourierError {
  if (error instanceof RangeError) {
    return new CourierMalformedReplyError({
      ...details,
      outcome: sideEffects ? "unknown" : "rejected",
      status,
      detail: error.message,
    });
  }
  const codes = errorCodes(error);
  const refused = codes.find((code) => code in CONNECT_FAILURES);
  if (refused && status === undefined) {
    return new CourierUnavailableError({
      ...details,
      outcome: "not_sent",
      reason: "connection_refused",
      detail: CONNECT_FAILURES[refused],
      cause: error,
    });
  }
  const dropped = codes.find((code) => code in DROPS);
  return new CourierUnavailableError({
    ...details,
    outcome: "unknown",
    reason: "connection_lost",
    status,
    detail: dropped ? DROPS[dropped] : status === undefined ? "no reply" : "the reply was cut off",
    cause: error,
  });
}
