import { spawn } from "node:child_process";
import { Session } from "@shopify/shopify-api";
import { getGlobalDispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { productionDependencies } from "../../app/pipeline/runner.server";
import { runDueDeliveries } from "../../app/pipeline/worker.server";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { sessionStorage } from "../../app/shopify.server";
import { routeShopifyToStandIn, type ShopifyStandIn } from "../../sandbox/shopify";
import { startTestStandIn } from "../shopify-standin/support";
import { until } from "../support/child-worker";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import { testDatabaseName } from "../support/database";
import { ROOT } from "../support/paths";
import { fulfillmentPayload, readyShop, testWorker, type FakeOrder } from "../support/pipeline";
import { callRoute, webhookRequest } from "../support/shopify";

const REFRESH = "refresh_token";

// The shop's expiring offline token ends within minutes while several processes of the app need the
// Admin API at once (ADR 0015), against the Shopify stand-in, whose refresh tokens rotate. Runs on
// SQLite and on PostgreSQL.

const database = testDatabaseName();
// The stand-in serves one shop: every test of the file uses it.
const shop = "token-refresh.myshopify.com";
setUpCourierSandbox();
let standIn: ShopifyStandIn;
let unroute: () => Promise<void>;

beforeAll(async () => {
  standIn = await startTestStandIn({ shop });
  unroute = routeShopifyToStandIn(standIn.url, { fallback: getGlobalDispatcher() });
});
afterAll(async () => {
  await unroute();
  await standIn.close();
});

const refreshCalls = () => standIn.auth.requests.filter((r) => r.grantType === REFRESH);

/**
 * Installs the shop as a token exchange would, an expiring token and its refresh token, stored
 * as granted an hour minus four minutes ago: it ends within the library's 5-minute margin too.
 */
async function expiringSession() {
  const response = await fetch(`https://${shop}/admin/oauth/access_token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_id: process.env.SHOPIFY_API_KEY,
      client_secret: process.env.SHOPIFY_API_SECRET,
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      subject_token: standIn.auth.sessionToken(),
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      requested_token_type: "urn:shopify:params:oauth:token-type:offline-access-token",
      expiring: "1",
    }),
  });
  const granted = (await response.json()) as {
    access_token: string;
    scope: string;
    expires_in: number;
    refresh_token: string;
    refresh_token_expires_in: number;
  };
  await sessionStorage.storeSession(
    new Session({
      id: `offline_${shop}`,
      shop,
      state: "",
      isOnline: false,
      accessToken: granted.access_token,
      scope: granted.scope,
      expires: new Date(Date.now() + 4 * 60_000),
      refreshToken: granted.refresh_token,
      refreshTokenExpires: new Date(Date.now() + granted.refresh_token_expires_in * 1000),
    }),
  );
  standIn.auth.requests.length = 0;
  return granted;
}

/** A process of the app with the stand-in preloaded, making `count` Admin clients on "go". */
function startAppProcess(count: number) {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      "./sandbox/shopify/preload.ts",
      "test/support/token-refresh-child.ts",
      shop,
      String(count),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, SHOPIFY_STANDIN_URL: standIn.url },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return {
    ready: () =>
      until(
        () => output.includes("ready"),
        "the app process to start",
        90_000,
        () => output,
      ),
    go: () => child.stdin.write("go\n"),
    async result() {
      expect(await exited).toBe(0);
      const line = output.split("\n").find((l) => l.startsWith("{"));
      if (!line) throw new Error(`The app process printed no result: ${output}`);
      return JSON.parse(line) as { ok: number; errors: string[] };
    },
  };
}

const orders: FakeOrder[] = [0, 1, 2].map((i) => ({
  fulfillmentNumber: 9701 + i,
  orderNumber: 6701 + i,
  city: "Salmiya",
  address1: "Block 10, Street 5, House 12",
  provinceCode: "KW-HA",
}));

describe(`an expiring offline token (${database})`, () => {
  it("is renewed once when three processes need it at the same time", async () => {
    await prisma.shopSettings.create({ data: { shop } });
    await expiringSession();
    const processes = [0, 1, 2].map(() => startAppProcess(10));
    for (const p of processes) await p.ready();
    for (const p of processes) p.go();
    const results = await Promise.all(processes.map((p) => p.result()));

    expect(results.flatMap((r) => r.errors)).toEqual([]);
    expect(results.map((r) => r.ok)).toEqual([10, 10, 10]);
    expect(refreshCalls().map((r) => r.status)).toEqual([200]);
    const stored = await sessionStorage.loadSession(`offline_${shop}`);
    expect(standIn.auth.verifyAccessToken(stored?.accessToken)).not.toBeNull();
  }, 180_000);

  it("whose refresh token was already spent makes deliveries wait and tells the merchant", async () => {
    await readyShop(shop);
    const granted = await expiringSession();
    // The rotation is lost: a renewal that Shopify answered, but whose answer nobody stored.
    await fetch(`https://${shop}/admin/oauth/access_token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_id: process.env.SHOPIFY_API_KEY,
        client_secret: process.env.SHOPIFY_API_SECRET,
        grant_type: REFRESH,
        refresh_token: granted.refresh_token,
      }),
    });
    standIn.auth.requests.length = 0;
    for (const order of orders) {
      await callRoute(
        fulfillmentsCreate,
        webhookRequest({
          topic: "fulfillments/create",
          shop,
          payload: fulfillmentPayload(order),
        }),
      );
    }

    const worker = testWorker({ adminFor: productionDependencies().adminFor });
    await runDueDeliveries(worker.deps, 20);
    worker.advance(6 * 60_000);
    await runDueDeliveries(worker.deps, 20);

    const deliveries = await prisma.delivery.findMany({ where: { shop } });
    expect(deliveries.map((d) => d.state)).toEqual(["pending", "pending", "pending"]);
    for (const delivery of deliveries) {
      expect(delivery.failures).toBe(0);
      expect(delivery.lastError).toMatch(/Shopify refused to renew .*invalid_grant.*Open the app/);
      expect(delivery.nextAttemptAt!.getTime()).toBeGreaterThan(worker.clock.now.getTime());
    }
    // One try, then the refusal is remembered: no more calls with a refresh token known dead.
    expect(refreshCalls().map((r) => r.error)).toEqual(["invalid_grant"]);
    const settings = await prisma.shopSettings.findUniqueOrThrow({ where: { shop } });
    expect(settings.shopifyAccessLostAt).not.toBeNull();
    expect(settings.shopifyAccessLostReason).toMatch(
      /Shopify refused to renew the app's access to your store \(400 .*invalid_grant/,
    );
  }, 60_000);
});
