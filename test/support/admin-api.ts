import { MockAgent, setGlobalDispatcher, getGlobalDispatcher, type Dispatcher } from "undici";
import { ADMIN_API_VERSION } from "../../app/shopify/api-version";

/**
 * A programmable stand-in for the Shopify Admin API (GraphQL and token exchange), installed as
 * undici's global dispatcher from the test setup: the Shopify library captures `fetch` when it is
 * imported, so spying on `fetch` inside a test would never see its calls. Nothing leaves the
 * machine: any host but loopback is refused.
 */
export interface AdminCall {
  shop: string;
  operationName: string;
  query: string;
  variables: Record<string, unknown>;
  accessToken: string | undefined;
}

export type GraphqlReply = { data?: unknown; errors?: unknown[]; extensions?: unknown };
export type OperationHandler = (
  variables: Record<string, unknown>,
  call: AdminCall,
) => GraphqlReply;

interface ThrottleRule {
  remaining: number;
  kind: "throttled" | "http429";
}

class AdminApiStandIn {
  readonly calls: AdminCall[] = [];
  readonly tokenExchanges: { shop: string; requestedTokenType: string }[] = [];
  private handlers = new Map<string, OperationHandler>();
  private throttle: ThrottleRule | undefined;
  private agent: MockAgent | undefined;
  private previous: Dispatcher | undefined;

  install(): void {
    if (this.agent) return;
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.enableNetConnect((host) => /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(host));
    const shopify = agent.get((origin) => /^https:\/\/[a-z0-9-]+\.myshopify\.com$/.test(origin));
    shopify
      .intercept({ path: () => true, method: () => true })
      .reply((opts) => this.respond(opts))
      .persist();
    this.previous = getGlobalDispatcher();
    setGlobalDispatcher(agent);
    this.agent = agent;
  }

  uninstall(): void {
    if (this.previous) setGlobalDispatcher(this.previous);
    this.agent = undefined;
  }

  /** Answers the named GraphQL operation (the name after `query`/`mutation`) with `handler`. */
  on(operationName: string, handler: OperationHandler): this {
    this.handlers.set(operationName, handler);
    return this;
  }

  /** The next `count` GraphQL calls are throttled: a 200 with a THROTTLED error, or a 429. */
  throttleNext(count: number, kind: ThrottleRule["kind"] = "throttled"): this {
    this.throttle = { remaining: count, kind };
    return this;
  }

  callsTo(operationName: string): AdminCall[] {
    return this.calls.filter((c) => c.operationName === operationName);
  }

  reset(): void {
    this.calls.length = 0;
    this.tokenExchanges.length = 0;
    this.handlers.clear();
    this.throttle = undefined;
  }

  private respond(opts: {
    path: string;
    method: string;
    origin?: string;
    headers?: unknown;
    body?: unknown;
  }) {
    const shop = new URL(opts.origin ?? "https://unknown.myshopify.com").hostname;
    const body = parseBody(opts.body);

    if (opts.path === "/admin/oauth/access_token" && opts.method === "POST") {
      const requested = String(body.requested_token_type ?? "");
      this.tokenExchanges.push({ shop, requestedTokenType: requested });
      return json(200, {
        access_token: `standin-token-${shop}`,
        scope: String(process.env.SCOPES ?? ""),
        expires_in: 3600,
        refresh_token: `standin-refresh-${shop}`,
        refresh_token_expires_in: 7_776_000,
      });
    }

    const graphqlPath = `/admin/api/${ADMIN_API_VERSION}/graphql.json`;
    if (opts.path !== graphqlPath || opts.method !== "POST") {
      return json(404, {
        errors: `The Admin API stand-in does not serve ${opts.method} ${opts.path}`,
      });
    }

    const query = String(body.query ?? "");
    const call: AdminCall = {
      shop,
      operationName: operationNameOf(query),
      query,
      variables: (body.variables as Record<string, unknown>) ?? {},
      accessToken: header(opts.headers, "x-shopify-access-token"),
    };
    this.calls.push(call);

    if (this.throttle && this.throttle.remaining > 0) {
      this.throttle.remaining -= 1;
      if (this.throttle.kind === "http429") {
        return { statusCode: 429, data: "", responseOptions: { headers: { "retry-after": "1" } } };
      }
      return json(200, {
        errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }],
        extensions: {
          cost: {
            requestedQueryCost: 10,
            throttleStatus: { currentlyAvailable: 0, restoreRate: 100 },
          },
        },
      });
    }

    const handler = this.handlers.get(call.operationName);
    if (!handler) {
      return json(200, {
        errors: [{ message: `The Admin API stand-in has no handler for ${call.operationName}` }],
      });
    }
    return json(200, handler(call.variables, call));
  }
}

function json(statusCode: number, data: unknown) {
  return {
    statusCode,
    data: JSON.stringify(data),
    responseOptions: { headers: { "content-type": "application/json" } },
  };
}

function parseBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  const text = typeof body === "string" ? body : Buffer.from(body as Uint8Array).toString("utf8");
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return Object.fromEntries(new URLSearchParams(text));
  }
}

function header(headers: unknown, name: string): string | undefined {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2) {
      if (String(headers[i]).toLowerCase() === name) return String(headers[i + 1]);
    }
    return undefined;
  }
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() === name) return String(value);
  }
  return undefined;
}

function operationNameOf(query: string): string {
  return /\b(?:query|mutation)\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(query)?.[1] ?? "anonymous";
}

export const adminApi = new AdminApiStandIn();
