/**
 * Tracking sync at scale: N active deliveries (default 10,000) across several shops, each a real
 * order in the courier sandbox, which answers every call after BENCH_LATENCY_MS (default 50 ms).
 * A share of the orders moved at the courier since the last look. One full cycle of the sync
 * (every delivery looked at once) is timed, the courier calls and Shopify writes are counted, and
 * the same courier calls made by the client alone, at the same concurrency, are the reference.
 *
 *   npm run bench:sync [-- --deliveries 10000 --shops 10 --latency 50 --concurrency 16 --per-shop 4]
 *
 * Shopify is the Admin API stand-in of the tests (undici MockAgent, in process, no latency).
 * Prints readable lines and ends with one JSON line, whose first keys are deliveries, cycleSeconds,
 * courierCallsPerDelivery and shopifyWritesPerChange; exits 1 when a target is missed.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { startCourierSandbox } from "../sandbox/courier";
import type { CreateOrderInput } from "../app/courier";
import { productionBenchEnvironment, SANDBOX_KEY } from "../test/support/test-env";
import { migrateDatabase, perSecond, round, scratchDir } from "./support/scratch";

const { values: args } = parseArgs({
  options: {
    deliveries: { type: "string" },
    shops: { type: "string" },
    latency: { type: "string" },
    concurrency: { type: "string" },
    "per-shop": { type: "string" },
    moved: { type: "string" },
  },
});
const DELIVERIES = Number(args.deliveries ?? process.env.BENCH_DELIVERIES ?? 10_000);
const SHOPS = Number(args.shops ?? 10);
const LATENCY_MS = Number(args.latency ?? process.env.BENCH_LATENCY_MS ?? 50);
/** The share of orders that moved one status at the courier since the last look. */
const MOVED_SHARE = Number(args.moved ?? 0.2);
const TARGET = { cycleSeconds: 60, courierCallsPerDelivery: 1, shopifyWritesPerChange: 1 };

const scratch = scratchDir("bench-sync");
const databaseUrl = migrateDatabase(path.join(scratch.dir, "bench.sqlite"));
Object.assign(process.env, productionBenchEnvironment({ DATABASE_URL: databaseUrl }));

const sandbox = await startCourierSandbox({ acceptedKeys: [SANDBOX_KEY], seed: 7 });
process.env.COURIER_SANDBOX_URL = sandbox.url;

const { default: prisma } = await import("../app/db.server");
const { createCourierClient } = await import("../app/courier");
const { mapConcurrently } = await import("../app/courier/master-data");
const { runTrackingSync } = await import("../app/pipeline/tracking/sync.server");
const { SYNC_DEFAULTS } = await import("../app/pipeline/tracking/context.server");
// The app's defaults unless told otherwise.
const CONCURRENCY = Number(args.concurrency ?? SYNC_DEFAULTS.concurrency);
const PER_SHOP = Number(args["per-shop"] ?? SYNC_DEFAULTS.perShop);
const { productionDependencies } = await import("../app/pipeline/runner.server");
const { adminApi } = await import("../test/support/admin-api");
const { readyShop } = await import("../test/support/pipeline");

adminApi.install();
let shopifyWrites = 0;
adminApi.on("DeliveryFulfillmentEvent", (variables) => {
  shopifyWrites += 1;
  const input = variables.fulfillmentEvent as { status: string };
  return {
    data: {
      fulfillmentEventCreate: {
        fulfillmentEvent: {
          id: `gid://shopify/FulfillmentEvent/${shopifyWrites}`,
          status: input.status,
        },
        userErrors: [],
      },
    },
  };
});

const client = createCourierClient({
  baseUrl: sandbox.url,
  apiKey: SANDBOX_KEY,
  timeoutMs: 30_000,
});
const place = (nameEn: string) => {
  for (const g of sandbox.governances) {
    const area = g.areas.find((a) => a.nameEn === nameEn);
    if (area) return { governanceId: g.governanceId, areaId: area.areaId };
  }
  throw new Error(`no sandbox area ${nameEn}`);
};
const body = (i: number): CreateOrderInput => ({
  pickupAddress: {
    ...place("Salmiya"),
    block: "10",
    street: "Salem Al Mubarak St",
    contactName: "Store",
    contactPhone: "+965 2222 3333",
  },
  pickupDate: new Date(),
  paymentMethod: "PREPAID",
  deliveryAddress: {
    ...place("Jabriya"),
    block: "1A",
    street: "5",
    house: String(1 + (i % 90)),
    contactName: "Customer",
    contactPhone: "+965 9988 7766",
  },
  packageDetails: { weight: 1, description: "Parcel", value: "10.000" },
  notes: `bench ${i}`,
});

console.log(
  `bench:sync — ${DELIVERIES.toLocaleString("en-US")} active deliveries in ${SHOPS} shops`,
);
console.log(
  `courier sandbox at ${LATENCY_MS} ms per reply; sync ${CONCURRENCY} in flight, ${PER_SHOP} per shop`,
);

// Setup (untimed): shops, courier orders (create-bulk, no latency yet), delivery rows.
const setupStarted = performance.now();
const shops = Array.from({ length: SHOPS }, (_, i) => `bench-sync-${i}.myshopify.com`);
for (const shop of shops) await readyShop(shop);
const batches = Array.from({ length: Math.ceil(DELIVERIES / 25) }, (_, b) =>
  Array.from({ length: Math.min(25, DELIVERIES - b * 25) }, (_, k) => body(b * 25 + k)),
);
const created = (await mapConcurrently(batches, 8, (batch) => client.createBulk(batch))).flatMap(
  (result) => result.items,
);
const orderIds = created.map((item) => {
  if (item.outcome !== "created" || !item.orderId) throw new Error("a bench order was not created");
  return item.orderId;
});
const now = new Date();
const pushedAt = new Date(now.getTime() - 60 * 60_000);
for (let i = 0; i < orderIds.length; i += 500) {
  await prisma.delivery.createMany({
    data: orderIds.slice(i, i + 500).map((orderId, k) => {
      const n = i + k;
      return {
        shop: shops[n % SHOPS]!,
        orderId: `gid://shopify/Order/${100000 + n}`,
        orderName: `#${100000 + n}`,
        fulfillmentId: `gid://shopify/Fulfillment/${200000 + n}`,
        locationId: "gid://shopify/Location/701",
        source: "webhook",
        state: "created",
        environment: "sandbox",
        reference: `KCS-BENCH-${n}`,
        courierOrderId: orderId,
        courierOrderNumber: orderId,
        courierStatus: "pending",
        trackingPushedAt: pushedAt,
        syncAt: now,
      };
    }),
  });
}
// A share of the orders moved since the last look: accepted (a Shopify CONFIRMED event each).
const moved = Math.round(orderIds.length * MOVED_SHARE);
for (const orderId of orderIds.slice(0, moved)) sandbox.advance(orderId, "accepted");
sandbox.faults.add({ endpoint: "*", kind: "latency", latencyMs: LATENCY_MS, times: 1e9 });
console.log(
  `setup: ${round((performance.now() - setupStarted) / 1000, 1)} s (untimed); ${moved} orders moved at the courier`,
);

// Reference: the client alone, the same calls at the same concurrency, no database, no Shopify.
const tracksBefore = () => sandbox.requestLog.filter((r) => r.endpoint === "track").length;
let started = performance.now();
await mapConcurrently(orderIds, CONCURRENCY, (orderId) => client.track(orderId));
const bareSeconds = (performance.now() - started) / 1000;
console.log(
  `client alone: ${round(bareSeconds, 1)} s (${perSecond(orderIds.length / bareSeconds)})`,
);

// One full cycle of the sync: passes until nothing is due.
const { owner, courierFor, adminFor } = productionDependencies();
const deps = { owner: `${owner}:bench`, courierFor, adminFor, now: () => now };
const callsAtStart = tracksBefore();
const cpuStart = process.cpuUsage();
started = performance.now();
let looked = 0;
let passes = 0;
for (;;) {
  const n = await runTrackingSync(deps, { concurrency: CONCURRENCY, perShop: PER_SHOP });
  if (n === 0) break;
  looked += n;
  passes += 1;
}
const cycleSeconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuStart);
const courierCalls = tracksBefore() - callsAtStart;

const states = await prisma.delivery.groupBy({ by: ["courierStatus"], _count: true });
const changedRows = await prisma.delivery.count({ where: { courierStatus: "accepted" } });
const stillDue = await prisma.delivery.count({ where: { syncAt: { lte: now } } });
// The issue's four figures lead the JSON line, in this order; the rest follow.
const headline = {
  deliveries: orderIds.length,
  cycleSeconds: round(cycleSeconds, 2),
  courierCallsPerDelivery: round(courierCalls / orderIds.length, 3),
  shopifyWritesPerChange: moved > 0 ? round(shopifyWrites / moved, 3) : 0,
};
const figures = {
  ...headline,
  changes: moved,
  changesSeen: changedRows,
  shopifyWrites,
  looked,
  passes,
  stillDue,
  rate: round(looked / cycleSeconds),
  bareSeconds: round(bareSeconds, 2),
  ratioToClientAlone: round(cycleSeconds / bareSeconds, 2),
  cpuSeconds: round((cpu.user + cpu.system) / 1e6, 1),
  latencyMs: LATENCY_MS,
  concurrency: CONCURRENCY,
  perShop: PER_SHOP,
};

console.log(
  `cycle: ${figures.cycleSeconds} s for ${looked.toLocaleString("en-US")} deliveries (${perSecond(figures.rate)}, ${passes} passes, ${figures.cpuSeconds} s CPU)`,
);
console.log(`  ratio to the client alone: ${figures.ratioToClientAlone}×`);
console.log(`  courier calls per delivery: ${figures.courierCallsPerDelivery}`);
console.log(
  `  Shopify writes per change: ${figures.shopifyWritesPerChange} (${shopifyWrites} writes, ${moved} changes, ${changedRows} seen)`,
);
console.log(
  `  statuses after: ${states.map((s) => `${s.courierStatus} ${s._count}`).join(", ")}; still due: ${stillDue}`,
);
const met =
  figures.cycleSeconds <= TARGET.cycleSeconds &&
  figures.courierCallsPerDelivery <= TARGET.courierCallsPerDelivery &&
  figures.shopifyWritesPerChange === TARGET.shopifyWritesPerChange &&
  changedRows === moved &&
  stillDue === 0;
console.log(
  `target (cycle ≤ ${TARGET.cycleSeconds} s, ≤ 1 courier call per delivery, 1 Shopify write per change): ${met ? "met" : "NOT met"}`,
);

await prisma.$disconnect();
await sandbox.close();
adminApi.uninstall();
console.log(JSON.stringify({ ...figures, targetsMet: met }));
// A missed target fails the run (CI, scripts), after the figures are printed.
if (!met) process.exitCode = 1;
