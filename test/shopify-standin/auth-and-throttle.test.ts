import { API_KEY, API_SECRET_KEY, getJwt } from "@shopify/shopify-api/test-helpers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ShopifyStandIn } from "../../sandbox/shopify";
import { postGraphql, startTestStandIn } from "./support";

const SHOP_NAME = "auth-standin";
const SHOP = `${SHOP_NAME}.myshopify.com`;
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const OFFLINE = "urn:shopify:params:oauth:token-type:offline-access-token";
const ONLINE = "urn:shopify:params:oauth:token-type:online-access-token";
const SHOP_NAME_QUERY = `query ShopName { shop { name myshopifyDomain } }`;

let standIn: ShopifyStandIn;
let now: number;

beforeEach(async () => {
  now = Date.now();
  standIn = await startTestStandIn({ shop: SHOP, clock: () => now });
});

afterEach(async () => {
  await standIn.close();
});

async function tokenRequest(body: Record<string, unknown>) {
  const response = await fetch(`${standIn.url}/admin/oauth/access_token`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ client_id: API_KEY, client_secret: API_SECRET_KEY, ...body }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function exchange(overrides: Record<string, unknown> = {}, jwt?: string) {
  const subject = jwt ?? (await getJwt(SHOP_NAME, API_KEY, API_SECRET_KEY)).token;
  return tokenRequest({
    grant_type: TOKEN_EXCHANGE,
    subject_token: subject,
    subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    requested_token_type: OFFLINE,
    expiring: "1",
    ...overrides,
  });
}

describe("token exchange", () => {
  it("grants an expiring offline token and a refresh token for a valid session token", async () => {
    const { status, body } = await exchange();
    expect(status).toBe(200);
    expect(body).toEqual({
      access_token: expect.stringMatching(/^shpat_[0-9a-f]{32}$/),
      scope:
        "read_orders,write_orders,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders,read_fulfillments,write_fulfillments,read_locations,write_shipping",
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^shprt_/),
      refresh_token_expires_in: 7_776_000,
    });
    const reply = await postGraphql(standIn, String(body.access_token), SHOP_NAME_QUERY);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ shop: { name: "Demo Store", myshopifyDomain: SHOP } });
    expect(reply.headers.get("x-shopify-api-version")).toBe("2026-10");
    expect(standIn.auth.requests).toEqual([
      expect.objectContaining({
        grantType: TOKEN_EXCHANGE,
        requestedTokenType: OFFLINE,
        expiring: true,
        status: 200,
      }),
    ]);
  });

  it("grants a token that never expires when expiring is 0", async () => {
    expect((await exchange({ expiring: "0" })).body).toEqual({
      access_token: expect.any(String),
      scope: expect.any(String),
    });
  });

  it("grants an online token with its user", async () => {
    const online = await exchange({ requested_token_type: ONLINE });
    expect(online.body).toMatchObject({
      access_token: expect.stringMatching(/^shpua_/),
      expires_in: 86_399,
      associated_user: { id: 12345, account_owner: true },
    });
  });

  it("refuses session tokens signed with another secret, for another app or shop, or expired", async () => {
    const cases = [
      (await getJwt(SHOP_NAME, API_KEY, "not-the-secret")).token,
      (await getJwt(SHOP_NAME, "another-app", API_SECRET_KEY)).token,
      (await getJwt("another-shop", API_KEY, API_SECRET_KEY)).token,
      (await getJwt(SHOP_NAME, API_KEY, API_SECRET_KEY, { exp: Math.floor(now / 1000) - 60 }))
        .token,
      "not-a-jwt",
    ];
    for (const jwt of cases) {
      const { status, body } = await exchange({}, jwt);
      expect(status).toBe(400);
      expect(body.error).toBe("invalid_subject_token");
    }
  });

  it("refuses wrong client credentials", async () => {
    const { status, body } = await exchange({ client_secret: "wrong" });
    expect(status).toBe(401);
    expect(body.error).toBe("invalid_client");
  });

  it("expires access tokens and rotates refresh tokens, each usable once", async () => {
    const granted = (await exchange()).body;
    now += 3601 * 1000;
    const expired = await postGraphql(standIn, String(granted.access_token), SHOP_NAME_QUERY);
    expect(expired.status).toBe(401);
    expect(expired.body.errors).toBe(
      "[API] Invalid API key or access token (unrecognized login or wrong password)",
    );

    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: granted.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(granted.refresh_token);
    expect(
      (await postGraphql(standIn, String(refreshed.body.access_token), SHOP_NAME_QUERY)).status,
    ).toBe(200);

    const reused = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: granted.refresh_token,
    });
    expect(reused).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });
});

describe("the Admin API endpoint", () => {
  it("answers 401 without a token it issued", async () => {
    expect((await postGraphql(standIn, "shpat_unknown", SHOP_NAME_QUERY)).status).toBe(401);
  });

  it("answers 404 for another API version", async () => {
    const { token } = standIn.auth.issueAccessToken();
    const other = await fetch(`${standIn.url}/admin/api/2025-01/graphql.json`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-shopify-access-token": token },
      body: JSON.stringify({ query: SHOP_NAME_QUERY }),
    });
    expect(other.status).toBe(404);
    expect(await other.text()).toContain("serves Admin API 2026-10 only");
  });

  it("takes a bare document sent as application/graphql", async () => {
    const { token } = standIn.auth.issueAccessToken();
    const response = await fetch(standIn.graphqlUrl, {
      method: "POST",
      headers: { "content-type": "application/graphql", "x-shopify-access-token": token },
      body: SHOP_NAME_QUERY,
    });
    expect(((await response.json()) as { data: unknown }).data).toEqual({
      shop: { name: "Demo Store", myshopifyDomain: SHOP },
    });
  });
});

describe("throttling", () => {
  const ORDER_IDS = `query OrderIds { orders(first: 10) { nodes { id } } }`;

  it("drains the bucket by each query's actual cost and throttles in a 200 until it refills", async () => {
    await standIn.close();
    standIn = await startTestStandIn({
      shop: SHOP,
      clock: () => now,
      costLimits: { maximumAvailable: 40, restoreRate: 10 },
    });
    for (let i = 0; i < 10; i++) standIn.store.addOrder();
    const { token } = standIn.auth.issueAccessToken();

    // Each call requests 2 + 10 × 1 = 12 points and uses all of them.
    for (const left of [28, 16, 4]) {
      const reply = await postGraphql(standIn, token, ORDER_IDS);
      expect(reply.body.extensions?.cost).toMatchObject({
        requestedQueryCost: 12,
        actualQueryCost: 12,
        throttleStatus: { maximumAvailable: 40, currentlyAvailable: left, restoreRate: 10 },
      });
    }
    const throttled = await postGraphql(standIn, token, ORDER_IDS);
    expect(throttled.status).toBe(200);
    expect(throttled.body.errors).toEqual([
      expect.objectContaining({
        message: "Throttled",
        extensions: expect.objectContaining({ code: "THROTTLED" }),
      }),
    ]);
    expect(throttled.body.data).toBeUndefined();
    expect(throttled.body.extensions?.cost).toMatchObject({
      requestedQueryCost: 12,
      actualQueryCost: null,
      throttleStatus: { currentlyAvailable: 4 },
    });

    now += 1000;
    expect((await postGraphql(standIn, token, ORDER_IDS)).body.data?.orders.nodes).toHaveLength(10);
    expect(standIn.store.graphqlLog.map((r) => r.outcome)).toEqual([
      "ok",
      "ok",
      "ok",
      "throttled",
      "ok",
    ]);
  });

  it("forces THROTTLED, HTTP 429 or a 5xx for the next calls through the control API", async () => {
    const { token } = standIn.auth.issueAccessToken();
    const control = (path: string, body: unknown) =>
      fetch(`${standIn.url}/__standin/${path}`, { method: "POST", body: JSON.stringify(body) });

    await control("throttle", { count: 2 });
    for (let i = 0; i < 2; i++) {
      const reply = await postGraphql(standIn, token, SHOP_NAME_QUERY);
      expect(reply.status).toBe(200);
      expect(JSON.stringify(reply.body.errors)).toContain("THROTTLED");
    }
    expect((await postGraphql(standIn, token, SHOP_NAME_QUERY)).body.data).toBeDefined();

    await control("throttle", { count: 1, kind: "http429" });
    const limited = await postGraphql(standIn, token, SHOP_NAME_QUERY);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1.0");

    await control("fail", { count: 1, status: 502 });
    expect((await postGraphql(standIn, token, SHOP_NAME_QUERY)).status).toBe(502);
    expect((await postGraphql(standIn, token, SHOP_NAME_QUERY)).status).toBe(200);
  });
});
