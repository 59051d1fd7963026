/**
 * The stack `npm run bench:shopper` runs the built app in, as `npm run demo` does: a fresh SQLite
 * database, the courier sandbox, the Shopify stand-in (webhooks from shopify.app.toml), optionally
 * the WhatsApp stand-in, the built server (its worker and shopper loop on), the merchant installed
 * and set up through the app's own services. The caller's process gets the app's environment, so
 * it can read the database with the app's models.
 */
import path from "node:path";
import { API_KEY, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { startCourierSandbox, type CourierSandbox } from "../../sandbox/courier";
import {
  ShopifyStandInStore,
  startShopifyStandIn,
  subscriptionsFromAppToml,
  type ShopifyStandIn,
} from "../../sandbox/shopify";
import { startWhatsAppStandIn, type WhatsAppStandIn } from "../../sandbox/whatsapp";
import { HUMAN_USER_AGENT } from "../../test/support/browser";
import { TEST_ENCRYPTION_KEYS, TEST_SCOPES } from "../../test/support/test-env";
import { startBuiltServer, type RunningServer } from "./app-server";
import { freePort, migrateDatabase, ROOT } from "./scratch";

export const BENCH_SHOP = "bench-shopper.myshopify.com";
const COURIER_KEY = "sandbox-test-key";

export interface ShopperStack {
  appUrl: string;
  courier: CourierSandbox;
  store: ShopifyStandInStore;
  shopify: ShopifyStandIn;
  whatsapp: WhatsAppStandIn | null;
  server(): RunningServer;
  /** Kills the server with SIGKILL (no shutdown of any kind) and starts it again. */
  killAndRestart(): Promise<void>;
  close(): Promise<void>;
}

export async function startShopperStack(options: {
  dir: string;
  name: string;
  whatsapp?: { accessToken: string; appSecret: string; callbackRetryDelaysMs?: number[] };
  /** Extra environment for the server (e.g. WHATSAPP_CONFIRM_WAIT_MS). */
  env?: Record<string, string>;
}): Promise<ShopperStack> {
  const databaseUrl = migrateDatabase(path.join(options.dir, `${options.name}.sqlite`));
  const [appPort, shopifyPort] = [await freePort(), await freePort()];
  const appUrl = `http://127.0.0.1:${appPort}`;
  const courier = await startCourierSandbox({ acceptedKeys: [COURIER_KEY] });
  const whatsapp = options.whatsapp
    ? await startWhatsAppStandIn({
        accessToken: options.whatsapp.accessToken,
        appSecret: options.whatsapp.appSecret,
        linkBase: `${appUrl}/tracking/`,
        callbackRetryDelaysMs: options.whatsapp.callbackRetryDelaysMs,
      })
    : null;
  const store = new ShopifyStandInStore({ shop: BENCH_SHOP, name: "Bench Kuwait Store" });
  store.addLocation({
    name: "Salmiya Shop",
    address: {
      address1: "Salem Al Mubarak Street, Block 10",
      city: "Salmiya",
      zip: "22000",
      provinceCode: "KW-HA",
      phone: "+96522211111",
    },
  });
  const subscriptions = subscriptionsFromAppToml(path.join(ROOT, "shopify.app.toml"));
  const shopify = await startShopifyStandIn({
    store,
    apiKey: API_KEY,
    apiSecret: API_SECRET_KEY,
    scopes: TEST_SCOPES,
    appUrl,
    port: shopifyPort,
    webhooks: { topics: subscriptions.topics, path: subscriptions.path },
  });
  const appEnv: Record<string, string> = {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET_KEY,
    SHOPIFY_APP_URL: appUrl,
    SCOPES: TEST_SCOPES,
    ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    COURIER_SANDBOX_URL: courier.url,
    SHOPIFY_STANDIN_URL: shopify.url,
    // Simulated shoppers come from many addresses, as real ones do.
    TRUST_PROXY: "1",
    // The server runs the worker and the shopper loop (this process, which reads the database
    // with the app's models, turns its own off; a restarted server must not inherit that).
    DELIVERY_WORKER: "on",
    ...(whatsapp ? { WHATSAPP_API_URL: whatsapp.url } : {}),
    ...options.env,
  };
  let starts = 0;
  const start = () =>
    startBuiltServer({
      env: appEnv,
      port: appPort,
      logFile: path.join(options.dir, `${options.name}-server-${++starts}.log`),
      nodeArgs: ["--import", "tsx", "--import", "./sandbox/shopify/preload.ts"],
      startTimeoutMs: 90_000,
    });
  let server: RunningServer | null = null;
  const closeAll = async () => {
    await server?.stop();
    await Promise.allSettled([shopify.close(), courier.close(), whatsapp?.close()]);
  };
  try {
    server = await start();
    // The merchant installs (token exchange on the first admin load) and configures the app.
    await fetch(shopify.adminUrl("/app"), {
      headers: { "user-agent": HUMAN_USER_AGENT },
      redirect: "manual",
    });
    Object.assign(process.env, appEnv, { DELIVERY_WORKER: "off" });
    const { configureLocalMerchant } = await import("../../scripts/support/local-merchant");
    await configureLocalMerchant({
      shop: BENCH_SHOP,
      store,
      courier,
      courierKey: COURIER_KEY,
      appUrl,
    });
  } catch (error) {
    if (server) console.error(server.log().split("\n").slice(-30).join("\n"));
    await closeAll();
    throw error;
  }
  return {
    appUrl,
    courier,
    store,
    shopify,
    whatsapp,
    server: () => server!,
    async killAndRestart() {
      process.kill(server!.pid, "SIGKILL");
      await server!.stop();
      server = await start();
    },
    close: closeAll,
  };
}
