/**
 * `npm run worker`: the delivery worker and the tracking sync without the web server, for
 * deployments on PostgreSQL that run several instances (ADR 0009). Run as many as needed; they
 * claim rows with FOR UPDATE SKIP LOCKED, so no row is worked on twice. Web instances then set
 * DELIVERY_WORKER=off. SIGTERM or SIGINT stops it cleanly: no new pass starts, the passes under
 * way finish the rows they leased, the database connections close, and it exits with 0.
 */

export {};

// The environment is often shared with the web instances, which set DELIVERY_WORKER=off: this
// process exists to run the worker. Set before any app module loads (the app parses its
// environment once, on first use), hence the dynamic imports below.
process.env.DELIVERY_WORKER = "on";
// Like `npm start`: an unset NODE_ENV means production here too.
if (!process.env.NODE_ENV?.trim()) process.env.NODE_ENV = "production";

function exitWith(message: string): never {
  console.error(message);
  process.exit(1);
}

const { env, EnvError } = await import("../app/env.server");
try {
  env();
} catch (error) {
  exitWith(error instanceof EnvError ? error.message : String(error));
}
const { default: prisma, databaseProvider } = await import("../app/db.server");
const { startDeliveryWorker, stopDeliveryWorker } = await import("../app/pipeline/runner.server");
const { startTrackingSync, stopTrackingSync } =
  await import("../app/pipeline/tracking/runner.server");
const { startShopperLoop, stopShopperLoop } = await import("../app/shopper/runner.server");
const { startCheckoutRatesLoop, stopCheckoutRatesLoop } =
  await import("../app/checkout/runner.server");
const { startCourierRecords, stopCourierRecords } =
  await import("../app/pipeline/records/runner.server");
if (databaseProvider() !== "postgresql") {
  exitWith(
    "npm run worker needs DATABASE_URL to be PostgreSQL (postgresql://…). On SQLite the web process runs the worker itself (DELIVERY_WORKER=on, the default).",
  );
}

const intervalMs = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

await prisma.$queryRaw`SELECT 1`.catch((error: unknown) =>
  exitWith(
    `The worker cannot reach PostgreSQL: ${error instanceof Error ? error.message : String(error)}`,
  ),
);
startDeliveryWorker({ intervalMs: intervalMs("WORKER_INTERVAL_MS", 3_000) });
startTrackingSync(intervalMs("SYNC_INTERVAL_MS", 5_000));
startCourierRecords(intervalMs("RECORDS_INTERVAL_MS", 5_000));
startShopperLoop(intervalMs("SHOPPER_INTERVAL_MS", 3_000));
startCheckoutRatesLoop(intervalMs("PRICES_INTERVAL_MS", 5_000));
// The loops' timers do not hold the process open (in the web process the server does): this does.
const keepAlive = setInterval(() => undefined, 1 << 30);
console.log(`Worker ${process.pid} started: delivery worker and tracking sync on PostgreSQL.`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) {
    console.log(`Worker ${process.pid}: ${signal} again, exiting without waiting.`);
    process.exit(1);
  }
  stopping = true;
  console.log(`Worker ${process.pid}: ${signal}, finishing the passes under way.`);
  await Promise.all([
    stopDeliveryWorker(),
    stopTrackingSync(),
    stopCourierRecords(),
    stopShopperLoop(),
    stopCheckoutRatesLoop(),
  ]);
  await prisma.$disconnect();
  clearInterval(keepAlive);
  console.log(`Worker ${process.pid} stopped.`);
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
