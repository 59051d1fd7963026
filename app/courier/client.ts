import type { z } from "zod";
import { bulkResultSchema, type BulkCreateResult } from "./bulk-result";
import { ENDPOINTS, type CourierEndpoint, type CourierLanguage } from "./endpoints";
import {
  CourierAuthError,
  CourierError,
  CourierMalformedReplyError,
  CourierSendExpiredError,
  CourierTimeoutError,
  CourierUnavailableError,
  CourierValidationError,
  isCourierError,
  redactCourierError,
} from "./errors";
import { parseCourierReply } from "./reply";
import {
  cancelRequestSchema,
  createBulkSchema,
  createOrderSchema,
  exceptionsQuerySchema,
  historyQuerySchema,
  priceRequestSchema,
  reportQuerySchema,
  validateRequest,
  type CancelInput,
  type CreateOrderInput,
  type ExceptionsQuery,
  type HistoryQuery,
  type PriceInput,
  type ReportQuery,
} from "./requests";
import {
  areasSchema,
  cancelResultSchema,
  createOrderResultSchema,
  exceptionListSchema,
  governancesSchema,
  orderListSchema,
  orderRecordSchema,
  orderStatusesSchema,
  priceQuoteSchema,
  reportSchema,
  trackingSchema,
  vehicleTypesSchema,
  type Area,
  type CancelResult,
  type CorporateReport,
  type CourierException,
  type CreateOrderResult,
  type Governance,
  type OrderRecord,
  type OrderStatus,
  type PriceQuote,
  type Tracking,
  type VehicleType,
} from "./results";

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

/** A page of the customer's order history. */
export interface HistoryPage {
  orders: OrderRecord[];
  page: number;
  pageSize: number | null;
  /** From the reply's `X-Total-Count` header, when the courier sends one. */
  total: number | null;
}

export interface ExceptionsPage {
  exceptions: CourierException[];
  page: number;
  pageSize: number | null;
  total: number | null;
}

/** How a create goes out. */
export interface SendOptions {
  /**
   * A time on `performance.now()`'s clock after which the request is not sent
   * (`CourierSendExpiredError`): checked just before it leaves, so a caller held up since it last
   * confirmed it may send sends nothing (ADR 0017).
   */
  sendBy?: number;
}

/** Every operation of the courier's interface. Methods reject only with a `CourierError`. */
export interface CourierClient {
  readonly baseUrl: string;
  governances(lang?: CourierLanguage): Promise<Governance[]>;
  areas(governanceId: number, lang?: CourierLanguage): Promise<Area[]>;
  vehicleTypes(lang?: CourierLanguage): Promise<VehicleType[]>;
  orderStatuses(lang?: CourierLanguage): Promise<OrderStatus[]>;
  /** Never retried: a repeated create could deliver twice. On an unknown outcome, check history. */
  createOrder(input: CreateOrderInput, options?: SendOptions): Promise<CreateOrderResult>;
  /** Never retried. Each input's fate is in `items`, in input order. */
  createBulk(inputs: CreateOrderInput[], options?: SendOptions): Promise<BulkCreateResult>;
  calculatePrice(input: PriceInput): Promise<PriceQuote>;
  history(query?: HistoryQuery): Promise<HistoryPage>;
  getOrder(orderId: string): Promise<OrderRecord>;
  track(orderId: string): Promise<Tracking>;
  /** Never retried. */
  cancel(orderId: string, body?: CancelInput): Promise<CancelResult>;
  exceptions(query?: ExceptionsQuery): Promise<ExceptionsPage>;
  corporateOrdersReport(query?: ReportQuery): Promise<CorporateReport>;
}

const DEFAULTS = {
  timeoutMs: 15_000,
  retries: 2,
  retryBaseDelayMs: 250,
  retryMaxDelayMs: 4_000,
  maxRetryAfterMs: 20_000,
  maxResponseBytes: 10 * 1024 * 1024,
};

interface Call<T> {
  endpoint: CourierEndpoint;
  action: string;
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  schema: z.ZodType<T>;
  sendBy?: number;
}

interface Reply<T> {
  value: T;
  headers: Headers;
}

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

/**
 * A client for the courier's interface. Reads time out, and are retried with capped exponential
 * backoff and full jitter, honouring `Retry-After`; calls with side effects time out and are never
 * retried. Every failure is a `CourierError` whose message never contains the key.
 */
export function createCourierClient(options: CourierClientOptions): CourierClient {
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

  const lang = (value: CourierLanguage | undefined, endpoint: CourierEndpoint, action: string) => {
    const chosen = value ?? "ar";
    if (!/^[a-z]{2}$/.test(chosen)) {
      throw invalid(
        endpoint,
        action,
        "lang",
        "the language suffix is two lowercase letters, such as ar or en",
      );
    }
    return chosen;
  };

  // Builds the call (validating its input), makes it, and shapes the reply.
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

  return {
    baseUrl,

    governances: (language) =>
      run(() => {
        const action = "reading the governances";
        return {
          endpoint: "governances",
          action,
          path: `/api/master/governances/${lang(language, "governances", action)}`,
          schema: governancesSchema,
        };
      }),

    areas: (governanceId, language) =>
      run(() => {
        const action = `reading the areas of governance ${String(governanceId)}`;
        if (!Number.isSafeInteger(governanceId) || governanceId <= 0) {
          throw invalid(
            "areas",
            action,
            "governanceId",
            "must be a positive whole number from the governances list",
          );
        }
        return {
          endpoint: "areas",
          action,
          path: `/api/master/areas/${governanceId}/${lang(language, "areas", action)}`,
          schema: areasSchema,
        };
      }),

    vehicleTypes: (language) =>
      run(() => {
        const action = "reading the vehicle types";
        return {
          endpoint: "vehicleTypes",
          action,
          path: `/api/master/vehicle-types/${lang(language, "vehicleTypes", action)}`,
          schema: vehicleTypesSchema,
        };
      }),

    orderStatuses: (language) =>
      run(() => {
        const action = "reading the order statuses";
        return {
          endpoint: "orderStatuses",
          action,
          path: `/api/master/order-status/${lang(language, "orderStatuses", action)}`,
          schema: orderStatusesSchema,
        };
      }),

    createOrder: (input, options) =>
      run(() => {
        const action = "creating the order";
        return {
          endpoint: "createOrder",
          action,
          path: "/api/orders/create",
          body: validateRequest(createOrderSchema, input, "createOrder", action),
          schema: createOrderResultSchema,
          sendBy: options?.sendBy,
        };
      }),

    createBulk: (inputs, options) =>
      run(() => {
        const action = `creating ${Array.isArray(inputs) ? inputs.length : "several"} orders at once`;
        const orders = validateRequest(createBulkSchema, inputs, "createBulk", action, ["orders"]);
        return {
          endpoint: "createBulk",
          action,
          path: "/api/orders/create-bulk",
          body: { orders },
          schema: bulkResultSchema(orders.length),
          sendBy: options?.sendBy,
        };
      }),

    calculatePrice: (input) =>
      run(() => {
        const action = "calculating the price";
        return {
          endpoint: "calculatePrice",
          action,
          path: "/api/orders/calculate-price-api",
          body: validateRequest(priceRequestSchema, input, "calculatePrice", action),
          schema: priceQuoteSchema,
        };
      }),

    history: (query = {}) =>
      run(
        () => {
          const action = "reading the order history";
          return {
            endpoint: "history",
            action,
            path: "/api/orders/customer/history",
            query: validateRequest(historyQuerySchema, query, "history", action),
            schema: orderListSchema,
          };
        },
        (reply, call) => ({ orders: reply.value, ...pageOf(call.query, reply.headers) }),
      ),

    getOrder: (orderId) =>
      run(() => {
        const action = `reading order ${describeId(orderId)}`;
        return {
          endpoint: "getOrder",
          action,
          path: `/api/orders/${orderPathId(orderId, "getOrder", action)}`,
          schema: orderRecordSchema,
        };
      }),

    track: (orderId) =>
      run(() => {
        const action = `tracking order ${describeId(orderId)}`;
        return {
          endpoint: "track",
          action,
          path: `/api/orders/${orderPathId(orderId, "track", action)}/track`,
          schema: trackingSchema,
        };
      }),

    cancel: (orderId, body) =>
      run(() => {
        const action = `cancelling order ${describeId(orderId)}`;
        return {
          endpoint: "cancel",
          action,
          path: `/api/orders/${orderPathId(orderId, "cancel", action)}/cancel`,
          body: validateRequest(cancelRequestSchema, body, "cancel", action),
          schema: cancelResultSchema,
        };
      }),

    exceptions: (query = {}) =>
      run(
        () => {
          const action = "reading the exceptions";
          return {
            endpoint: "exceptions",
            action,
            path: "/api/Exceptions/customer",
            query: validateRequest(exceptionsQuerySchema, query, "exceptions", action),
            schema: exceptionListSchema,
          };
        },
        (reply, call) => ({ exceptions: reply.value, ...pageOf(call.query, reply.headers) }),
      ),

    corporateOrdersReport: (query = {}) =>
      run(() => {
        const action = "reading the corporate orders report";
        return {
          endpoint: "corporateOrdersReport",
          action,
          path: "/api/reports/corporate-orders",
          query: validateRequest(reportQuerySchema, query, "corporateOrdersReport", action),
          schema: reportSchema,
        };
      }),
  };
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

function pageOf(query: Call<unknown>["query"], headers: Headers) {
  const total = headers.get("x-total-count");
  const { page, pageSize } = query ?? {};
  return {
    page: typeof page === "number" ? page : 1,
    pageSize: typeof pageSize === "number" ? pageSize : null,
    total: total !== null && /^\d+$/.test(total.trim()) ? Number(total) : null,
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

function invalid(endpoint: CourierEndpoint, action: string, field: string, message: string) {
  return new CourierValidationError({
    endpoint,
    action,
    outcome: "not_sent",
    detail: `${field}: ${message}`,
    fieldErrors: [{ field, message }],
  });
}

const describeId = (orderId: unknown) =>
  typeof orderId === "string"
    ? `“${orderId.length > 40 ? `${orderId.slice(0, 40)}…` : orderId}”`
    : "(no id)";

// eslint-disable-next-line no-control-regex -- control characters are what is refused
const NOT_IN_AN_ID = /[\u0000-\u001f\u007f]|^\.{1,2}$/;

// The order id as a path segment (`/` and `?` encoded), or a validation error.
function orderPathId(orderId: unknown, endpoint: CourierEndpoint, action: string): string {
  const refuse = (message: string) => invalid(endpoint, action, "orderId", message);
  if (typeof orderId !== "string" || orderId.trim() === "")
    throw refuse("the order id is required");
  if (orderId.length > 200) throw refuse("the order id is too long");
  // "." and ".." would be resolved away by the URL parser, calling another endpoint.
  if (NOT_IN_AN_ID.test(orderId))
    throw refuse("the order id contains characters an order id cannot have");
  return encodeURIComponent(orderId);
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

function transportError(
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
