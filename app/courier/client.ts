import { bulkResultSchema, type BulkCreateResult } from "./bulk-result";
import type { CourierEndpoint, CourierLanguage } from "./endpoints";
import { CourierValidationError } from "./errors";
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
import { createTransport, type Call, type CourierClientOptions } from "./transport";

/*
 * The courier's operations, one verb each: a verb checks its input, builds its call (path, body or
 * query, the schema of the reply) and hands it to the transport (transport.ts), which sends it.
 */

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

/**
 * A client for the courier's interface. Reads time out, and are retried with capped exponential
 * backoff and full jitter, honouring `Retry-After`; calls with side effects time out and are never
 * retried. Every failure is a `CourierError` whose message never contains the key.
 */
export function createCourierClient(options: CourierClientOptions): CourierClient {
  const { baseUrl, run } = createTransport(options);

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

function pageOf(query: Call<unknown>["query"], headers: Headers) {
  const total = headers.get("x-total-count");
  const { page, pageSize } = query ?? {};
  return {
    page: typeof page === "number" ? page : 1,
    pageSize: typeof pageSize === "number" ? pageSize : null,
    total: total !== null && /^\d+$/.test(total.trim()) ? Number(total) : null,
  };
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
