import http from "node:http";
import type { AddressInfo } from "node:net";
import { API_KEY, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import {
  startShopifyStandIn,
  type AdminGraphqlApi,
  type ShopifyStandIn,
  type ShopifyStandInOptions,
} from "../../sandbox/shopify";
import { TEST_SCOPES } from "../support/test-env";

export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/**
 * A real HTTP endpoint standing in for the app's webhook routes: records every request raw and
 * answers with the status `reply` picks (200 by default).
 */
export async function startWebhookReceiver(
  reply: (webhook: ReceivedWebhook, index: number) => number = () => 200,
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const webhook = {
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(webhook);
      res.writeHead(reply(webhook, received.length - 1)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A received webhook as the `Request` the app's route would be handed. */
export function asRequest(webhook: ReceivedWebhook, appUrl: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(webhook.headers)) {
    if (typeof value === "string") headers.set(name, value);
  }
  return new Request(new URL(webhook.path, appUrl), {
    method: "POST",
    headers,
    body: webhook.body,
  });
}

/** The stand-in with the app's test credentials and scopes (Shopify's published test app). */
export function startTestStandIn(
  overrides: Partial<ShopifyStandInOptions> = {},
): Promise<ShopifyStandIn> {
  return startShopifyStandIn({
    apiKey: API_KEY,
    apiSecret: API_SECRET_KEY,
    scopes: TEST_SCOPES,
    ...overrides,
  });
}

/** POSTs a GraphQL document to the stand-in with an access token, as the Shopify library does. */
export async function postGraphql(
  standIn: ShopifyStandIn,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
) {
  const response = await fetch(standIn.graphqlUrl, {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-access-token": token },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as GraphqlBody,
  };
}

export interface GraphqlBody {
  data?: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any
  errors?: { message: string; extensions?: Record<string, unknown> }[] | string;
  extensions?: {
    cost: {
      requestedQueryCost: number;
      actualQueryCost: number | null;
      throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
    };
  };
}

/**
 * Runs a document on the stand-in's Admin API without HTTP, as the merchant (every scope) unless
 * `scopes` are given: charged to the bucket and logged like any call.
 */
export function runGraphql(
  api: AdminGraphqlApi,
  query: string,
  variables: Record<string, unknown> = {},
  scopes: readonly string[] | null = null,
): GraphqlBody {
  return api.execute({ query, variables }, scopes).body as GraphqlBody;
}
