import { z } from "zod";

/**
 * Whether WhatsApp may have sent the message when a send failed:
 * - `not_sent`: refused before it left (a bad number or a token that cannot be sent);
 * - `rejected`: Meta answered and refused it, nothing was sent;
 * - `unknown`: no usable answer (time limit, broken connection, server error): the message may
 *   have gone, so a retry may deliver a second copy.
 */
export type WhatsAppOutcome = "not_sent" | "rejected" | "unknown";

/** The Graph API's error object: `{ error: { message, type, code, error_subcode, fbtrace_id } }`. */
export const graphErrorSchema = z.object({
  error: z.object({
    message: z.string().optional(),
    type: z.string().optional(),
    code: z.number().int(),
    error_subcode: z.number().int().optional(),
    error_user_title: z.string().optional(),
    error_user_msg: z.string().optional(),
    error_data: z.object({ details: z.string().optional() }).loose().optional(),
    fbtrace_id: z.string().optional(),
  }),
});
export type GraphError = z.infer<typeof graphErrorSchema>["error"];

export interface WhatsAppErrorDetails {
  outcome: WhatsAppOutcome;
  status?: number;
  graph?: GraphError;
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * Base class of every failure of a WhatsApp call. `message` says what happened and what to fix;
 * it never carries the access token (the client removes it from every text it keeps).
 */
export abstract class WhatsAppError extends Error {
  readonly outcome: WhatsAppOutcome;
  /** True when the same request may succeed later unchanged (rate limit, server error, time limit). */
  abstract readonly retryable: boolean;
  readonly status: number | undefined;
  /** Meta's error code (`190`, `131026`, `132001`…), when it gave one. */
  readonly code: number | undefined;
  readonly subcode: number | undefined;
  /** Meta's own words, for support. */
  readonly graphMessage: string | undefined;
  readonly fbtraceId: string | undefined;
  /** How long Meta asked to wait (`Retry-After`), in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, details: WhatsAppErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.outcome = details.outcome;
    this.status = details.status;
    this.code = details.graph?.code;
    this.subcode = details.graph?.error_subcode;
    this.graphMessage = details.graph?.error_data?.details ?? details.graph?.message;
    this.fbtraceId = details.graph?.fbtrace_id;
    this.retryAfterMs = details.retryAfterMs;
  }

  /** A summary safe to log (no cause). */
  toJSON(): Record<string, unknown> {
    const { name, message, outcome, retryable, status, code, subcode, graphMessage } = this;
    return { name, message, outcome, retryable, status, code, subcode, graphMessage };
  }
}

const said = (d: WhatsAppErrorDetails) => {
  const code = d.graph ? `code ${d.graph.code}` : d.status ? `HTTP ${d.status}` : "no reply";
  const words = d.graph?.error_data?.details ?? d.graph?.message;
  return words ? `${code}: “${words}”` : code;
};

/** The token was refused (HTTP 401, code 190) or lacks a permission (codes 10, 200–299). */
export class WhatsAppAuthError extends WhatsAppError {
  readonly retryable = false;
  constructor(details: WhatsAppErrorDetails) {
    super(
      `WhatsApp refused the access token (${said(details)}). Paste a permanent token of a system user with the whatsapp_business_messaging permission for this phone number; temporary tokens expire after a day.`,
      details,
    );
  }
}

/** Too many messages (HTTP 429, codes 4, 80007, 130429, 131048, 131056): wait and send again. */
export class WhatsAppRateLimitedError extends WhatsAppError {
  readonly retryable = true;
  constructor(details: WhatsAppErrorDetails) {
    const wait =
      details.retryAfterMs === undefined
        ? "Send it again in a few minutes."
        : `Send it again in ${Math.ceil(details.retryAfterMs / 1000)} seconds.`;
    super(
      `WhatsApp is limiting how fast this number sends (${said(details)}). Nothing was sent. ${wait}`,
      details,
    );
  }
}

/** WhatsApp failed on its side (5xx), timed out or the connection broke; the message may have gone. */
export class WhatsAppUnavailableError extends WhatsAppError {
  readonly retryable = true;
  constructor(details: WhatsAppErrorDetails, what?: string) {
    super(
      `${what ?? `WhatsApp had a problem on its side (${said(details)})`}. ${
        details.outcome === "unknown"
          ? "The message may or may not have been sent; "
          : "Nothing was sent; "
      }try again in a few minutes.`,
      details,
    );
  }
}

/** No answer within the time limit: the message may have been sent. */
export class WhatsAppTimeoutError extends WhatsAppUnavailableError {
  constructor(details: WhatsAppErrorDetails & { timeoutMs: number }) {
    super(
      { ...details, outcome: "unknown" },
      `WhatsApp did not answer within ${details.timeoutMs / 1000} seconds`,
    );
  }
}

/** The number cannot receive WhatsApp messages (code 131026): fix the phone or use another way. */
export class WhatsAppUndeliverableError extends WhatsAppError {
  readonly retryable = false;
  constructor(details: WhatsAppErrorDetails) {
    super(
      `WhatsApp cannot deliver to this number (${said(details)}): it is not on WhatsApp, or cannot receive business messages. Check the shopper's phone, or reach them another way.`,
      details,
    );
  }
}

/** The template is unknown, not approved in this language, or got the wrong parameters (132xxx). */
export class WhatsAppTemplateError extends WhatsAppError {
  readonly retryable = false;
  constructor(details: WhatsAppErrorDetails) {
    super(
      `WhatsApp refused the message template (${said(details)}). Check in WhatsApp Manager that the template name is spelt as in Settings, is approved in this language, and takes the same number of parameters.`,
      details,
    );
  }
}

/** Any other refusal (code 100 and the like), or a request the client would not send. */
export class WhatsAppRequestError extends WhatsAppError {
  readonly retryable = false;
  constructor(details: WhatsAppErrorDetails, what?: string) {
    super(
      what ??
        `WhatsApp refused the request (${said(details)}). Check the phone number id and the recipient's number.`,
      details,
    );
  }
}

/** WhatsApp answered, but not in the documented form. */
export class WhatsAppMalformedReplyError extends WhatsAppError {
  readonly retryable = false;
  constructor(details: WhatsAppErrorDetails & { detail: string }) {
    super(
      `WhatsApp's answer could not be understood (${details.detail}); the message may or may not have been sent. Check the WhatsApp address configured (WHATSAPP_API_URL).`,
      { ...details, outcome: "unknown" },
    );
  }
}

const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131048, 131056]);
const SERVER_CODES = new Set([1, 2, 131000, 131016]);

/** The error for a non-2xx answer, from its status and Graph error object. */
export function classifyGraphError(
  status: number,
  graph: GraphError | undefined,
  retryAfterMs: number | undefined,
): WhatsAppError {
  const code = graph?.code;
  const details = { status, graph, retryAfterMs };
  if (status === 401 || code === 190 || code === 10 || (code && code >= 200 && code <= 299))
    return new WhatsAppAuthError({ ...details, outcome: "rejected" });
  if (status === 429 || (code !== undefined && RATE_LIMIT_CODES.has(code)))
    return new WhatsAppRateLimitedError({ ...details, outcome: "rejected" });
  if (code === 131026) return new WhatsAppUndeliverableError({ ...details, outcome: "rejected" });
  if (code !== undefined && code >= 132000 && code <= 132999)
    return new WhatsAppTemplateError({ ...details, outcome: "rejected" });
  if (status >= 500 || (code !== undefined && SERVER_CODES.has(code)))
    return new WhatsAppUnavailableError({ ...details, outcome: "unknown" });
  return new WhatsAppRequestError({ ...details, outcome: "rejected" });
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
