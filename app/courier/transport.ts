import type { z } from "zod";
import { ENDPOINTS, type CourierEndpoint } from "./endpoints";
import {
  CourierAuthError,
  CourierError,
  CourierMalformedReplyError,
  CourierSendExpiredError,
  CourierTimeoutError,
  CourierUnavailableError,
  isCourierError,
  redactCourierError,
} from "./errors";
import { parseCourierReply } from "./reply";
import { transportError } from "./transport-errors";

/*
 * The way to the courier that every operation of the client takes: one HTTP exchange per attempt,
 * with its key, time limit and size limit; reads retried with backoff; every failure a
 * CourierError that never quotes the key.
 */

export interface CourierClientOptions {
  /** The courier's base URL (`{base_url}` of its document), http or https, without a query. */
  baseUrl: string;
  /**
   * The key the courier issued, sent as `Authorization: ApiKey <key>`. An empty key sends no
   * header at all, for a sandbox that needs no credentials.
   */
  apiKey: string;
  /** Time limit of each attempt, in milliseconds (default 15 000). */
  timeoutMs?: number;
  /**
   * How many times a read is retried after its first attempt (default 2, so at most 3 attempts).
   * Create, bulk create and cancel are never retried.
   */
  retries?: number;
  /** Defaults to the global `fetch`, looked up at each call. */
  fetch?: typeof fetch;
  /** First backoff step in milliseconds (default 250); doubles per attempt, with full jitter. */
  retryBaseDelayMs?: number;
  /** Longest backoff between attempts in milliseconds (default 4 000). */
  retryMaxDelayMs?: number;
  /** A `Retry-After` longer than this (default 20 000 ms) is not waited for: the error is returned. */
  maxRetryAfterMs?: number;
  /** Largest reply accepted, in bytes (default 10 MiB). */
  maxResponseBytes?: number;
  /** Told about every attempt; carries no key, body or query string. */
  onEvent?: (event: CourierCallEvent) => void;
}

/** One attempt of one call, for logs and metrics. */
export interface CourierCallEvent {
  endpoint: CourierEndpoint;
  method: "GET" | "POST";
  /** The path without query string. */
  path: string;
  attempt: number;
  durationMs: number;
  status?: number;
  result: "ok" | "retry" | "failed";
  error?: string;
  retryInMs?: number;
}

const DEFAULTS = {
  timeoutMs: 15_000,
  retries: 2,
  retryBaseDelayMs: 250,
  retryMaxDelayMs: 4_000,
  maxRetryAfterMs: 20_000,
  maxResponseBytes: 10 * 1024 * 1024,
};

/** One call as an operation describes it: what it is, where it goes, and how to read the reply. */
export interface Call<T> {
  endpoint: CourierEndpoint;
  action: string;
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  schema: z.ZodType<T>;
  sendBy?: number;
}

/** A reply's checked value, with its headers (paging reads `X-Total-Count`). */
export interface Reply<T> {
  value: T;
  headers: Headers;
}

/** What the client's operations call through. */
export interface CourierTransport {
  readonly baseUrl: string;
  /** Builds the call (validating its input), makes it, and shapes the reply. */
  run<T, R = T>(build: () => Call<T>, shape?: (reply: Reply<T>, call: Call<T>) => R): Promise<R>;
}

/**
 * Checks the options (a bad base URL or setting throws here, at once) and returns the transport
 * that all of a client's operations share.
 */
export function createTransport(options: CourierClientOptions): CourierTransport {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const apiKey = options.apiKey;
  const setting = (name: keyof typeof DEFAULTS, min: number): number => {
    const value = options[name] ?? DEFAULTS[name];
    if (!Number.isFinite(value) || value < min)
      throw new RangeError(`${name} must be at least ${min}`);
    return value;
  };
  const timeoutMs = setting("timeoutMs", 1);
  const retries = Math.floor(setting("retries", 0));
  const baseDelay = setting("retryBaseDelayMs", 0);
  const maxDelay = setting("retryMaxDelayMs", 0);
  const maxRetryAfter = setting("maxRetryAfterMs", 0);
  const maxBytes = setting("maxResponseBytes", 1);
  // Checked here rather than at construction so a bad key is a CourierError of the first call,
  // never a thrown header error whose text would quote the key.
  const keyProblem =
    apiKey !== "" && !/^[\x21-\x7e]+$/.test(apiKey)
      ? "it contains spaces, line breaks or characters a courier key cannot have"
      : undefined;

  const emit = (event: CourierCallEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // A failing logger must not fail the courier call.
    }
  };

  async function attempt<T>(call: Call<T>, attemptNo: number): Promise<Reply<T>> {
    const { method, sideEffects } = ENDPOINTS[call.endpoint];
    const details = { endpoint: call.endpoint, action: call.action };
    if (keyProblem) {
      throw new CourierAuthError({ ...details, outcome: "not_sent", detail: keyProblem });
    }
    const url = baseUrl + call.path + queryString(call.query);
    const headers: Record<string, string> = { accept: "application/json" };
    if (apiKey) headers.authorization = `ApiKey ${apiKey}`;
    if (call.body !== undefined) headers["content-type"] = "application/json";

    // The last moment before the request leaves: nothing asynchronous runs between here and fetch.
    if (call.sendBy !== undefined && performance.now() > call.sendBy) {
      throw new CourierSendExpiredError({
        ...details,
        outcome: "not_sent",
        lateByMs: Math.round(performance.now() - call.sendBy),
      });
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const started = performance.now();
    let status: number | undefined;
    try {
      let response: Response;
      let bytes: Uint8Array;
      try {
        const fetchImpl = options.fetch ?? globalThis.fetch;
        response = await fetchImpl(url, {
          method,
          headers,
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
          signal: controller.signal,
          // A redirect would be followed as a GET and possibly to another host; report it instead.
          redirect: "manual",
        });
        status = response.status;
        bytes = await readBody(response, maxBytes);
      } catch (error) {
        if (error instanceof CourierError) throw error;
        if (timedOut) {
          throw new CourierTimeoutError({
            ...details,
            outcome: "unknown",
            timeoutMs,
            status,
            cause: error,
          });
        }
        throw transportError(error, details, sideEffects, status);
      }
      const value = parseCourierReply(
        { status: response.status, headers: response.headers, bytes },
        call,
      );
      emit({ ...eventBase(call, method, attemptNo, started), status, result: "ok" });
      return { value, headers: response.headers };
    } finally {
      clearTimeout(timer);
    }
  }

  async function request<T>(call: Call<T>): Promise<Reply<T>> {
    const { method, sideEffects } = ENDPOINTS[call.endpoint];
    const maxAttempts = sideEffects ? 1 : retries + 1;
    for (let attemptNo = 1; ; attemptNo++) {
      const started = performance.now();
      try {
        return await attempt(call, attemptNo);
      } catch (caught) {
        const error = redactCourierError(asCourierError(caught, call), apiKey);
        error.attempts = attemptNo;
        const delay = attemptNo < maxAttempts ? retryDelay(error, attemptNo) : undefined;
        emit({
          ...eventBase(call, method, attemptNo, started),
          status: error.status,
          result: delay === undefined ? "failed" : "retry",
          error: error.name,
          ...(delay === undefined ? {} : { retryInMs: Math.round(delay) }),
        });
        if (delay === undefined) throw error;
        await sleep(delay);
      }
    }
  }

  // Milliseconds to wait before the next attempt, or undefined when this error is final.
  function retryDelay(error: CourierError, attemptNo: number): number | undefined {
    // Only what may pass by itself: a rejected key or an invalid request will fail the same way.
    const transient =
      error instanceof CourierTimeoutError || error instanceof CourierUnavailableError;
    if (!transient) return undefined;
    if (error instanceof CourierUnavailableError && error.retryAfterMs !== undefined) {
      return error.retryAfterMs <= maxRetryAfter ? error.retryAfterMs : undefined;
    }
    return Math.random() * Math.min(maxDelay, baseDelay * 2 ** (attemptNo - 1));
  }

  async function run<T, R = T>(
    build: () => Call<T>,
    shape: (reply: Reply<T>, call: Call<T>) => R = (reply) => reply.value as unknown as R,
  ): Promise<R> {
    let call: Call<T>;
    try {
      call = build();
    } catch (error) {
      // Input is echoed in validation messages; a key pasted into a field must not be.
      throw isCourierError(error) ? redactCourierError(error, apiKey) : error;
    }
    return shape(await request(call), call);
  }

  return { baseUrl, run };
}

function eventBase(call: Call<unknown>, method: "GET" | "POST", attempt: number, started: number) {
  return {
    endpoint: call.endpoint,
    method,
    path: call.path,
    attempt,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  };
}

function queryString(query: Call<unknown>["query"]): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(
      `The courier base URL "${raw}" is not an absolute URL such as https://courier.example.com`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`The courier base URL must use http or https, not ${url.protocol}`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new TypeError("The courier base URL must not carry a query, fragment or credentials");
  }
  return url.href.replace(/\/+$/, "");
}

async function readBody(response: Response, limit: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length"));
  if (declared > limit) {
    await response.body?.cancel();
    throw new RangeError(`the reply is larger than ${limit} bytes`);
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new RangeError(`the reply is larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

// Anything that escaped as a non-courier error (a bug, a fetch stand-in) still leaves typed.
function asCourierError(error: unknown, call: Call<unknown>): CourierError {
  if (error instanceof CourierError) return error;
  return new CourierMalformedReplyError({
    endpoint: call.endpoint,
    action: call.action,
    outcome: ENDPOINTS[call.endpoint].sideEffects ? "unknown" : "rejected",
    detail: "the call failed in an unexpected way",
    cause: error,
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
