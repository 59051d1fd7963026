import { ENDPOINTS, type CourierEndpoint } from "./endpoints";

/**
 * Whether the courier may have acted on a failed request:
 * - `not_sent`: the request never left the app (invalid, or the courier could not be reached);
 * - `rejected`: the courier answered that it did not do it;
 * - `unknown`: no clear answer came back (timeout, dropped connection, unintelligible reply, or a
 *   server error on a call with side effects). For a create this means the order may exist.
 */
export type CourierOutcome = "not_sent" | "rejected" | "unknown";

/** One problem with one field of a request, from the client's own checks or the courier's reply. */
export interface CourierFieldError {
  field: string;
  message: string;
}

/** What every courier error knows; `action` words the call for messages ("reading the areas"). */
export interface CourierErrorDetails {
  endpoint: CourierEndpoint;
  action: string;
  outcome: CourierOutcome;
  status?: number;
  responseCode?: number;
  body?: unknown;
  courierMessage?: string;
  requestId?: string;
  detail?: string;
  cause?: unknown;
}

/**
 * Base class of every failure of a courier call. `message` is written for the merchant: what
 * happened and what to do. Never carries the API key (see `redactCourierError`).
 */
export abstract class CourierError extends Error {
  readonly endpoint: CourierEndpoint;
  readonly outcome: CourierOutcome;
  /** HTTP status of the reply, when one came. */
  readonly status: number | undefined;
  /** The envelope's `responseCode`, when the reply had one. */
  readonly responseCode: number | undefined;
  /** The parsed reply body (JSON, or text cut short), when one came. */
  readonly body: unknown;
  /** The courier's own `message`, when it gave one. */
  readonly courierMessage: string | undefined;
  readonly requestId: string | undefined;
  /** A technical detail for support (which field, which status), also worked into `message`. */
  readonly detail: string | undefined;
  /** How many times the call was made before giving up. */
  attempts = 1;

  protected constructor(message: string, details: CourierErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    // So the stack starts "CourierTimeoutError: ..." rather than "Error: ...".
    this.name = new.target.name;
    Error.captureStackTrace(this, new.target);
    this.endpoint = details.endpoint;
    this.outcome = details.outcome;
    this.status = details.status;
    this.responseCode = details.responseCode;
    this.body = details.body;
    this.courierMessage = details.courierMessage;
    this.requestId = details.requestId;
    this.detail = details.detail;
  }

  /** A summary safe to log or return to a browser (no body, no cause). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      endpoint: this.endpoint,
      outcome: this.outcome,
      status: this.status,
      responseCode: this.responseCode,
      courierMessage: this.courierMessage,
      requestId: this.requestId,
      detail: this.detail,
      attempts: this.attempts,
    };
  }
}

/** True for any error raised by the courier client. */
export function isCourierError(error: unknown): error is CourierError {
  return error instanceof CourierError;
}

const quoted = (text: string | undefined) => (text ? `: “${text}”` : "");
// The code that said no: the HTTP status, or the envelope's code inside an HTTP success.
const httpPart = (d: CourierErrorDetails) => {
  const success = d.status !== undefined && d.status >= 200 && d.status <= 299;
  if (d.responseCode !== undefined && (success || d.status === undefined))
    return `code ${d.responseCode}`;
  return d.status !== undefined ? `HTTP ${d.status}` : "no reply";
};

/** The courier did not accept the API key, or the key cannot be sent at all. */
export class CourierAuthError extends CourierError {
  override readonly name = "CourierAuthError";

  constructor(details: CourierErrorDetails) {
    super(
      details.outcome === "not_sent"
        ? `The API key was not sent while ${details.action}: ${details.detail ?? "it is not a valid key"}. Paste only the key the courier issued.`
        : `The courier rejected the API key while ${details.action} (${httpPart(details)}${quoted(details.courierMessage)}). Check that the whole key was pasted and that it belongs to the chosen environment (sandbox or production); if it still fails, ask the courier to confirm the key is active.`,
      details,
    );
  }
}

/**
 * The request was refused as invalid: by the client before sending (`outcome` "not_sent"), or by
 * the courier (`outcome` "rejected", with its message).
 */
export class CourierValidationError extends CourierError {
  override readonly name: string = "CourierValidationError";
  /** Which fields were wrong, when known. */
  readonly fieldErrors: CourierFieldError[];

  constructor(
    details: CourierErrorDetails & { fieldErrors?: CourierFieldError[] },
    message?: string,
  ) {
    super(message ?? validationMessage(details), details);
    this.fieldErrors = details.fieldErrors ?? [];
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), fieldErrors: this.fieldErrors };
  }
}

/**
 * The courier answered "not found": an order it does not know for this key, a governance it does
 * not have, or (on any other call) a base URL that is not the courier's API.
 */
export class CourierNotFoundError extends CourierValidationError {
  override readonly name = "CourierNotFoundError";

  constructor(details: CourierErrorDetails) {
    super(
      details,
      `The courier found nothing while ${details.action} (${httpPart(details)}${quoted(details.courierMessage)}). Check the identifier; if this happens for every call, the courier's address configured for this environment is probably wrong.`,
    );
  }
}

function validationMessage(details: CourierErrorDetails): string {
  if (details.outcome === "not_sent") {
    return `The request was not sent while ${details.action} because it is invalid: ${details.detail ?? "see the field errors"}. Correct it and try again.`;
  }
  const conflict = details.status === 409 || details.responseCode === 409;
  if (conflict) {
    return `The courier refused the request while ${details.action}${quoted(details.courierMessage)} (${httpPart(details)}): the order is not in a state that allows it. Check its current status.`;
  }
  return details.courierMessage
    ? `The courier refused the request while ${details.action}${quoted(details.courierMessage)} (${httpPart(details)}). Correct what it names and try again.`
    : `The courier refused the request while ${details.action} (${httpPart(details)}) without saying why. Check the details sent and try again.`;
}

export type UnavailableReason =
  "connection_refused" | "connection_lost" | "rate_limited" | "server_error";

/** The courier could not be reached, failed on its side, or asked the app to slow down. */
export class CourierUnavailableError extends CourierError {
  override readonly name = "CourierUnavailableError";
  readonly reason: UnavailableReason;
  /** How long the courier asked to wait (`Retry-After`), in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(details: CourierErrorDetails & { reason: UnavailableReason; retryAfterMs?: number }) {
    const unknown = ENDPOINTS[details.endpoint].unknownOutcome;
    const wait =
      details.retryAfterMs !== undefined
        ? `Try again in ${formatSeconds(details.retryAfterMs)}.`
        : "Try again in a few minutes.";
    let message: string;
    switch (details.reason) {
      case "connection_refused":
        message = `The courier could not be reached while ${details.action}${details.detail ? ` (${details.detail})` : ""}. Nothing was sent. ${wait} If it keeps failing, the courier's service is down or its configured address is wrong.`;
        break;
      case "connection_lost":
        message = consequence(
          `The connection to the courier broke while ${details.action}${details.detail ? ` (${details.detail})` : ""}`,
          details.outcome === "unknown" ? unknown : undefined,
          wait,
        );
        break;
      case "rate_limited":
        message = `The courier is receiving too many requests and refused this one while ${details.action} (${httpPart(details)}). Nothing was done. ${wait}`;
        break;
      case "server_error":
        message = consequence(
          `The courier had a problem on its side while ${details.action} (${httpPart(details)}${quoted(details.courierMessage)})`,
          details.outcome === "unknown" ? unknown : undefined,
          wait,
        );
        break;
    }
    super(message, details);
    this.reason = details.reason;
    this.retryAfterMs = details.retryAfterMs;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), reason: this.reason, retryAfterMs: this.retryAfterMs };
  }
}

/** No reply within the time limit. For a create, bulk create or cancel the outcome is unknown. */
export class CourierTimeoutError extends CourierError {
  override readonly name = "CourierTimeoutError";
  readonly timeoutMs: number;

  constructor(details: CourierErrorDetails & { timeoutMs: number }) {
    const unknown = ENDPOINTS[details.endpoint].unknownOutcome;
    super(
      consequence(
        `The courier did not answer within ${formatSeconds(details.timeoutMs)} while ${details.action}`,
        unknown,
        "Try again in a moment; if it keeps happening, the courier is slow or down.",
      ),
      details,
    );
    this.timeoutMs = details.timeoutMs;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), timeoutMs: this.timeoutMs };
  }
}

/**
 * A create not sent because the worker sending it was held up (paused, starved, waiting on a
 * disk) for longer than its send window after it confirmed it still held the delivery: by now
 * another worker may have taken the delivery over. Nothing was sent; the worker checks its hold
 * on the delivery again before any new try (ADR 0017).
 */
export class CourierSendExpiredError extends CourierError {
  override readonly name = "CourierSendExpiredError";
  /** How long after its deadline the send would have left. */
  readonly lateByMs: number;

  constructor(details: CourierErrorDetails & { lateByMs: number }) {
    super(
      `Nothing was sent while ${details.action}: the app was held up ${formatSeconds(details.lateByMs)} past the moment it may send it, so it checks first that the delivery is still its own.`,
      { ...details, outcome: "not_sent" },
    );
    this.lateByMs = details.lateByMs;
  }
}

/**
 * A call not made because the courier did not answer the account's last calls: its circuit is
 * open until `retryAt`, then a single trial call finds out whether it answers again (ADR 0019).
 * Nothing was sent. The message is the one the merchant reads on a waiting delivery.
 */
export class CourierCircuitOpenError extends CourierError {
  override readonly name = "CourierCircuitOpenError";
  readonly retryAt: Date;

  constructor(details: CourierErrorDetails & { retryAt: Date }) {
    super("The courier is not answering; sending resumes by itself when it does.", {
      ...details,
      outcome: "not_sent",
    });
    this.retryAt = details.retryAt;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAt: this.retryAt.toISOString() };
  }
}

/** The courier answered, but not in the documented form (not JSON, no envelope, wrong fields). */
export class CourierMalformedReplyError extends CourierError {
  override readonly name = "CourierMalformedReplyError";

  constructor(details: CourierErrorDetails & { detail: string }) {
    const unknown = ENDPOINTS[details.endpoint].unknownOutcome;
    super(
      consequence(
        `The courier's reply could not be understood while ${details.action} (${details.detail})`,
        details.outcome === "unknown" ? unknown : undefined,
        "Try again later; if it keeps happening, report it to the courier's support. Your settings are not the cause.",
      ),
      details,
    );
  }
}

// "What happened, so <unknown outcome>." or "What happened. <What to do>"
function consequence(what: string, unknown: string | undefined, otherwise: string): string {
  return unknown ? `${what}, so ${unknown}` : `${what}. ${otherwise}`;
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  if (seconds === 1) return "1 second";
  return `${seconds >= 10 ? Math.round(seconds) : Number(seconds.toFixed(1))} seconds`;
}

/**
 * Removes every occurrence of `secret` from an error: message, stack, courier message, detail,
 * body and cause chain. The client runs every error through this before it leaves, so a courier
 * that echoes the key back cannot make it end up in a log.
 */
export function redactCourierError(error: CourierError, secret: string): CourierError {
  if (!secret) return error;
  // Every own property, enumerable or not (message, stack, cause, body, fieldErrors...), so a
  // field added later cannot be forgotten here.
  for (const key of Reflect.ownKeys(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key);
    if (!descriptor) continue;
    // V8 may install `stack` as an accessor rather than a value.
    const value: unknown = "value" in descriptor ? descriptor.value : descriptor.get?.call(error);
    if (typeof value !== "string" && (typeof value !== "object" || value === null)) continue;
    const clean = redactValue(value, secret);
    if ("value" in descriptor) Object.defineProperty(error, key, { ...descriptor, value: clean });
    else descriptor.set?.call(error, clean);
  }
  return error;
}

export const REDACTED = "[redacted]";

export function redactText(text: string, secret: string): string {
  return secret ? text.split(secret).join(REDACTED) : text;
}

/** A copy of a JSON-like value (or an Error) with the secret removed from every string in it. */
export function redactValue(value: unknown, secret: string, depth = 0): unknown {
  if (typeof value === "string") return redactText(value, secret);
  if (depth > 20 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) {
    // Rebuilt as a plain Error: the original may hold request details in fields we do not know.
    const copy = new Error(redactText(value.message, secret));
    copy.name = value.name;
    copy.stack = value.stack === undefined ? undefined : redactText(value.stack, secret);
    const code = (value as { code?: unknown }).code;
    if (typeof code === "string") Object.assign(copy, { code });
    if (value.cause !== undefined) {
      Object.defineProperty(copy, "cause", {
        value: redactValue(value.cause, secret, depth + 1),
        enumerable: false,
      });
    }
    return copy;
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secret, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    Object.defineProperty(copy, redactText(key, secret), {
      value: redactValue(v, secret, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}
