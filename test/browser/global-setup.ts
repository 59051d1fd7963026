import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { API_KEY, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { startCourierSandbox } from "../../sandbox/courier";
import { startShopifyStandIn, subscriptionsFromAppToml } from "../../sandbox/shopify";
import { startWhatsAppStandIn } from "../../sandbox/whatsapp";
import { ARTIFACTS_DIR, ROOT, TEMPLATE_DB, TEST_DATA_DIR } from "../support/paths";
import { SANDBOX_KEY, TEST_SCOPES, testEnvironment } from "../support/test-env";

declare module "vitest" {
  export interface ProvidedContext {
    appUrl: string;
    appDatabaseFile: string;
    standInUrl: string;
    courierSandboxUrl: string;
    /** The WhatsApp stand-in's token, app secret and a number it says is not on WhatsApp. */
    whatsApp: { accessToken: string; appSecret: string; notOnWhatsApp: string };
  }
}

/**
 * Builds the app as `npm run build` does and starts the production server (`npm start`) on a
 * free port with its own migrated SQLite file, for real pages in headless Chromium.
 */
export default async function setup(project: TestProject) {
  const databaseFile = path.join(TEST_DATA_DIR, "browser.sqlite");
  fs.copyFileSync(TEMPLATE_DB, databaseFile);
  execFileSync(path.join(ROOT, "node_modules", ".bin", "remix"), ["vite:build"], {
    cwd: ROOT,
    stdio: "pipe",
  });

  // The courier sandbox the app's "sandbox" environment points at.
  const sandbox = await startCourierSandbox({ acceptedKeys: [SANDBOX_KEY] });
  // The WhatsApp stand-in the app sends test messages to (WHATSAPP_API_URL).
  const whatsApp = {
    accessToken: "EAAGbrowserstandintoken42",
    appSecret: "browser-stand-in-app-secret",
    notOnWhatsApp: "96555000000",
  };
  const whatsAppStandIn = await startWhatsAppStandIn({
    accessToken: whatsApp.accessToken,
    appSecret: whatsApp.appSecret,
    notOnWhatsApp: [whatsApp.notOnWhatsApp],
    statusFlow: "none",
  });
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const subscriptions = subscriptionsFromAppToml(path.join(ROOT, "shopify.app.toml"));
  // A Shopify stand-in store for the shop, reached through the preload's redirect: token exchange,
  // Admin GraphQL, and signed webhooks back to the app.
  const standIn = await startShopifyStandIn({
    shop: "browser-shop.myshopify.com",
    apiKey: API_KEY,
    apiSecret: API_SECRET_KEY,
    scopes: TEST_SCOPES,
    appUrl,
    webhooks: { topics: subscriptions.topics, path: subscriptions.path },
  });
  const server: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "--import", "./sandbox/shopify/preload.ts", path.join(ROOT, "server.js")],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...testEnvironment({
          DATABASE_URL: `file:${databaseFile}`,
          SHOPIFY_APP_URL: appUrl,
          COURIER_SANDBOX_URL: sandbox.url,
          WHATSAPP_API_URL: whatsAppStandIn.url,
          DELIVERY_WORKER: "on",
        }),
        SHOPIFY_STANDIN_URL: standIn.url,
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  // The server's output is kept as a test artifact, for reading after a failure.
  const logFile = path.join(ARTIFACTS_DIR, "browser", "app-server.log");
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.createWriteStream(logFile);
  let output = "";
  for (const stream of [server.stdout, server.stderr]) {
    stream?.on("data", (chunk) => {
      output += chunk;
      log.write(chunk);
    });
  }

  await waitForHealth(`${appUrl}/healthz`, () => output);
  project.provide("appUrl", appUrl);
  project.provide("appDatabaseFile", databaseFile);
  project.provide("standInUrl", standIn.url);
  project.provide("courierSandboxUrl", sandbox.url);
  project.provide("whatsApp", whatsApp);

  return async () => {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    // The server exits within 10 s of SIGTERM; a server that cannot is not left running.
    const kill = setTimeout(() => server.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(kill);
    await Promise.all([sandbox.close(), standIn.close(), whatsAppStandIn.close()]);
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, output: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The app server did not answer ${url} within 30 s. Its output:\n${output()}`);
}
