import type { z } from "zod";
import { ENDPOINTS, type CourierEndpoint } from "./endpoints";
import {
  CourierAuthError,
  CourierMalformedReplyError,
  CourierNotFoundError,
  CourierUnavailableError,
  CourierValidationError,
  type CourierError,
  type CourierErrorDetails,
  type CourierFieldError,
  type CourierOutcome,
} from "./errors";

/** A reply as it came off the wire. */
export interface RawReply {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
}

export interface ReplyContext<T> {
  endpoint: CourierEndpoint;
  action: string;
  schema: z.ZodType<T>;
  /** For `Retry-After` given as a date. */
  now?: () => number;
}

interface Envelope {
  responseCode: number;
  message: string | undefined;
  results: unknown;
}

const MAX_TEXT = 300;
const MAX_RAW_BODY = 2000;

/**
 * Turns a reply into the endpoint's result, or throws a `CourierError`. Success is a 2xx reply
 * whose envelope has `responseCode` 200 and whose `results` match the endpoint's schema; the
 * document says a success is HTTP 200, but a 201 carrying a created order is still a created order.
 * Never throws anything but a `CourierError`, whatever the bytes.
 */
export function parseCourierReply<T>(reply: RawReply, context: ReplyContext<T>): T {
  const text = decodeUtf8(reply.bytes);
  const json = text === undefined ? undefined : parseJson(text);
  const envelope = envelopeOf(json);
  const sideEffects = ENDPOINTS[context.endpoint].sideEffects;
  const base: CourierErrorDetails = {
    endpoint: context.endpoint,
    action: context.action,
    outcome: "rejected",
    status: reply.status,
    responseCode: envelope?.responseCode,
    body: json ?? (text === undefined ? undefined : cut(text, MAX_RAW_BODY)),
    courierMessage: courierMessageOf(json, envelope, text, reply.headers),
    requestId:
      reply.headers.get("x-request-id") ??
      reply.headers.get("x-correlation-id") ??
      reply.headers.get("request-id") ??
      undefined,
  };
  const retryAfterMs = parseRetryAfter(
    reply.headers.get("retry-after"),
    context.now?.() ?? Date.now(),
  );

  if (reply.status < 200 || reply.status > 299) {
    if (reply.status >= 300 && reply.status <= 399) {
      const location = reply.headers.get("location");
      throw new CourierMalformedReplyError({
        ...base,
        outcome: sideEffects ? "unknown" : "rejected",
        detail: `it redirected to ${location ? cut(location, 120) : "another address"} (HTTP ${reply.status}); the configured courier address is probably wrong`,
      });
    }
    throw errorForCode(reply.status, base, sideEffects, retryAfterMs);
  }

  const unknownOrRejected: CourierOutcome = sideEffects ? "unknown" : "rejected";
  if (text === undefined) {
    throw new CourierMalformedReplyError({
      ...base,
      outcome: unknownOrRejected,
      detail: "the reply is not UTF-8 text",
    });
  }
  if (json === undefined) {
    throw new CourierMalformedReplyError({
      ...base,
      outcome: unknownOrRejected,
      detail: text.trim() === "" ? "the reply is empty" : "the reply is not JSON",
    });
  }
  if (!envelope) {
    throw new CourierMalformedReplyError({
      ...base,
      outcome: unknownOrRejected,
      detail: "the reply has no responseCode envelope",
    });
  }
  if (envelope.responseCode !== 200) {
    throw errorForCode(envelope.responseCode, base, sideEffects, retryAfterMs);
  }
  const parsed = context.schema.safeParse(envelope.results);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where =
      first && first.path.length > 0 ? `results.${first.path.map(String).join(".")}` : "results";
    throw new CourierMalformedReplyError({
      ...base,
      outcome: unknownOrRejected,
      detail: `${where}: ${first?.message ?? "unexpected shape"}`,
    });
  }
  return parsed.data;
}

// Maps an HTTP status or envelope `responseCode` that is not a success to its error.
function errorForCode(
  code: number,
  base: CourierErrorDetails,
  sideEffects: boolean,
  retryAfterMs: number | undefined,
): CourierError {
  if (code === 401 || code === 403) return new CourierAuthError(base);
  if (code === 404) return new CourierNotFoundError(base);
  if (code === 429) {
    return new CourierUnavailableError({ ...base, reason: "rate_limited", retryAfterMs });
  }
  if (code === 408 || (code >= 500 && code <= 599)) {
    // A server error after the request arrived may come after the work was done.
    return new CourierUnavailableError({
      ...base,
      outcome: sideEffects && code !== 408 ? "unknown" : "rejected",
      reason: "server_error",
      retryAfterMs,
    });
  }
  if (code >= 400 && code <= 499) {
    return new CourierValidationError({ ...base, fieldErrors: fieldErrorsOf(base.body) });
  }
  return new CourierMalformedReplyError({
    ...base,
    outcome: sideEffects ? "unknown" : "rejected",
    detail: `unexpected ${base.responseCode === code && base.status !== code ? "responseCode" : "HTTP status"} ${code}`,
  });
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function envelopeOf(json: unknown): Envelope | undefined {
  if (!isObject(json)) return undefined;
  const { responseCode, message, results } = json;
  if (typeof responseCode !== "number" || !Number.isSafeInteger(responseCode)) return undefined;
  return { responseCode, message: typeof message === "string" ? message : undefined, results };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

// Untrusted text made fit for one line of a message.
function clean(text: string): string | undefined {
  const line = text.replace(CONTROL_CHARACTERS, " ").replace(/\s+/g, " ").trim();
  return line === "" ? undefined : cut(line, MAX_TEXT);
}

// The courier's own words: the envelope's message, a ProblemDetails title, or short plain text.
function courierMessageOf(
  json: unknown,
  envelope: Envelope | undefined,
  text: string | undefined,
  headers: Headers,
): string | undefined {
  if (envelope?.message !== undefined) return clean(envelope.message);
  if (isObject(json)) {
    for (const key of ["message", "error", "title", "detail"]) {
      const value = json[key];
      if (typeof value === "string") return clean(value);
    }
    return undefined;
  }
  const type = headers.get("content-type") ?? "";
  if (text !== undefined && json === undefined && /^text\/plain/i.test(type)) return clean(text);
  return undefined;
}

// Field errors the courier listed, in the shapes couriers commonly use.
function fieldErrorsOf(body: unknown): CourierFieldError[] {
  if (!isObject(body)) return [];
  const holder = isObject(body.results) ? body.results : body;
  const errors = holder.errors;
  const out: CourierFieldError[] = [];
  if (Array.isArray(errors)) {
    for (const entry of errors.slice(0, 50)) {
      if (isObject(entry) && typeof entry.message === "string") {
        out.push({
          field: typeof entry.field === "string" ? entry.field : "body",
          message: entry.message,
        });
      } else if (typeof entry === "string") {
        out.push({ field: "body", message: entry });
      }
    }
  } else if (isObject(errors)) {
    // ASP.NET's ProblemDetails: { errors: { "Field": ["message", ...] } }
    for (const [field, messages] of Object.entries(errors).slice(0, 50)) {
      for (const message of Array.isArray(messages) ? messages : [messages]) {
        if (typeof message === "string") out.push({ field, message });
      }
    }
  }
  return out;
}

const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
const NAMED_ZONE = /\b(?:GMT|UTC?|Z|[ECMP][SD]T)\b|[+-]\d{2}:?\d{2}\b/i;

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date; undefined when absent or invalid. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed))
    return Math.min(Math.round(Number(trimmed) * 1000), MAX_RETRY_AFTER_MS);
  // An HTTP date always names the weekday and the month, e.g. "Wed, 21 Oct 2026 07:28:00 GMT".
  if (!/[a-z]{3}/i.test(trimmed)) return undefined;
  // HTTP dates are GMT (RFC 9110 §5.6.7), but asctime's form names no zone, and Date.parse would
  // read it in the machine's local time.
  const at = Date.parse(NAMED_ZONE.test(trimmed) ? trimmed : `${trimmed} GMT`);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}
