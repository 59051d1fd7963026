import fs from "node:fs";
import {
  buildSchema,
  defaultFieldResolver,
  execute,
  getOperationAST,
  GraphQLError,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type GraphQLFieldResolver,
  type GraphQLScalarType,
  type GraphQLSchema,
  type ValueNode,
} from "graphql";
import { MUTATION_COST, requestedCost, resolvedFieldCost } from "./cost";
import { rootValue } from "./resolvers";
import type { ShopifyStandInStore } from "./store";
import type { GraphqlOperationRecord, UserErrorRecord } from "./records";

/** The leaky bucket and the per-query ceiling (Shopify's Standard plan by default). */
export interface CostLimits {
  /** Bucket size in points (default 2000). */
  maximumAvailable?: number;
  /** Points restored per second (default 100). */
  restoreRate?: number;
  /** A single query whose requested cost is above this is refused (default 1000). */
  maxQueryCost?: number;
}

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface AdminGraphqlRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** What the HTTP layer sends back: Shopify answers GraphQL-level failures with a 200. */
export interface AdminGraphqlReply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A fault armed for the next `remaining` calls. */
export type ForcedFault =
  | { kind: "throttled"; remaining: number }
  | { kind: "http429"; remaining: number }
  | { kind: "http5xx"; status: number; remaining: number };

const SCHEMA_DIR = new URL("./schema/", import.meta.url);

let cachedSchema: GraphQLSchema | undefined;

/** The stand-in's SDL: every file of `schema/`, in name order. */
export function adminSchemaSource(): string {
  return fs
    .readdirSync(SCHEMA_DIR)
    .filter((name) => name.endsWith(".graphql"))
    .sort()
    .map((name) => fs.readFileSync(new URL(name, SCHEMA_DIR), "utf8"))
    .join("\n");
}

/** The stand-in's schema (`schema/*.graphql`), with its custom scalars made strict. */
export function adminSchema(): GraphQLSchema {
  cachedSchema ??= withScalars(buildSchema(adminSchemaSource()));
  return cachedSchema;
}

/**
 * The Admin GraphQL API of one stand-in store: executes documents with graphql-js against the
 * schema subset, charges each call's cost to a leaky bucket the way Shopify does, and records every
 * call in `store.graphqlLog`.
 */
export class AdminGraphqlApi {
  readonly limits: Required<CostLimits>;
  private available: number;
  private refilledAt: number;
  private fault: ForcedFault | undefined;
  private seq = 0;

  constructor(
    readonly store: ShopifyStandInStore,
    limits: CostLimits = {},
  ) {
    this.limits = {
      maximumAvailable: limits.maximumAvailable ?? 2000,
      restoreRate: limits.restoreRate ?? 100,
      maxQueryCost: limits.maxQueryCost ?? 1000,
    };
    this.available = this.limits.maximumAvailable;
    this.refilledAt = store.clock();
  }

  /** The next `count` calls are refused: THROTTLED in a 200 (default), or an HTTP 429. */
  throttleNext(count: number, kind: "throttled" | "http429" = "throttled"): void {
    this.fault = count > 0 ? { kind, remaining: count } : undefined;
  }

  /** The next `count` calls fail with an HTTP 5xx (Shopify having a bad moment). */
  failNext(count: number, status = 503): void {
    this.fault = count > 0 ? { kind: "http5xx", status, remaining: count } : undefined;
  }

  /** Sets the bucket's level, e.g. to 0 to see the app wait for it to refill. */
  setAvailable(points: number): void {
    this.refill();
    this.available = Math.max(0, Math.min(points, this.limits.maximumAvailable));
  }

  throttleStatus(): ThrottleStatus {
    this.refill();
    return {
      maximumAvailable: this.limits.maximumAvailable,
      currentlyAvailable: Math.floor(this.available),
      restoreRate: this.limits.restoreRate,
    };
  }

  /**
   * Runs one GraphQL request. `scopes` are the access scopes of the token that made it; `null`
   * grants everything (tests calling the API directly).
   */
  execute(
    request: AdminGraphqlRequest,
    scopes: readonly string[] | null = null,
  ): AdminGraphqlReply {
    const variables = request.variables ?? {};
    const record: GraphqlOperationRecord = {
      seq: ++this.seq,
      at: new Date(this.store.clock()).toISOString(),
      operationName: request.operationName ?? null,
      operationType: null,
      variables,
      query: request.query,
      requestedQueryCost: null,
      actualQueryCost: null,
      outcome: "ok",
      errors: [],
      userErrors: [],
    };
    this.store.graphqlLog.push(record);
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
      status,
      headers: { "content-type": "application/json; charset=utf-8", ...headers },
      body,
    });
    const fail = (errors: GraphQLError[] | { message: string }[], requested = 0) => {
      record.outcome = "errors";
      record.errors = errors.map((e) => e.message);
      return reply(200, {
        errors: errors.map(toJsonError),
        extensions: this.costExtension(requested, requested),
      });
    };

    let document: DocumentNode;
    try {
      document = parse(request.query);
    } catch (error) {
      return fail([error instanceof GraphQLError ? error : new GraphQLError(String(error))]);
    }
    const operation = getOperationAST(document, request.operationName ?? undefined);
    record.operationName = operation?.name?.value ?? record.operationName;
    record.operationType =
      operation?.operation === "subscription" ? null : (operation?.operation ?? null);

    const fault = this.takeFault();
    if (fault) {
      record.outcome = fault.kind === "http5xx" ? "http5xx" : fault.kind;
      if (fault.kind === "http429") {
        return reply(
          429,
          {
            errors:
              "Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.",
          },
          { "retry-after": "1.0" },
        );
      }
      if (fault.kind === "http5xx") {
        return reply(fault.status, { errors: "Internal Server Error" });
      }
      return reply(200, throttledBody(this.costExtension(0, null, 0)));
    }

    const schema = adminSchema();
    const problems = validate(schema, document);
    if (problems.length > 0) return fail([...problems]);
    if (!operation)
      return fail([
        new GraphQLError("Must provide operation name if query contains multiple operations."),
      ]);
    if (operation.operation === "subscription")
      return fail([new GraphQLError("Subscriptions are not supported.")]);

    const requested = requestedCost(schema, document, operation, variables);
    record.requestedQueryCost = requested;
    if (requested > this.limits.maxQueryCost) {
      record.outcome = "errors";
      const message = `Query cost is ${requested}, which exceeds the single query max cost limit (${this.limits.maxQueryCost}).`;
      record.errors = [message];
      return reply(200, {
        errors: [
          {
            message,
            extensions: {
              code: "MAX_COST_EXCEEDED",
              cost: requested,
              maxCost: this.limits.maxQueryCost,
            },
          },
        ],
        extensions: this.costExtension(requested, null),
      });
    }
    this.refill();
    if (requested > this.available) {
      record.outcome = "throttled";
      return reply(200, throttledBody(this.costExtension(requested, null)));
    }

    this.available -= requested;
    const context: ResolverContext = {
      store: this.store,
      scopes: scopes ? new Set(scopes) : null,
      actualCost: 0,
    };
    const result = execute({
      schema,
      document,
      rootValue: rootValue(this.store),
      contextValue: context,
      variableValues: variables,
      operationName: request.operationName ?? undefined,
      fieldResolver,
    });
    if (isPromise(result)) throw new Error("The stand-in's resolvers are synchronous");
    // Shopify charges the requested cost up front and refunds what the query did not use.
    const actual = Math.min(context.actualCost, requested);
    this.available = Math.min(this.limits.maximumAvailable, this.available + requested - actual);
    record.actualQueryCost = actual;
    record.errors = (result.errors ?? []).map((e) => e.message);
    if (record.errors.length > 0) record.outcome = "errors";
    record.userErrors = collectUserErrors(result.data);
    return reply(200, {
      ...(result.errors ? { errors: result.errors.map(toJsonError) } : {}),
      data: result.data ?? null,
      extensions: this.costExtension(requested, actual),
    });
  }

  private takeFault(): ForcedFault | undefined {
    const fault = this.fault;
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.fault = undefined;
    return fault;
  }

  private refill(): void {
    const now = this.store.clock();
    const restored = ((now - this.refilledAt) / 1000) * this.limits.restoreRate;
    this.available = Math.min(this.limits.maximumAvailable, this.available + restored);
    this.refilledAt = now;
  }

  private costExtension(requested: number, actual: number | null, available?: number) {
    const status = this.throttleStatus();
    return {
      cost: {
        requestedQueryCost: requested,
        actualQueryCost: actual,
        throttleStatus:
          available === undefined ? status : { ...status, currentlyAvailable: available },
      },
    };
  }
}

function throttledBody(extensions: unknown) {
  return {
    errors: [
      {
        message: "Throttled",
        extensions: {
          code: "THROTTLED",
          documentation: "https://shopify.dev/api/usage/rate-limits",
        },
      },
    ],
    extensions,
  };
}

function toJsonError(error: GraphQLError | { message: string }) {
  return error instanceof GraphQLError ? error.toJSON() : { message: error.message };
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

function collectUserErrors(data: unknown): UserErrorRecord[] {
  if (!data || typeof data !== "object") return [];
  return Object.values(data as Record<string, unknown>).flatMap((payload) => {
    if (!payload || typeof payload !== "object") return [];
    const p = payload as { userErrors?: unknown; orderCancelUserErrors?: unknown };
    const list = Array.isArray(p.orderCancelUserErrors) ? p.orderCancelUserErrors : p.userErrors;
    return Array.isArray(list) ? (list as UserErrorRecord[]) : [];
  });
}

// --- Scalars --------------------------------------------------------------------------------------

function withScalars(schema: GraphQLSchema): GraphQLSchema {
  // buildSchema makes custom scalars pass anything through; Shopify rejects malformed values, so
  // the stand-in does too. Assigning the parsers once, right after building, is graphql-js's way.
  const scalar = (name: string) => schema.getType(name) as GraphQLScalarType;
  const literal = (parseValue: (v: unknown) => unknown) => (ast: ValueNode) => {
    if (ast.kind === Kind.STRING || ast.kind === Kind.INT || ast.kind === Kind.FLOAT) {
      return parseValue(ast.value);
    }
    throw new TypeError("expects a string");
  };

  const dateTime = scalar("DateTime");
  dateTime.serialize = (value) => (value instanceof Date ? isoSeconds(value) : value);
  dateTime.parseValue = (value) => {
    const at =
      typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : null;
    if (!at || Number.isNaN(at.getTime()))
      throw new TypeError(`Invalid DateTime '${String(value)}'`);
    return at;
  };
  dateTime.parseLiteral = literal(dateTime.parseValue);

  const url = scalar("URL");
  url.parseValue = (value) => {
    try {
      if (typeof value === "string" && /^https?:$/.test(new URL(value).protocol)) return value;
    } catch {
      // falls through to the error below
    }
    throw new TypeError(`Invalid URL '${String(value)}'`);
  };
  url.parseLiteral = literal(url.parseValue);

  const decimal = scalar("Decimal");
  decimal.parseValue = (value) => {
    const text = String(value);
    if (!/^-?\d+(\.\d+)?$/.test(text)) throw new TypeError(`Invalid Decimal '${text}'`);
    return text;
  };
  decimal.parseLiteral = literal(decimal.parseValue);

  scalar("UnsignedInt64").serialize = (value) => String(value);
  return schema;
}

/** "2026-10-01T09:30:00Z": Shopify's DateTime has no milliseconds. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

// --- Access scopes --------------------------------------------------------------------------------

const FULFILLMENT_ORDER_READ = [
  "read_assigned_fulfillment_orders",
  "read_merchant_managed_fulfillment_orders",
  "read_third_party_fulfillment_orders",
  "read_marketplace_fulfillment_orders",
];
const FULFILLMENT_ORDER_WRITE = [
  "write_assigned_fulfillment_orders",
  "write_merchant_managed_fulfillment_orders",
  "write_third_party_fulfillment_orders",
];

// The scopes shopify.dev lists for each field the stand-in guards; any one of a list suffices, and
// a write scope includes its read scope. Fields not listed here are not checked.
const REQUIRED_SCOPES: Record<string, string[]> = {
  "QueryRoot.order": ["read_orders", "read_marketplace_orders"],
  "QueryRoot.orders": ["read_orders", "read_marketplace_orders"],
  "QueryRoot.location": ["read_locations"],
  "QueryRoot.locations": ["read_locations"],
  "QueryRoot.fulfillment": ["read_orders", "read_marketplace_orders", ...FULFILLMENT_ORDER_READ],
  "QueryRoot.fulfillmentOrder": FULFILLMENT_ORDER_READ,
  "Order.fulfillmentOrders": FULFILLMENT_ORDER_READ,
  "Mutation.fulfillmentCreate": FULFILLMENT_ORDER_WRITE,
  "Mutation.fulfillmentTrackingInfoUpdate": FULFILLMENT_ORDER_WRITE,
  "Mutation.fulfillmentCancel": FULFILLMENT_ORDER_WRITE,
  "Mutation.fulfillmentEventCreate": ["write_fulfillments"],
  "Mutation.orderMarkAsPaid": ["write_orders"],
  "Mutation.orderUpdate": ["write_orders", "write_marketplace_orders"],
  "Mutation.fulfillmentOrderHold": [
    "write_merchant_managed_fulfillment_orders",
    "write_third_party_fulfillment_orders",
  ],
  "Mutation.fulfillmentOrderReleaseHold": [
    "write_merchant_managed_fulfillment_orders",
    "write_third_party_fulfillment_orders",
    "write_marketplace_fulfillment_orders",
  ],
  "Mutation.orderCancel": ["write_orders", "write_marketplace_orders"],
  "QueryRoot.carrierService": ["read_shipping"],
  "QueryRoot.carrierServices": ["read_shipping"],
  "Mutation.carrierServiceCreate": ["write_shipping"],
  "Mutation.carrierServiceUpdate": ["write_shipping"],
  "Mutation.carrierServiceDelete": ["write_shipping"],
};

function hasScope(granted: ReadonlySet<string>, scope: string): boolean {
  return (
    granted.has(scope) || (scope.startsWith("read_") && granted.has(`write_${scope.slice(5)}`))
  );
}

// --- Execution: scopes and the actual cost ---------------------------------------------------------

interface ResolverContext {
  store: ShopifyStandInStore;
  scopes: ReadonlySet<string> | null;
  actualCost: number;
}

const fieldResolver: GraphQLFieldResolver<unknown, ResolverContext> = (
  source,
  args,
  context,
  info,
) => {
  const required = REQUIRED_SCOPES[`${info.parentType.name}.${info.fieldName}`];
  const granted = context.scopes;
  if (required && granted && !required.some((s) => hasScope(granted, s))) {
    const requiredAccess = required.map((s) => `\`${s}\` access scope`).join(" or ");
    throw new GraphQLError(
      `Access denied for ${info.fieldName} field. Required access: ${requiredAccess}.`,
      {
        extensions: {
          code: "ACCESS_DENIED",
          documentation: "https://shopify.dev/api/usage/access-scopes",
          requiredAccess: `${requiredAccess}.`,
        },
      },
    );
  }
  const value = defaultFieldResolver(source, args, context, info);

  // The actual cost counts what came back, by the same rules as the requested cost.
  if (info.operation.operation !== "mutation") {
    context.actualCost += resolvedFieldCost(info.returnType, value);
  } else if (info.parentType.name === "Mutation") {
    context.actualCost += MUTATION_COST;
  }
  return value;
};
