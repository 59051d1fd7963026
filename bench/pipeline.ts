/**
 * The delivery pipeline end to end, in process: fulfillments recorded by the webhook's intake, then
 * the worker (`runDueDeliveries`, the production dependencies) taking each through the Admin API
 * stand-in (order lookup, tracking update) and the courier sandbox (create) until every one is
 * created with its tracking on Shopify. Measured with the sandbox answering at once and after
 * 200 ms, at several leases per pass; the reference is the courier client alone creating as many
 * orders against the same sandbox with the same number in flight.
 *
 *   npm run bench:pipeline [-- --deliveries 300 --quick --wal]
 *
 * `--quick` tries fewer leases per pass; `--wal` switches the scratch database to WAL before the app
 * opens it (the app itself switches to WAL when it connects since ADR 0007).
 * Prints readable lines and ends with one JSON line.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { startCourierSandbox, type CourierSandbox } from "../sandbox/courier";
// Types only: erased, so nothing of the app is loaded before its environment is set below.
import type { CreateOrderBody } from "../app/courier";
import type { FakeOrder } from "../test/support/pipeline";
import { productionBenchEnvironment, SANDBOX_KEY } from "../test/support/test-env";
import {
  journalMode,
  migrateDatabase,
  perSecond,
  round,
  scratchDir,
  switchToWal,
} from "./support/scratch";

const { values: args } = parseArgs({
  options: {
    deliveries: { type: "string" },
    quick: { type: "boolean" },
    wal: { type: "boolean" },
  },
});
const DELIVERIES = Number(args.deliveries ?? process.env.BENCH_DELIVERIES ?? 300);
/** Every run must finish within this, or it is reported as unfinished. */
const RUN_DEADLINE_MS = 60_000;

const scratch = scratchDir("bench-pipeline");
const databaseFile = path.join(scratch.dir, "bench.sqlite");
const databaseUrl = migrateDatabase(databaseFile);
if (args.wal) switchToWal(databaseFile);
// The app reads its environment on first use: set before any app module is imported.
Object.assign(process.env, productionBenchEnvironment({ DATABASE_URL: databaseUrl }));

const { default: prisma } = await import("../app/db.server");
const { resetEnvForTests } = await import("../app/env.server");
const { createCourierClient } = await import("../app/courier");
const { fulfillmentWebhook, receiveFulfillment } = await import("../app/pipeline/intake.server");
const { LEASES_PER_PASS, productionDependencies } = await import("../app/pipeline/runner.server");
/**
 * Latency of every sandbox reply → leases per pass tried at that latency: the runner's own
 * (LEASES_PER_PASS), 10 (its value before ADR 0007, for comparison) and more.
 */
const PLAN: { latencyMs: number; limits: number[] }[] = [
  { latencyMs: 0, limits: [...new Set([10, LEASES_PER_PASS, 50])] },
  {
    latencyMs: 200,
    limits: args.quick ? [10, LEASES_PER_PASS] : [...new Set([10, LEASES_PER_PASS, 50, 100])],
  },
];
const { runDueDeliveries } = await import("../app/pipeline/worker.server");
const { BULK_BATCH } = await import("../app/domain/lease-policy");
const { adminApi } = await import("../test/support/admin-api");
const { fulfillmentPayload, programShopify, readyShop } = await import("../test/support/pipeline");

adminApi.install();
// As the app's connection leaves it (it switches to WAL when it connects, ADR 0007).
await prisma.$connect();
const journal = journalMode(databaseFile);

/** Kuwaiti addresses the matcher places confidently, so every delivery goes to the courier. */
const ADDRESSES: Omit<FakeOrder, "fulfillmentNumber" | "orderNumber">[] = [
  { city: "Salmiya", address1: "Block 10, Street 5, House 12", provinceCode: "KW-HA" },
  {
    city: "Salmiya",
    address1: "Block 4, Street 20, House 7",
    provinceCode: "KW-HA",
    outstanding: "24.500",
  },
  { city: "Rumaithiya", address1: "Block 6, Street 12, House 30", provinceCode: "KW-HA" },
  { city: "Jabriya", address1: "Block 1A, Street 3, House 22", provinceCode: "KW-HA" },
];

interface Run {
  latencyMs: number;
  limit: number;
  deliveries: number;
  created: number;
  tracked: number;
  seconds: number;
  /** From the first pass to the first delivery created with tracking on Shopify. */
  firstDoneSeconds: number;
  rate: number;
  passes: number;
  /** Orders at the courier carrying the run's references, per delivery: 1.00 when none twice. */
  createsPerDelivery: number;
  /** createOrder and create-bulk requests the sandbox received, per delivery. */
  createCallsPerDelivery: number;
  /** Deliveries of the run found at the courier, and those found there more than once. */
  courierOrders: number;
  twins: number;
  unknownOutcomes: number;
  adminCallsPerDelivery: number;
  cpu: number;
  /** The courier client alone: orders/s one per call, and in create-bulk calls as the worker. */
  clientAloneOneByOne: number;
  clientAloneBulk: number;
  /** deliveries/s over the client alone in create-bulk calls. */
  ratio: number;
  /** Why creates had an unknown outcome, when some did. */
  notes: string[];
}

let nextFulfillment = 9_000_000;
let intakeRate = 0;
const cpuSince = (start: NodeJS.CpuUsage, seconds: number) => {
  const used = process.cpuUsage(start);
  return round((used.user + used.system) / 1e6 / seconds, 2);
};

/** Records `count` fulfillments for `shop` through the webhook's intake; returns them. */
async function intake(shop: string, count: number) {
  const orders: FakeOrder[] = Array.from({ length: count }, (_, i) => {
    const n = nextFulfillment++;
    return {
      ...ADDRESSES[i % ADDRESSES.length]!,
      fulfillmentNumber: n,
      orderNumber: n - 8_000_000,
    };
  });
  const started = performance.now();
  for (const [i, order] of orders.entries()) {
    const outcome = await receiveFulfillment(
      shop,
      fulfillmentWebhook.parse(fulfillmentPayload(order)),
    );
    if (outcome.state !== "pending") throw new Error(`intake ${outcome.state}: ${outcome.reason}`);
    // SQLite calls are synchronous: without a turn of the event loop now and then, timers (the
    // HTTP keep-alive ones among them) would all fire at once after the loop, as webhook requests
    // arriving one by one would not make them.
    if (i % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
  }
  return { orders, seconds: (performance.now() - started) / 1000 };
}

/**
 * The courier client alone against the same sandbox: `count` orders with `inFlight` calls at a
 * time, one order per call, or `perCall` orders per create-bulk call as the worker batches them.
 */
async function clientAlone(
  sandbox: CourierSandbox,
  body: CreateOrderBody,
  count: number,
  inFlight: number,
  perCall = 1,
) {
  const client = createCourierClient({
    baseUrl: sandbox.url,
    apiKey: SANDBOX_KEY,
    timeoutMs: 15_000,
  });
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (issued < count) {
        const n = Math.min(perCall, count - issued);
        issued += n;
        if (perCall === 1) await client.createOrder(body);
        else await client.createBulk(Array.from({ length: n }, () => body));
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

async function measure(sandbox: CourierSandbox, shop: string, latencyMs: number, limit: number) {
  const { orders, seconds: intakeSeconds } = await intake(shop, DELIVERIES);
  intakeRate ||= DELIVERIES / intakeSeconds;
  const { trackingUpdates } = programShopify(orders);
  const ids = orders.map((o) => `gid://shopify/Fulfillment/${o.fulfillmentNumber}`);
  const createCalls = () =>
    sandbox.requestLog.filter((r) => r.endpoint === "createOrder" || r.endpoint === "createBulk")
      .length;
  const callsBefore = createCalls();
  const adminBefore = adminApi.calls.length;
  const deps = { ...productionDependencies(), owner: `bench-${latencyMs}-${limit}` };

  // As the runner does: passes back to back while they find work, each leasing up to `limit`.
  const cpu = process.cpuUsage();
  const startedAt = Date.now();
  const started = performance.now();
  let passes = 0;
  while (performance.now() - started < RUN_DEADLINE_MS) {
    const handled = await runDueDeliveries(deps, limit);
    passes += 1;
    if (handled > 0) continue;
    // Nothing due now: finished, unless some wait for a retry (a backoff) — then look again soon.
    const unfinished = await prisma.delivery.count({
      where: {
        shop,
        fulfillmentId: { in: ids },
        OR: [
          { state: { in: ["pending", "ready", "creating", "unknown"] } },
          { state: "created", trackingPushedAt: null },
        ],
      },
    });
    if (unfinished === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuShare = cpuSince(cpu, seconds);

  const rows = await prisma.delivery.findMany({ where: { shop, fulfillmentId: { in: ids } } });
  const created = rows.filter((r) => r.state === "created").length;
  const tracked = rows.filter((r) => r.trackingPushedAt !== null).length;
  // How long the first of the burst waited: all are prepared before the first create goes out.
  const firstSeconds =
    Math.min(...rows.map((r) => r.trackingPushedAt?.getTime() ?? Infinity)) - startedAt;
  const calls = createCalls() - callsBefore;
  const adminCalls = adminApi.calls.length - adminBefore;
  // A create whose outcome is unknown (e.g. a reused keep-alive connection the sandbox had closed)
  // is reconciled through the courier's history before it is sent again: it costs time, not a twin.
  const unknownOutcomes = await prisma.deliveryEvent.count({
    where: { shop, kind: "unknown", delivery: { fulfillmentId: { in: ids } } },
  });
  const lastErrors = new Set(
    (
      await prisma.deliveryEvent.findMany({
        where: { shop, kind: "unknown", delivery: { fulfillmentId: { in: ids } } },
        select: { message: true },
        take: 20,
      })
    ).map((e) => e.message.replace(/\).*$/, ")")),
  );
  if (created !== rows.length) {
    const states = new Map<string, number>();
    for (const r of rows) states.set(r.state, (states.get(r.state) ?? 0) + 1);
    console.log(`    not all created: ${[...states].map(([s, n]) => `${s} ${n}`).join(", ")}`);
    const stuck = rows.find((r) => r.state !== "created");
    if (stuck)
      console.log(`    e.g. ${stuck.state}: ${stuck.stateReason ?? stuck.lastError ?? ""}`);
  }
  if (trackingUpdates.length < tracked) throw new Error("tracking pushed without a Shopify call");

  // Twins only exist if some reference was created twice at the courier.
  const references = new Set(rows.map((r) => r.reference));
  const perReference = new Map<string, number>();
  for (const order of sandbox.orders.values()) {
    const reference = /SHPFY-[\w-]+/.exec(JSON.stringify(order))?.[0];
    if (reference && references.has(reference))
      perReference.set(reference, (perReference.get(reference) ?? 0) + 1);
  }
  const twins = [...perReference.values()].filter((n) => n > 1).length;

  // The same request the worker sent, under a reference no delivery has.
  const built = rows.find((r) => r.request)?.request;
  const body = built
    ? ({ ...JSON.parse(built), notes: "bench: client alone" } as CreateOrderBody)
    : null;
  // A steady state is reached within a few rounds of `limit` orders; more would only take longer.
  const referenceCount = Math.min(DELIVERIES, Math.max(100, 4 * limit));
  const oneByOne = body ? await clientAlone(sandbox, body, referenceCount, limit) : 0;
  const perCall = Math.min(limit, BULK_BATCH);
  const inBulk = body
    ? await clientAlone(sandbox, body, referenceCount, Math.ceil(limit / perCall), perCall)
    : 0;
  const rate = tracked / seconds;
  return {
    notes: [...lastErrors],
    latencyMs,
    limit,
    deliveries: DELIVERIES,
    created,
    tracked,
    seconds: round(seconds, 2),
    firstDoneSeconds: round(firstSeconds / 1000, 2),
    rate: round(rate, 1),
    passes,
    createsPerDelivery: round(
      [...perReference.values()].reduce((sum, n) => sum + n, 0) / DELIVERIES,
      2,
    ),
    createCallsPerDelivery: round(calls / DELIVERIES, 2),
    courierOrders: perReference.size,
    twins,
    unknownOutcomes,
    adminCallsPerDelivery: round(adminCalls / DELIVERIES, 2),
    cpu: cpuShare,
    clientAloneOneByOne: round(oneByOne, 1),
    clientAloneBulk: round(inBulk, 1),
    ratio: inBulk > 0 ? round(rate / inBulk, 3) : 0,
  } satisfies Run;
}

const sandboxes: CourierSandbox[] = [];
const runs: Run[] = [];
try {
  console.log(
    `Delivery pipeline in process: ${DELIVERIES} deliveries per run, courier sandbox and Admin API stand-in on loopback, SQLite journal ${journal}, Node ${process.version}`,
  );
  const header = [
    "latency".padEnd(7),
    "leases/pass",
    "deliveries/s",
    "first done",
    "creates/delivery",
    "calls/delivery",
    "unknown",
    "passes",
    "CPU ",
    "alone: bulk",
    "one by one",
    "ratio",
  ];
  console.log(`  ${header.join("  ")}`);
  for (const { latencyMs, limits } of PLAN) {
    const sandbox = await startCourierSandbox({ acceptedKeys: [SANDBOX_KEY], latencyMs });
    sandboxes.push(sandbox);
    // The app's "sandbox" courier environment points at this one from now on.
    process.env.COURIER_SANDBOX_URL = sandbox.url;
    resetEnvForTests();
    const shop = `bench-${latencyMs}ms.myshopify.com`;
    await readyShop(shop);
    for (const limit of limits) {
      const run = await measure(sandbox, shop, latencyMs, limit);
      runs.push(run);
      const cells = [
        `${latencyMs} ms`,
        String(limit),
        perSecond(run.rate),
        `${run.firstDoneSeconds.toFixed(1)} s`,
        run.createsPerDelivery.toFixed(2),
        run.createCallsPerDelivery.toFixed(2),
        String(run.unknownOutcomes),
        String(run.passes),
        `${Math.round(run.cpu * 100)}%`,
        perSecond(run.clientAloneBulk),
        perSecond(run.clientAloneOneByOne),
        run.ratio.toFixed(3),
      ];
      console.log(
        `  ${cells.map((cell, i) => (i === 0 ? cell.padEnd(7) : cell.padStart(header[i]!.length))).join("  ")}`,
      );
      for (const note of run.notes) console.log(`      unknown outcome: ${note}`);
    }
  }
  console.log(`  intake alone (receiveFulfillment, one at a time): ${perSecond(intakeRate)}`);
  for (const legend of [
    "first done: from the first pass to the first delivery created with its tracking on Shopify",
    "creates/delivery: orders at the courier per delivery (1.00: none twice); calls/delivery: createOrder and create-bulk requests",
    "unknown: creates whose outcome was unknown, reconciled through the courier's history; CPU: this process (worker, sandbox, stand-in) as a share of one core",
    `alone: the courier client by itself with as many in flight, in create-bulk calls of up to ${BULK_BATCH} (as the worker) and one by one; ratio: deliveries/s over alone in bulk`,
  ])
    console.log(`  ${legend}`);

  const at = (latencyMs: number, limit: number) =>
    runs.find((r) => r.latencyMs === latencyMs && r.limit === limit);
  const best200 = runs
    .filter((r) => r.latencyMs === 200)
    .reduce<Run | undefined>((best, r) => (!best || r.rate > best.rate ? r : best), undefined);
  const allOnce = runs.every(
    (r) =>
      r.createsPerDelivery === 1 &&
      r.courierOrders === r.deliveries &&
      r.twins === 0 &&
      r.tracked === r.deliveries,
  );
  console.log(
    `  every delivery created exactly once at the courier, with tracking on Shopify: ${allOnce ? "yes" : "NO"}`,
  );
  console.log(
    JSON.stringify({
      leasesPerPass: LEASES_PER_PASS,
      deliveriesPerSecond0ms: at(0, LEASES_PER_PASS)?.rate ?? null,
      deliveriesPerSecond200ms: at(200, LEASES_PER_PASS)?.rate ?? null,
      at10LeasesPerPass: { "0ms": at(0, 10)?.rate ?? null, "200ms": at(200, 10)?.rate ?? null },
      best200ms: best200 ? { limit: best200.limit, rate: best200.rate } : null,
      createsPerDelivery: Math.max(...runs.map((r) => r.createsPerDelivery)),
      twins: runs.reduce((sum, r) => sum + r.twins, 0),
      unknownOutcomes: runs.reduce((sum, r) => sum + r.unknownOutcomes, 0),
      allCreatedOnce: allOnce,
      intakePerSecond: round(intakeRate, 1),
      deliveries: DELIVERIES,
      journalMode: journal,
      runs,
      node: process.version,
    }),
  );
} finally {
  adminApi.uninstall();
  for (const sandbox of sandboxes) await sandbox.close();
  await prisma.$disconnect();
  scratch.remove();
}
