/**
 * Webhook intake under load: signed `fulfillments/create` webhooks against the built server on
 * loopback, each for a new fulfillment of its own order, 2% of them sent a second time (the same
 * webhook, as Shopify redelivers it, often while the first is still in flight), for BENCH_SECONDS
 * at a fixed number of connections. Then the rows are audited (bench/support/intake-audit.ts):
 * an acknowledged fulfillment without its Delivery row and first event is lost; an order recorded
 * more than once (a second row or a second first event) is duplicated, counted without relying on
 * the unique indexes. The same signed webhooks against POST /webhooks/bare, which the server
 * mounts only for this benchmark (BENCH_BARE_ROUTE=1) on the same fast path with an action that
 * only answers 200, are the machine's limit for this server; /healthz (Remix and one SELECT)
 * shows the framework's share.
 *
 *   npm run bench:webhooks [-- --connections 32 --seconds 10 --wal --explain --profile DIR]
 *
 * `--wal` switches the scratch database to WAL before the server starts (the app itself does so
 * when it connects since ADR 0007, so this only changes the seeding); `--explain` adds what each database operation of one webhook
 * costs, in process, next to raw SQL and group commit; `--profile DIR` writes the server's CPU
 * profile there.
 * Prints readable lines and ends with one JSON line.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@prisma/client";
import { API_KEY, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import autocannon from "autocannon";
import { ensureBuilt, startBuiltServer, type RunningServer } from "./support/app-server";
import { auditIntake } from "./support/intake-audit";
import { measureIntakeCosts, type IntakeCost } from "./support/intake-costs";
import {
  BENCH_LOCATION_ID,
  WEBHOOK_PATH,
  webhookSource,
  type SignedWebhook,
} from "./support/fulfillment-webhooks";
import {
  freePort,
  journalMode,
  migrateDatabase,
  perSecond,
  round,
  scratchDir,
  switchToWal,
} from "./support/scratch";

const { values: args } = parseArgs({
  options: {
    connections: { type: "string" },
    seconds: { type: "string" },
    wal: { type: "boolean" },
    explain: { type: "boolean" },
    profile: { type: "string" },
  },
});
const CONNECTIONS = Number(args.connections ?? process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(args.seconds ?? process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const REDELIVERY_SHARE = 0.02;
const BARE_PATH = "/webhooks/bare";
const SHOP = "bench-shop.myshopify.com";
const TARGET = { rate: 1_000, p99Ms: 100 };

async function seed(prisma: PrismaClient) {
  // An installed shop, as token exchange and the settings page leave it.
  await prisma.session.create({
    data: {
      id: `offline_${SHOP}`,
      shop: SHOP,
      state: "",
      isOnline: false,
      scope: "read_orders,write_orders,read_fulfillments,read_locations",
      accessToken: "bench-offline-token",
      expires: new Date(Date.now() + 24 * 3600 * 1000),
    },
  });
  await prisma.shopSettings.create({
    data: {
      shop: SHOP,
      autoSend: true,
      // Intake only asks whether a key is stored; the worker is off and never opens it.
      courierApiKeySealed: "bench:not-a-real-sealed-key",
      courierApiKeyHint: "••••bench",
      paymentCodeCod: "COD",
      paymentCodePrepaid: "PREPAID",
    },
  });
  await prisma.pickupLocation.create({
    data: {
      shop: SHOP,
      locationId: `gid://shopify/Location/${BENCH_LOCATION_ID}`,
      name: "Salmiya store",
      governanceId: 1,
      areaId: 1,
      block: "10",
      street: "Salem Al Mubarak",
      contactName: "Salmiya store",
      contactPhone: "22223333",
      confirmedAt: new Date(),
    },
  });
}

interface LoadFigures {
  seconds: number;
  requests: number;
  ok: number;
  rate: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  serverCpu: number | null;
}

async function load(
  server: RunningServer,
  seconds: number,
  request: autocannon.Request,
): Promise<LoadFigures> {
  const cpuBefore = server.cpuSeconds();
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    requests: [request],
  });
  const cpuAfter = server.cpuSeconds();
  const ok = result["2xx"];
  return {
    seconds: result.duration,
    requests: ok + result.non2xx,
    ok,
    rate: ok / result.duration,
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    serverCpu:
      cpuBefore === null || cpuAfter === null
        ? null
        : round((cpuAfter - cpuBefore) / result.duration, 2),
  };
}

function describe(name: string, f: LoadFigures) {
  const cpu =
    f.serverCpu === null ? "" : `, server CPU ${Math.round(f.serverCpu * 100)}% of a core`;
  console.log(
    `  ${name.padEnd(26)} ${perSecond(f.rate).padStart(9)}  p50 ${f.p50Ms} ms  p99 ${f.p99Ms} ms  max ${f.maxMs} ms  non-2xx ${f.non2xx}  errors ${f.errors}${cpu}`,
  );
}

const scratch = scratchDir("bench-webhooks");
let server: RunningServer | undefined;
try {
  console.log(
    `Webhook intake on the built server: ${CONNECTIONS} connections, ${SECONDS} s per run, Node ${process.version}`,
  );
  const startedBuild = performance.now();
  const build = ensureBuilt(scratch.dir);
  const buildMs = Math.round(performance.now() - startedBuild);
  console.log(
    build.state === "stale"
      ? `  build FAILED, measuring the previous build (${buildMs} ms): ${build.reason}`
      : `  build ${build.state} (${buildMs} ms); database in ${scratch.dir}`,
  );

  const databaseFile = path.join(scratch.dir, "bench.sqlite");
  const databaseUrl = migrateDatabase(databaseFile);
  if (args.wal) switchToWal(databaseFile);
  const prisma = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: databaseFile }) });
  await seed(prisma);

  const port = await freePort();
  server = await startBuiltServer({
    port,
    logFile: path.join(scratch.dir, "server.log"),
    nodeArgs: args.profile ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(args.profile)}`] : [],
    env: {
      NODE_ENV: "production",
      SHOPIFY_API_KEY: API_KEY,
      SHOPIFY_API_SECRET: API_SECRET_KEY,
      SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
      SCOPES: "read_orders,write_orders,read_fulfillments,read_locations",
      ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 9).toString("base64")}`,
      DATABASE_URL: databaseUrl,
      // Only the acknowledgement is measured: no worker, and no courier anyone could reach.
      DELIVERY_WORKER: "off",
      COURIER_SANDBOX_URL: `http://127.0.0.1:${await freePort()}`,
      BENCH_BARE_ROUTE: "1",
    },
  });
  // As the app's connection left it (it switches to WAL when it connects, ADR 0007).
  const journal = journalMode(databaseFile);
  console.log(`  server ${server.url} (pid ${server.pid}); SQLite journal mode ${journal}`);

  const source = webhookSource({
    shop: SHOP,
    secret: API_SECRET_KEY,
    duplicateShare: REDELIVERY_SHARE,
    firstFulfillment: 5_000_000,
  });
  const acknowledged = new Set<string>();
  const statuses = new Map<number, number>();
  let redeliveriesSent = 0;

  // One webhook in the open first: it must be recorded as pending, or the load measures a skip.
  const probe = source.next();
  const probeReply = await fetch(`${server.url}${WEBHOOK_PATH}`, {
    method: "POST",
    headers: probe.headers,
    body: probe.body,
  });
  if (probeReply.status !== 200) throw new Error(`probe webhook answered ${probeReply.status}`);
  acknowledged.add(probe.fulfillmentId);
  const probeRow = await prisma.delivery.findFirst({
    where: { shop: SHOP, fulfillmentId: probe.fulfillmentId },
  });
  if (probeRow?.state !== "pending") {
    throw new Error(
      `the probe webhook was recorded as ${probeRow?.state ?? "nothing"}: ${probeRow?.stateReason ?? ""}`,
    );
  }

  // The bare route must be this server's fast path, not Remix answering a path it does not know.
  const bareProbe = await fetch(`${server.url}${BARE_PATH}`, {
    method: "POST",
    headers: probe.headers,
    body: probe.body,
  });
  if (bareProbe.status !== 200) throw new Error(`${BARE_PATH} answered ${bareProbe.status}`);

  // With one request in flight per connection, the context carries a request to its response.
  const webhookRequest: autocannon.Request = {
    method: "POST",
    path: WEBHOOK_PATH,
    setupRequest: (request, context) => {
      const webhook = source.next();
      if (webhook.redelivery) redeliveriesSent += 1;
      (context as { webhook?: SignedWebhook }).webhook = webhook;
      return { ...request, headers: webhook.headers, body: webhook.body };
    },
    onResponse: (status, _body, context) => {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const webhook = (context as { webhook?: SignedWebhook }).webhook;
      if (status === 200 && webhook) acknowledged.add(webhook.fulfillmentId);
    },
  };

  console.log(`  warming up ${WARMUP_SECONDS} s`);
  await load(server, WARMUP_SECONDS, webhookRequest);
  const rowsBefore = await prisma.delivery.count({ where: { shop: SHOP } });
  const redeliveriesBefore = redeliveriesSent;
  const webhooks = await load(server, SECONDS, webhookRequest);
  const rowsAfter = await prisma.delivery.count({ where: { shop: SHOP } });
  const rowsPerSecond = (rowsAfter - rowsBefore) / webhooks.seconds;

  // The same requests (signed webhooks of the same size, new each time) to the bare route.
  const bareSource = webhookSource({
    shop: SHOP,
    secret: API_SECRET_KEY,
    duplicateShare: 0,
    firstFulfillment: 90_000_000,
  });
  const bareRequest: autocannon.Request = {
    method: "POST",
    path: BARE_PATH,
    setupRequest: (request) => {
      const webhook = bareSource.next();
      return { ...request, headers: webhook.headers, body: webhook.body };
    },
  };
  await load(server, 1, bareRequest);
  const bare = await load(server, SECONDS, bareRequest);
  const healthz = await load(server, Math.max(2, SECONDS / 2), { method: "GET", path: "/healthz" });

  const audit = await auditIntake(prisma, SHOP, acknowledged);
  const { lost, duplicated } = audit;
  const states = await prisma.delivery.groupBy({
    by: ["state"],
    where: { shop: SHOP },
    _count: true,
  });
  await prisma.$disconnect();
  await server.stop();
  server = undefined;

  console.log("Results");
  describe("fulfillments/create", webhooks);
  console.log(
    `  ${"".padEnd(26)} ${perSecond(rowsPerSecond).padStart(9)}  deliveries recorded during the run (${rowsAfter - rowsBefore} rows)`,
  );
  describe(`bare: POST ${BARE_PATH}`, bare);
  describe("reference: GET /healthz", healthz);
  const ratio = webhooks.rate / bare.rate;
  console.log(
    `  webhooks/bare ${ratio.toFixed(3)} (the bare route is ${(bare.rate / webhooks.rate).toFixed(1)}x faster); webhooks/healthz ${(webhooks.rate / healthz.rate).toFixed(3)}`,
  );
  console.log(
    `  acknowledged fulfillments ${acknowledged.size}, stored rows ${audit.deliveries} with ${audit.firstEvents} first events, ${audit.unacknowledged} of them answered after the load stopped (${states.map((s) => `${s.state} ${s._count}`).join(", ")}); redeliveries sent ${redeliveriesSent} (${redeliveriesSent - redeliveriesBefore} in the measured run)`,
  );
  console.log(
    `  statuses ${[...statuses].map(([status, n]) => `${status}×${n}`).join(", ")}; lost ${lost}, duplicated ${duplicated}`,
  );
  const met = {
    rate: webhooks.rate >= TARGET.rate,
    p99: webhooks.p99Ms < TARGET.p99Ms,
    lost: lost === 0,
    duplicated: duplicated === 0,
    non2xx: webhooks.non2xx === 0,
  };
  console.log(
    `  target (>= ${TARGET.rate}/s, p99 < ${TARGET.p99Ms} ms, none lost or doubled): ${
      Object.values(met).every(Boolean)
        ? "met"
        : `missed (${Object.entries(met)
            .filter(([, ok]) => !ok)
            .map(([name]) => name)
            .join(", ")})`
    }`,
  );

  let costs: IntakeCost[] | undefined;
  if (args.explain) {
    costs = await measureIntakeCosts({ wal: Boolean(args.wal) });
    console.log(`Per webhook on the server's thread, in process (journal ${journal}):`);
    for (const cost of costs) {
      console.log(
        `  ${cost.name.padEnd(72)} ${String(cost.wallUs).padStart(6)} µs wall ${String(cost.cpuUs).padStart(6)} µs CPU`,
      );
    }
  }

  console.log(
    JSON.stringify({
      rate: Math.round(webhooks.rate),
      p50Ms: webhooks.p50Ms,
      p99Ms: webhooks.p99Ms,
      lost,
      duplicated,
      bareRate: Math.round(bare.rate),
      bareP50Ms: bare.p50Ms,
      bareP99Ms: bare.p99Ms,
      ratio: round(ratio, 4),
      non2xx: webhooks.non2xx,
      errors: webhooks.errors + webhooks.timeouts,
      p90Ms: webhooks.p90Ms,
      maxMs: webhooks.maxMs,
      rowsPerSecond: Math.round(rowsPerSecond),
      serverCpu: webhooks.serverCpu,
      bareServerCpu: bare.serverCpu,
      bareNon2xx: bare.non2xx,
      healthzRate: Math.round(healthz.rate),
      healthzP99Ms: healthz.p99Ms,
      acknowledged: acknowledged.size,
      answeredAfterStop: audit.unacknowledged,
      redeliveries: redeliveriesSent,
      connections: CONNECTIONS,
      seconds: SECONDS,
      journalMode: journal,
      build: build.state,
      targetMet: Object.values(met).every(Boolean),
      ...(costs ? { costs } : {}),
      node: process.version,
    }),
  );
} catch (error) {
  if (server) console.error(`Server log tail:\n${server.log().split("\n").slice(-30).join("\n")}`);
  throw error;
} finally {
  await server?.stop();
  scratch.remove();
}
