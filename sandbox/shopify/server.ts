import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { StandInAuth } from "./auth";
import { SHOP_PLANS, type ShopPlan } from "./carrier-services";
import { simulateCheckoutRates, type CheckoutRatesInput } from "./checkout-rates";
import { AdminGraphqlApi, type CostLimits } from "./graphql";
import { gid } from "./ids";
import { ShopifyStandInStore, StandInError } from "./store";
import {
  STANDIN_API_VERSION,
  type FulfillOptions,
  type FulfillmentEventInput,
  type FulfillmentHoldInput,
  type LocationInput,
  type OrderCancelInput,
  type OrderInput,
  type OrderUpdateInput,
  type StandInOrder,
  type WebhookTopic,
  WEBHOOK_TOPICS,
} from "./records";
import { WebhookSender, type WebhookSenderOptions } from "./webhooks";

/** Every access scope the stand-in checks: granted when `scopes` is not given. */
export const ALL_STANDIN_SCOPES = [
  "read_orders",
  "write_orders",
  "read_locations",
  "read_fulfillments",
  "write_fulfillments",
  "read_merchant_managed_fulfillment_orders",
  "write_merchant_managed_fulfillment_orders",
  "write_shipping",
];

export interface ShopifyStandInOptions {
  /** The shop's myshopify domain (default "demo-store.myshopify.com", or the given store's). */
  shop?: string;
  /** The app's client id: the `aud` session tokens must carry. */
  apiKey: string;
  /** The app's client secret: signs webhooks and session tokens. */
  apiSecret: string;
  /** Scopes granted to the app's tokens, comma-separated or a list (default all the stand-in checks). */
  scopes?: string | readonly string[];
  /** The app's public URL; webhooks go to `${appUrl}/webhooks/<topic>`. Without it they are only recorded. */
  appUrl?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** The one Admin API version served (default "2026-10"); other versions are a 404. */
  apiVersion?: string;
  /** A store already filled with data (default an empty one). */
  store?: ShopifyStandInStore;
  webhooks?: Partial<
    Pick<
      WebhookSenderOptions,
      "topics" | "path" | "transport" | "attempts" | "retryDelayMs" | "timeoutMs"
    >
  >;
  costLimits?: CostLimits;
  /** Lifetime of expiring offline tokens from token exchange (default 3600 s). */
  accessTokenTtlSeconds?: number;
  /** Milliseconds since the epoch; for tests that need fixed times. */
  clock?: () => number;
  /** Receives one line per request and webhook attempt. */
  log?: (line: string) => void;
}

export interface ShopifyStandIn {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  shop: string;
  apiVersion: string;
  /** `${url}/admin/api/<version>/graphql.json`. */
  graphqlUrl: string;
  store: ShopifyStandInStore;
  api: AdminGraphqlApi;
  webhooks: WebhookSender;
  auth: StandInAuth;
  /**
   * The URL the Shopify admin would load the embedded app at: `${appUrl}${path}?embedded=1&shop=
   * ...&host=...&id_token=<fresh session token>`. Needs `appUrl`.
   */
  adminUrl(path?: string): string;
  close(): Promise<void>;
}

const BODY_LIMIT = 1024 * 1024;
const INVALID_TOKEN =
  "[API] Invalid API key or access token (unrecognized login or wrong password)";

/**
 * Starts the Shopify stand-in: a real HTTP server on 127.0.0.1 that serves the Admin GraphQL API
 * subset and OAuth token exchange for one shop, sends that shop's webhooks to the app, and offers
 * a JSON control API under `/__standin/` (see sandbox/shopify/README.md).
 */
export async function startShopifyStandIn(options: ShopifyStandInOptions): Promise<ShopifyStandIn> {
  const clock = options.clock ?? Date.now;
  const store = options.store ?? new ShopifyStandInStore({ shop: options.shop, clock });
  const shop = options.shop ?? store.shop.domain;
  if (shop !== store.shop.domain) {
    throw new Error(`The store is ${store.shop.domain}, not ${shop}`);
  }
  const apiVersion = options.apiVersion ?? STANDIN_API_VERSION;
  const scopes =
    typeof options.scopes === "string"
      ? options.scopes
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : [...(options.scopes ?? ALL_STANDIN_SCOPES)];
  const appUrl = options.appUrl?.replace(/\/+$/, "");
  const api = new AdminGraphqlApi(store, options.costLimits);
  const auth = new StandInAuth({
    shop,
    apiKey: options.apiKey,
    apiSecret: options.apiSecret,
    scopes,
    clock,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds,
  });
  const webhooks = new WebhookSender({
    store,
    apiSecret: options.apiSecret,
    apiVersion,
    appUrl,
    log: options.log,
    ...options.webhooks,
  });
  const graphqlPath = `/admin/api/${apiVersion}/graphql.json`;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = performance.now();
    const url = new URL(req.url ?? "/", "http://standin");
    const requestId = randomUUID();
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const text = JSON.stringify(body);
      res.writeHead(status, {
        "content-type": "application/json; charset=utf-8",
        "content-length": String(Buffer.byteLength(text)),
        "x-request-id": requestId,
        ...headers,
      });
      res.end(text);
      options.log?.(
        `${req.method} ${url.pathname} ${status} ${Math.round(performance.now() - started)}ms`,
      );
    };

    // Requests rerouted from https://<shop>.myshopify.com keep their Host; direct ones are loopback.
    const host = (req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase();
    if (host.endsWith(".myshopify.com") && host !== shop) {
      send(404, { errors: `This Shopify stand-in serves ${shop}, not ${host}` });
      return;
    }
    const raw = await readBody(req);
    if (raw === null) {
      send(413, { errors: "Request body too large" });
      return;
    }

    if (url.pathname.startsWith("/__standin/")) {
      await control(req.method ?? "GET", url, raw, send);
      return;
    }

    if (req.method === "POST" && url.pathname === "/admin/oauth/access_token") {
      const reply = auth.handleTokenRequest(parseForm(raw, req.headers["content-type"]));
      send(reply.status, reply.body);
      return;
    }

    const graphqlMatch = /^\/admin\/api\/([^/]+)\/graphql\.json$/.exec(url.pathname);
    if (graphqlMatch) {
      if (graphqlMatch[1] !== apiVersion) {
        send(404, {
          errors: `The Shopify stand-in serves Admin API ${apiVersion} only, not ${graphqlMatch[1]}`,
        });
        return;
      }
      if (req.method !== "POST") {
        send(405, { errors: "Use POST for GraphQL requests" });
        return;
      }
      const token = auth.verifyAccessToken(headerValue(req.headers["x-shopify-access-token"]));
      if (!token) {
        send(401, { errors: INVALID_TOKEN });
        return;
      }
      const request = graphqlRequest(raw, req.headers["content-type"]);
      if (!request) {
        send(400, { errors: { query: "Required parameter missing or invalid" } });
        return;
      }
      const reply = api.execute(request, token.scopes);
      send(reply.status, reply.body, { ...reply.headers, "x-shopify-api-version": apiVersion });
      return;
    }

    send(404, { errors: "Not Found" });
  }

  async function control(
    method: string,
    url: URL,
    raw: string,
    send: (status: number, body: unknown) => void,
  ): Promise<void> {
    const route = `${method} ${url.pathname.replace(/\/+$/, "")}`;
    const param = (pattern: RegExp) => {
      const match = pattern.exec(route);
      return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
    };
    try {
      const body = (raw.trim() ? JSON.parse(raw) : {}) as Record<string, unknown>;
      let ref: string | undefined;
      if (route === "GET /__standin/shop") {
        return send(200, {
          ...store.shop,
          url: server.url,
          apiVersion,
          scopes,
          plan: store.shipping.plan,
          carrierAddOn: store.shipping.carrierAddOn,
        });
      }
      if (route === "POST /__standin/plan") {
        const plan = body.plan as ShopPlan;
        if (!SHOP_PLANS.includes(plan))
          return send(422, { error: `plan must be one of ${SHOP_PLANS.join(", ")}` });
        store.shipping.setPlan(plan, body.carrierAddOn === true);
        return send(200, {
          plan,
          carrierAddOn: store.shipping.carrierAddOn,
          carrierServices: store.shipping.carrierServices(),
        });
      }
      if (route === "GET /__standin/carrier-services")
        return send(200, store.shipping.carrierServices());
      if (route === "POST /__standin/carrier-services/deactivate")
        return send(200, { deactivated: store.shipping.deactivateAll() });
      if (route === "POST /__standin/checkout/rates") {
        return send(
          200,
          await simulateCheckoutRates(
            store,
            options.apiSecret,
            body as unknown as CheckoutRatesInput,
          ),
        );
      }
      if (route === "GET /__standin/orders")
        return send(
          200,
          store.orders().map((o) => orderJson(o)),
        );
      if (route === "POST /__standin/orders")
        return send(201, orderJson(store.addOrder(body as OrderInput)));
      if ((ref = param(/^GET \/__standin\/orders\/([^/]+)$/)))
        return send(200, orderJson(store.order(ref)));
      if ((ref = param(/^POST \/__standin\/orders\/([^/]+)\/fulfill$/))) {
        return send(201, store.fulfillOrder(ref, body as FulfillOptions));
      }
      if ((ref = param(/^POST \/__standin\/orders\/([^/]+)\/route$/))) {
        return send(200, orderJson(store.routeOrder(ref)));
      }
      if ((ref = param(/^POST \/__standin\/orders\/([^/]+)\/update$/))) {
        return send(200, orderJson(store.updateOrder(ref, body as OrderUpdateInput)));
      }
      if ((ref = param(/^POST \/__standin\/fulfillment-orders\/([^/]+)\/hold$/))) {
        return send(201, store.holdFulfillmentOrder(ref, body as Partial<FulfillmentHoldInput>));
      }
      if ((ref = param(/^POST \/__standin\/fulfillment-orders\/([^/]+)\/release-hold$/))) {
        const holdIds = Array.isArray(body.holdIds)
          ? (body.holdIds as (number | string)[])
          : undefined;
        return send(200, store.releaseFulfillmentHolds(ref, holdIds));
      }
      if ((ref = param(/^POST \/__standin\/orders\/([^/]+)\/mark-as-paid$/))) {
        return send(200, orderJson(store.markOrderAsPaid(ref)));
      }
      if ((ref = param(/^POST \/__standin\/orders\/([^/]+)\/cancel$/))) {
        return send(200, orderJson(store.cancelOrder(ref, body as Partial<OrderCancelInput>)));
      }
      if (route === "GET /__standin/locations") return send(200, store.locations());
      if (route === "POST /__standin/locations")
        return send(201, store.addLocation(body as LocationInput));
      if (route === "GET /__standin/fulfillments") return send(200, store.fulfillments());
      if ((ref = param(/^POST \/__standin\/fulfillments\/([^/]+)\/cancel$/))) {
        return send(200, store.cancelFulfillment(ref));
      }
      if ((ref = param(/^POST \/__standin\/fulfillments\/([^/]+)\/events$/))) {
        return send(201, store.addFulfillmentEvent(ref, body as unknown as FulfillmentEventInput));
      }
      if (route === "GET /__standin/webhooks") return send(200, webhooks.deliveries);
      if (route === "POST /__standin/webhooks/drop") {
        const count = typeof body.count === "number" ? body.count : 1;
        const topic = typeof body.topic === "string" ? body.topic : null;
        if (topic !== null && !WEBHOOK_TOPICS.includes(topic as WebhookTopic)) {
          return send(422, { error: `No webhook topic ${topic}` });
        }
        webhooks.dropNext(count, topic as WebhookTopic | null);
        return send(200, { dropping: count, topic });
      }
      if ((ref = param(/^POST \/__standin\/webhooks\/([^/]+)\/redeliver$/))) {
        const copies = await webhooks.redeliver(ref, {
          times: typeof body.times === "number" ? body.times : 1,
          concurrent: body.concurrent === true,
        });
        return send(200, copies);
      }
      if (route === "POST /__standin/throttle") {
        const kind = body.kind === "http429" ? "http429" : "throttled";
        api.throttleNext(typeof body.count === "number" ? body.count : 1, kind);
        return send(200, { armed: kind, count: body.count ?? 1 });
      }
      if (route === "POST /__standin/fail") {
        const status = typeof body.status === "number" ? body.status : 503;
        api.failNext(typeof body.count === "number" ? body.count : 1, status);
        return send(200, { armed: status, count: body.count ?? 1 });
      }
      if (route === "GET /__standin/graphql") return send(200, store.graphqlLog);
      if (route === "GET /__standin/flow-triggers") return send(200, store.flowTriggers);
      if (route === "GET /__standin/admin-url") {
        return send(200, { url: adminUrl(url.searchParams.get("path") ?? "/app") });
      }
      if (route === "GET /__standin/token-requests") {
        // Every call to the token endpoint, counted by grant: how many refreshes one expiry cost.
        const count = (grant: string, status?: number) =>
          auth.requests.filter(
            (r) => r.grantType === grant && (status === undefined || r.status === status),
          ).length;
        return send(200, {
          refresh: count("refresh_token"),
          refreshAccepted: count("refresh_token", 200),
          tokenExchange: count("urn:ietf:params:oauth:grant-type:token-exchange"),
          requests: auth.requests,
        });
      }
      if (route === "POST /__standin/session-token")
        return send(200, { token: auth.sessionToken() });
      if (route === "POST /__standin/tokens") {
        const issued = auth.issueAccessToken({
          token: typeof body.token === "string" ? body.token : undefined,
          expiresInSeconds:
            typeof body.expiresInSeconds === "number" ? body.expiresInSeconds : null,
        });
        return send(201, issued);
      }
      return send(404, { error: `No control endpoint ${route}` });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const status =
        error instanceof StandInError && /^No (order|fulfillment|location)/.test(message)
          ? 404
          : 400;
      return send(status, { error: message });
    }
  }

  function adminUrl(path = "/app"): string {
    if (!appUrl) throw new StandInError("adminUrl needs the stand-in's appUrl");
    const target = new URL(path, `${appUrl}/`);
    target.searchParams.set("embedded", "1");
    target.searchParams.set("shop", shop);
    const storeName = shop.replace(/\.myshopify\.com$/, "");
    target.searchParams.set(
      "host",
      Buffer.from(`admin.shopify.com/store/${storeName}`).toString("base64"),
    );
    target.searchParams.set("id_token", auth.sessionToken());
    return target.toString();
  }

  function orderJson(order: StandInOrder) {
    return {
      ...order,
      gid: gid("Order", order.id),
      displayFulfillmentStatus: store.displayFulfillmentStatus(order),
      fulfillmentHolds: store.fulfillmentHolds(order.id),
    };
  }

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in the stand-in: answer 500 as Shopify would, and say why.
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
        res.end(
          JSON.stringify({
            errors: `Stand-in error: ${error instanceof Error ? error.message : String(error)}`,
          }),
        );
      }
    });
  });
  httpServer.keepAliveTimeout = 5000;
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.off("error", reject);
      resolve();
    });
  });
  const port = (httpServer.address() as AddressInfo).port;
  const server = { url: `http://${host}:${port}` };

  return {
    url: server.url,
    port,
    shop,
    apiVersion,
    graphqlUrl: `${server.url}${graphqlPath}`,
    store,
    api,
    webhooks,
    auth,
    adminUrl,
    close: async () => {
      webhooks.detach();
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections();
      await closed;
    },
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parseForm(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (contentType?.includes("application/json")) {
    try {
      const parsed = JSON.parse(raw) as unknown;
      return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

function graphqlRequest(
  raw: string,
  contentType: string | undefined,
): {
  query: string;
  variables: Record<string, unknown> | null;
  operationName: string | null;
} | null {
  // Shopify takes either a JSON body or the bare document as application/graphql.
  if (contentType?.includes("application/graphql")) {
    return raw.trim() ? { query: raw, variables: null, operationName: null } : null;
  }
  try {
    const body = JSON.parse(raw) as {
      query?: unknown;
      variables?: unknown;
      operationName?: unknown;
    };
    if (typeof body.query !== "string" || !body.query.trim()) return null;
    return {
      query: body.query,
      variables:
        body.variables && typeof body.variables === "object"
          ? (body.variables as Record<string, unknown>)
          : null,
      operationName: typeof body.operationName === "string" ? body.operationName : null,
    };
  } catch {
    return null;
  }
}

// The body as text, or null when it is larger than the limit.
function readBody(req: http.IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > BODY_LIMIT ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(null));
  });
}
