import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { GraphqlQueryError } from "@shopify/shopify-api";
import { getGlobalDispatcher, type Dispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { authenticate, sessionStorage, unauthenticated } from "../../app/shopify.server";
import { gid, routeShopifyToStandIn, type ShopifyStandIn } from "../../sandbox/shopify";
import { ROOT } from "../support/paths";
import { adminFetchRequest, installShop, shopDomain } from "../support/shopify";
import { startTestStandIn } from "./support";

const shop = shopDomain("standin-e2e");
const SHOP_NAME = `#graphql
  query ShopName { shop { name myshopifyDomain } }`;

let standIn: ShopifyStandIn;
let previous: Dispatcher;
let uninstall: () => Promise<void>;

beforeAll(async () => {
  standIn = await startTestStandIn({ shop });
  // The test setup's dispatcher refuses every host but loopback; it keeps doing so for the rest.
  previous = getGlobalDispatcher();
  uninstall = routeShopifyToStandIn(standIn.url, { fallback: previous });
});

afterAll(async () => {
  await uninstall();
  expect(getGlobalDispatcher()).toBe(previous);
  await standIn.close();
});

describe("the app against the Shopify stand-in", () => {
  it("exchanges the session token on a first visit, then reads the shop through unauthenticated.admin", async () => {
    const { session } = await authenticate.admin(await adminFetchRequest(shop, "/app"));
    expect(session.accessToken).toMatch(/^shpat_/);
    expect(session.refreshToken).toMatch(/^shprt_/);
    expect(standIn.auth.requests.at(-1)).toMatchObject({
      requestedTokenType: expect.stringContaining("offline"),
      status: 200,
    });
    expect(await prisma.shopSettings.findUnique({ where: { shop } })).not.toBeNull();

    const { admin } = await unauthenticated.admin(shop);
    const response = await admin.graphql(SHOP_NAME);
    expect(await response.json()).toMatchObject({
      data: { shop: { name: "Demo Store", myshopifyDomain: shop } },
      extensions: { cost: { requestedQueryCost: 1 } },
    });
    expect(standIn.store.graphqlLog.at(-1)).toMatchObject({
      operationName: "ShopName",
      outcome: "ok",
    });
  });

  it("runs the app's order query and fulfillment mutation unchanged through the library", async () => {
    await installShop(shop);
    standIn.auth.issueAccessToken({ token: `offline-token-${shop}` });
    const order = standIn.store.addOrder({ payment: "cod" });
    const { admin } = await unauthenticated.admin(shop);

    const read = await admin.graphql(
      `#graphql
      query DeliveryOrder($id: ID!) {
        order(id: $id) {
          name
          totalOutstandingSet { shopMoney { amount currencyCode } }
          shippingAddress { city provinceCode }
          fulfillmentOrders(first: 5) { nodes { id status } }
        }
      }`,
      { variables: { id: gid("Order", order.id) } },
    );
    const { data } = (await read.json()) as {
      data: { order: { fulfillmentOrders: { nodes: { id: string }[] } } };
    };
    expect(data.order).toMatchObject({
      name: "#1001",
      totalOutstandingSet: { shopMoney: { amount: "13.5", currencyCode: "KWD" } },
      shippingAddress: { city: "Salmiya", provinceCode: "KW-HA" },
      fulfillmentOrders: { nodes: [{ status: "OPEN" }] },
    });

    const fulfill = await admin.graphql(
      `#graphql
      mutation FulfillOrder($fulfillment: FulfillmentInput!) {
        fulfillmentCreate(fulfillment: $fulfillment) { fulfillment { name } userErrors { field message } }
      }`,
      {
        variables: {
          fulfillment: {
            lineItemsByFulfillmentOrder: [
              { fulfillmentOrderId: data.order.fulfillmentOrders.nodes[0]!.id },
            ],
          },
        },
      },
    );
    expect(await fulfill.json()).toMatchObject({
      data: { fulfillmentCreate: { fulfillment: { name: "#1001.1" }, userErrors: [] } },
    });
    expect(standIn.store.displayFulfillmentStatus(order)).toBe("FULFILLED");
  });

  it("surfaces THROTTLED as the library's GraphqlQueryError", async () => {
    await installShop(shop);
    standIn.auth.issueAccessToken({ token: `offline-token-${shop}` });
    standIn.api.throttleNext(1);
    const { admin } = await unauthenticated.admin(shop);
    const error = await admin.graphql(SHOP_NAME).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphqlQueryError);
    expect(JSON.stringify((error as GraphqlQueryError).body)).toContain("THROTTLED");
  });

  it("refreshes an expiring offline token near its end against the stand-in", async () => {
    // A second stand-in whose tokens live 60 s, inside the library's 5-minute refresh margin.
    const refreshShop = shopDomain("standin-refresh");
    const short = await startTestStandIn({ shop: refreshShop, accessTokenTtlSeconds: 60 });
    const restore = routeShopifyToStandIn(short.url, { fallback: getGlobalDispatcher() });
    try {
      const { session } = await authenticate.admin(await adminFetchRequest(refreshShop, "/app"));
      const { admin, session: refreshed } = await unauthenticated.admin(refreshShop);
      expect(refreshed.accessToken).not.toBe(session.accessToken);
      expect(short.auth.requests.map((r) => r.grantType)).toEqual([
        "urn:ietf:params:oauth:grant-type:token-exchange",
        "refresh_token",
      ]);
      expect((await sessionStorage.loadSession(refreshed.id))?.accessToken).toBe(
        refreshed.accessToken,
      );
      expect((await (await admin.graphql(SHOP_NAME)).json()).data.shop.myshopifyDomain).toBe(
        refreshShop,
      );
    } finally {
      await restore();
      await short.close();
    }
  });

  it("answers a shop it does not serve with a 404 and leaves other hosts to the previous dispatcher", async () => {
    const other = shopDomain("not-this-one");
    await installShop(other);
    const { admin } = await unauthenticated.admin(other);
    const before = standIn.store.graphqlLog.length;
    await expect(admin.graphql(SHOP_NAME)).rejects.toThrow(/404 Not Found/);
    expect(standIn.store.graphqlLog).toHaveLength(before);
    await expect(fetch("https://example.com/")).rejects.toThrow();
  });

  it("reroutes a separate process's Admin calls through the preload and SHOPIFY_STANDIN_URL", async () => {
    const { token } = standIn.auth.issueAccessToken();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "standin-preload-"));
    const script = path.join(dir, "call-admin.mjs");
    fs.writeFileSync(
      script,
      `const response = await fetch("https://${shop}/admin/api/2026-10/graphql.json", {
         method: "POST",
         headers: { "content-type": "application/json", "x-shopify-access-token": process.env.STANDIN_TOKEN },
         body: JSON.stringify({ query: "query ShopName { shop { myshopifyDomain } }" }),
       });
       console.log(JSON.stringify({ status: response.status, body: await response.json() }));`,
    );
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        ["--import", "tsx", "--import", "./sandbox/shopify/preload.ts", script],
        {
          cwd: ROOT,
          env: { ...process.env, SHOPIFY_STANDIN_URL: standIn.url, STANDIN_TOKEN: token },
          timeout: 30_000,
        },
      );
      expect(JSON.parse(stdout)).toEqual({
        status: 200,
        body: expect.objectContaining({ data: { shop: { myshopifyDomain: shop } } }),
      });
      expect(stderr).toContain(`calls to https://*.myshopify.com now go to ${standIn.url}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
