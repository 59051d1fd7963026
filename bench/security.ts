/**
 * The attacks of issue 12 against the built server, as `npm start` runs it (NODE_ENV unset), on
 * loopback, with the Shopify stand-in for token exchange:
 *
 * - body flood: four concurrent chunked posts of FLOOD_MB to each Shopify webhook route with a
 *   made-up signature; the server's resident memory is sampled every 25 ms;
 * - tokens at rest: an offline session written by an earlier version (plaintext) and one the app
 *   gets by token exchange; the database file and its log are searched for Shopify tokens, then
 *   again after shop/redact;
 * - erased personal data: a customer's name and phone searched in the same bytes after
 *   customers/redact and shop/redact;
 * - frame protection of the public, error and embedded pages (including `?shop=` naming another
 *   shop than the session token), stack traces on error pages, and how many tracking links one
 *   client may try before it is stopped.
 *
 *   npm run bench:security [-- --against main] [--flood-mb 400] [--before-flood-mb 400]
 *
 * `--against REF` builds that commit in a scratch copy (this tree's node_modules, and the
 * Remix Express adapter it used) and runs the same attacks on it first, as the "before".
 * Prints readable lines and ends with one JSON line.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { API_KEY, API_SECRET_KEY, getHmac, getJwt } from "@shopify/shopify-api/test-helpers";
import Database from "better-sqlite3";
import { startShopifyStandIn, type ShopifyStandIn } from "../sandbox/shopify";
import { buildBefore } from "./support/before-tree";
import { ensureBuilt, startBuiltServer, type RunningServer } from "./support/app-server";
import {
  chunkedFlood,
  forgedWebhookHeaders,
  hasFrameProtection,
  probe,
  SHOPIFY_WEBHOOK_ROUTES,
  showsStackTrace,
} from "./support/attacks";
import { freePort, migrateDatabase, ROOT, round, scratchDir, sleep } from "./support/scratch";
import { ADMIN_API_VERSION } from "../app/shopify/api-version";

const { values: args } = parseArgs({
  options: {
    against: { type: "string" },
    "flood-mb": { type: "string" },
    "before-flood-mb": { type: "string" },
  },
});
const FLOOD_MB = Number(args["flood-mb"] ?? 400);
const BEFORE_FLOOD_MB = Number(args["before-flood-mb"] ?? FLOOD_MB);
const CONCURRENT_PER_ROUTE = 4;
const TRACKING_PROBES = 200;
const SHOP = "bench-security.myshopify.com";
const UPGRADED_SHOP = "bench-upgraded.myshopify.com";
const CUSTOMER = { name: "Bench Customer Qx9Erase", phone: "+96590001234", order: 880011 };
const SCOPES = "read_orders,write_orders,read_fulfillments,read_locations";
const TARGET = { rssGrowthMb: 100 };
const TOKEN_PATTERN = /shp(?:at|rt|ua|ca)_[0-9a-f]{16,}/g;

interface Figures {
  maxRssGrowthMbUnderBodyFlood: number;
  floodRequestsReadWhole: number;
  plaintextTokensInDbFile: number;
  plaintextTokensAfterNormalRun: number;
  plaintextTokensAfterShopRedact: number;
  erasedPiiInDbFile: number;
  pagesWithoutFrameProtection: number;
  stackTracesShown: number;
  trackingGuessesBeforeLimit: number;
  stackTracesInLog: number;
}

/** A tree to attack: its root (with build/ and server.js). */
interface Target {
  name: string;
  root: string;
  floodMb: number;
}

function rssMb(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

function dbBytes(file: string): Buffer {
  return Buffer.concat(
    [file, `${file}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)),
  );
}

const count = (bytes: Buffer, text: string) => {
  let n = 0;
  for (let at = bytes.indexOf(text); at !== -1; at = bytes.indexOf(text, at + 1)) n++;
  return n;
};

const plaintextTokens = (file: string) =>
  (dbBytes(file).toString("latin1").match(TOKEN_PATTERN) ?? []).length;

/** Rows an earlier version left: a plaintext session, and a delivery with the customer's data. */
function seed(file: string) {
  const db = new Database(file);
  try {
    db.prepare(
      `INSERT INTO "Session" ("id", "shop", "state", "isOnline", "scope", "accessToken", "refreshToken")
       VALUES (?, ?, '', 0, ?, ?, ?)`,
    ).run(
      `offline_${UPGRADED_SHOP}`,
      UPGRADED_SHOP,
      SCOPES,
      `shpat_${"1a".repeat(16)}`,
      `shprt_${"2b".repeat(16)}`,
    );
    db.prepare(
      `INSERT INTO "Delivery" ("id", "shop", "orderId", "orderName", "fulfillmentId", "source", "state",
         "environment", "reference", "request", "stateReason", "trackingUrl", "updatedAt")
       VALUES ('bench-delivery', ?, ?, '#880011', 'gid://shopify/Fulfillment/880011', 'webhook', 'created',
         'sandbox', 'SHPFY-bench-880011', ?, ?, NULL, 0)`,
    ).run(
      SHOP,
      `gid://shopify/Order/${CUSTOMER.order}`,
      JSON.stringify({
        deliveryAddress: { contactName: CUSTOMER.name, contactPhone: CUSTOMER.phone },
      }),
      `Call ${CUSTOMER.name} on ${CUSTOMER.phone}`,
    );
  } finally {
    db.close();
  }
}

async function signedWebhook(url: string, topic: string, payload: object) {
  const body = JSON.stringify(payload);
  return probe(`${url}/webhooks/${topic}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Topic": topic,
      "X-Shopify-Shop-Domain": SHOP,
      "X-Shopify-API-Version": ADMIN_API_VERSION,
      "X-Shopify-Webhook-Id": `bench-${topic}-${Date.now()}`,
      "X-Shopify-Hmac-Sha256": getHmac(body, API_SECRET_KEY),
    },
    body,
  });
}

async function bodyFlood(server: RunningServer, floodMb: number) {
  await sleep(500);
  const baseline = rssMb(server.pid) ?? 0;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(server.pid) ?? 0);
  }, 25);
  const started = performance.now();
  const floods = await Promise.all(
    SHOPIFY_WEBHOOK_ROUTES.flatMap((topic) =>
      Array.from({ length: CONCURRENT_PER_ROUTE }, () =>
        chunkedFlood(`${server.url}/webhooks/${topic}`, {
          totalBytes: floodMb * 1024 * 1024,
          headers: forgedWebhookHeaders(topic, SHOP),
        }),
      ),
    ),
  );
  await sleep(300);
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(server.pid) ?? 0);
  const statuses = new Map<string, number>();
  for (const f of floods) {
    const key = String(f.status ?? "closed");
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  }
  return {
    baselineMb: round(baseline, 1),
    peakMb: round(peak, 1),
    growthMb: round(peak - baseline, 1),
    readWhole: floods.filter((f) => f.completed).length,
    seconds: round((performance.now() - started) / 1000, 1),
    statuses: Object.fromEntries(statuses),
    sentMb: round(floods.reduce((n, f) => n + f.bytesSent, 0) / 1024 / 1024, 0),
  };
}

async function embeddedPage(url: string, claimedShop: string) {
  const { token } = await getJwt(SHOP.replace(".myshopify.com", ""), API_KEY, API_SECRET_KEY);
  const page = new URL("/app", url);
  page.searchParams.set("embedded", "1");
  page.searchParams.set("shop", claimedShop);
  page.searchParams.set(
    "host",
    Buffer.from(`admin.shopify.com/store/${claimedShop}`).toString("base64"),
  );
  page.searchParams.set("id_token", token);
  return probe(page.href);
}

async function framePages(url: string) {
  const attacker = "attacker-shop.myshopify.com";
  const host = Buffer.from("admin.shopify.com/store/attacker-shop").toString("base64");
  const pages: [string, () => Promise<{ headers: Headers; status: number }>][] = [
    ["/auth/login", () => probe(`${url}/auth/login`)],
    ["/tracking/<unknown>", () => probe(`${url}/tracking/not-a-parcel`)],
    ["/<no such page>", () => probe(`${url}/no-such-page`)],
    ["/healthz", () => probe(`${url}/healthz`)],
    [
      "/auth/exit-iframe",
      () => probe(`${url}/auth/exit-iframe?exitIframe=https%3A%2F%2Fevil.example`),
    ],
    [
      "bounce page, ?shop=another shop",
      () => probe(`${url}/auth/session-token?shop=${attacker}&host=${host}&shopify-reload=%2Fapp`),
    ],
    ["embedded page, ?shop=another shop", () => embeddedPage(url, attacker)],
  ];
  const unprotected: string[] = [];
  for (const [name, load] of pages) {
    const reply = await load();
    const csp = reply.headers.get("content-security-policy") ?? "";
    if (!hasFrameProtection(reply.headers) || csp.includes(attacker)) unprotected.push(name);
  }
  return { pages: pages.length, unprotected };
}

async function errorPages(url: string) {
  const pages: [string, RequestInit][] = [
    ["/%E0%A4%A", {}],
    ["/no-such-page", {}],
    ["/tracking/not-a-parcel", {}],
    ["/auth/exit-iframe", {}],
    [
      "/webhooks/fulfillments/create",
      {
        method: "POST",
        body: Buffer.alloc(8 * 1024 * 1024),
        headers: { "Content-Type": "text/plain" },
      },
    ],
  ];
  const shown: string[] = [];
  for (const [page, init] of pages) {
    const reply = await probe(`${url}${page}`, init).catch(() => null);
    if (reply && showsStackTrace(reply.body)) shown.push(page.split("?")[0]!);
  }
  return { pages: pages.length, shown };
}

async function trackingGuesses(url: string) {
  for (let i = 0; i < TRACKING_PROBES; i++) {
    if ((await probe(`${url}/tracking/guess${i}`)).status === 429) return i;
  }
  return TRACKING_PROBES;
}

async function attack(target: Target, scratch: string, standIn: ShopifyStandIn): Promise<Figures> {
  console.log(`\n${target.name} (${target.root})`);
  const databaseFile = path.join(scratch, `${target.name}.sqlite`);
  const databaseUrl = migrateDatabase(databaseFile);
  seed(databaseFile);
  const port = await freePort();
  const server = await startBuiltServer({
    root: target.root,
    port,
    logFile: path.join(scratch, `${target.name}.log`),
    nodeArgs: ["--import", "tsx", "--import", path.join(ROOT, "sandbox", "shopify", "preload.ts")],
    env: {
      NODE_ENV: undefined,
      SHOPIFY_API_KEY: API_KEY,
      SHOPIFY_API_SECRET: API_SECRET_KEY,
      SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
      SCOPES,
      ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 9).toString("base64")}`,
      DATABASE_URL: databaseUrl,
      DELIVERY_WORKER: "off",
      COURIER_SANDBOX_URL: `http://127.0.0.1:${await freePort()}`,
      SHOPIFY_STANDIN_URL: standIn.url,
    },
  });
  try {
    // A normal run: the merchant opens the app (token exchange), the boot sealed what was there.
    const opened = await embeddedPage(server.url, SHOP);
    await sleep(500);
    const afterNormalRun = plaintextTokens(databaseFile);
    console.log(
      `  tokens      app opened (${opened.status}): ${afterNormalRun} plaintext Shopify tokens in the database file and log`,
    );

    const redacted = await signedWebhook(server.url, "customers/redact", {
      shop_id: 1,
      shop_domain: SHOP,
      customer: { id: 1 },
      orders_to_redact: [CUSTOMER.order],
    });
    const piiAfterCustomerRedact =
      count(dbBytes(databaseFile), CUSTOMER.name) + count(dbBytes(databaseFile), CUSTOMER.phone);
    const shopRedact = await signedWebhook(server.url, "shop/redact", {
      shop_id: 1,
      shop_domain: SHOP,
    });
    await sleep(200);
    const bytes = dbBytes(databaseFile);
    const pii = count(bytes, CUSTOMER.name) + count(bytes, CUSTOMER.phone);
    const afterShopRedact = plaintextTokens(databaseFile);
    console.log(
      `  erasure     customers/redact (${redacted.status}): ${piiAfterCustomerRedact} copies of the customer's name and phone; shop/redact (${shopRedact.status}): ${pii}; plaintext tokens ${afterShopRedact}`,
    );

    const frames = await framePages(server.url);
    console.log(
      `  framing     ${frames.pages - frames.unprotected.length}/${frames.pages} pages protected${frames.unprotected.length ? `; not: ${frames.unprotected.join(", ")}` : ""}`,
    );
    const errors = await errorPages(server.url);
    console.log(
      `  errors      ${errors.shown.length}/${errors.pages} error pages show a stack trace or server path${errors.shown.length ? `: ${errors.shown.join(", ")}` : ""}`,
    );
    const guesses = await trackingGuesses(server.url);
    console.log(
      `  tracking    ${guesses === TRACKING_PROBES ? `${guesses}+ guesses, never stopped` : `stopped after ${guesses} guesses`}`,
    );
    const stackTracesInLog = (server.log().match(/\n\s+at .+:\d+:\d+/g) ?? []).length;

    const flood = await bodyFlood(server, target.floodMb);
    console.log(
      `  body flood  ${SHOPIFY_WEBHOOK_ROUTES.length} routes × ${CONCURRENT_PER_ROUTE} × ${target.floodMb} MB chunked, made-up signature: RSS ${flood.baselineMb} → ${flood.peakMb} MB (+${flood.growthMb} MB), ${flood.readWhole} read whole, ${flood.sentMb} MB sent in ${flood.seconds} s, answers ${JSON.stringify(flood.statuses)}`,
    );
    return {
      maxRssGrowthMbUnderBodyFlood: flood.growthMb,
      floodRequestsReadWhole: flood.readWhole,
      plaintextTokensInDbFile: Math.max(afterNormalRun, afterShopRedact),
      plaintextTokensAfterNormalRun: afterNormalRun,
      plaintextTokensAfterShopRedact: afterShopRedact,
      erasedPiiInDbFile: pii,
      pagesWithoutFrameProtection: frames.unprotected.length,
      stackTracesShown: errors.shown.length,
      trackingGuessesBeforeLimit: guesses,
      stackTracesInLog,
    };
  } finally {
    await server.stop();
  }
}

const scratch = scratchDir("bench-security");
const load = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(
  `Security attacks on the built server (NODE_ENV unset), Node ${process.version}, ${os.cpus().length} CPUs, load ${load()}`,
);
const build = ensureBuilt(scratch.dir);
console.log(`  build ${build.state}${build.state === "stale" ? `: ${build.reason}` : ""}`);
const standIn = await startShopifyStandIn({
  shop: SHOP,
  apiKey: API_KEY,
  apiSecret: API_SECRET_KEY,
  scopes: SCOPES,
  appUrl: "http://127.0.0.1",
});
let before: Figures | null = null;
let after: Figures;
try {
  if (args.against) {
    const root = buildBefore(args.against, scratch.dir);
    before = await attack(
      { name: `before (${args.against})`, root, floodMb: BEFORE_FLOOD_MB },
      scratch.dir,
      standIn,
    );
  }
  after = await attack({ name: "this tree", root: ROOT, floodMb: FLOOD_MB }, scratch.dir, standIn);
} finally {
  await standIn.close();
}

const targetsMet =
  after.maxRssGrowthMbUnderBodyFlood <= TARGET.rssGrowthMb &&
  after.plaintextTokensInDbFile === 0 &&
  after.erasedPiiInDbFile === 0 &&
  after.pagesWithoutFrameProtection === 0 &&
  after.stackTracesShown === 0 &&
  after.trackingGuessesBeforeLimit < TRACKING_PROBES;
console.log(
  `\n${targetsMet ? "All targets met" : "TARGETS MISSED"}: RSS growth ≤ ${TARGET.rssGrowthMb} MB under the flood, no plaintext token, no erased data, every page protected, no stack shown, tracking guesses limited. Load ${load()}.`,
);
console.log(
  JSON.stringify({
    ...after,
    floodMbPerRequest: FLOOD_MB,
    before: before && { ...before, ref: args.against, floodMbPerRequest: BEFORE_FLOOD_MB },
    loadAverage: load(),
    targetsMet,
  }),
);
process.exit(targetsMet ? 0 : 1);
