/**
 * Checkout rates under load (issue 28): Shopify's signed rate requests against the built server
 * (`npm start`, production mode, a scratch SQLite file) at a fixed rate, open loop
 * (bench/support/open-loop.ts: latency from each request's due time, so queueing counts), with
 * destinations from the project's address sets and realistic carts (bench/support/rate-requests.ts).
 *
 *   a. cold: rates on, the price table empty (every answer the fallback), the server just started;
 *   b. warm: the table filled by the worker's own refresh against the courier sandbox, its price
 *      endpoint answering in 300 ms; the sandbox's requests during the load must be none;
 *   c. courier down: the sandbox refusing every call while the load goes on;
 *   d. bare: the same bodies and signatures to POST /checkout/bare (BENCH_BARE_ROUTE=1), the same
 *      fast path answering `{"rates":[]}` at once: what this server costs for such a request.
 *
 *   npm run bench:rates [-- --quick --rate 200 --seconds 60 --profile DIR]
 *
 * `--quick`: 15 s phases. `--profile DIR` writes the server's CPU profile there when it stops.
 * Every 200 answer is checked; a Kuwaiti destination answered with no rate is an empty answer. The
 * share placed comes from the server's own tally of outcomes. Prints readable lines, each with the
 * load average, and ends with one JSON line; exits 1 when a target is missed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { productionBenchEnvironment, SANDBOX_KEY } from "../test/support/test-env";
import { ensureBuilt, startBuiltServer, type RunningServer } from "./support/app-server";
import { openLoop } from "./support/open-loop";
import { checkRateAnswer, rateRequests, type RateRequestCase } from "./support/rate-requests";
import { freePort, migrateDatabase, percentile, round, scratchDir, until } from "./support/scratch";

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    rate: { type: "string" },
    seconds: { type: "string" },
    profile: { type: "string" },
  },
});
const RATE = Number(args.rate ?? 200);
const SECONDS = Number(args.seconds ?? (args.quick ? 15 : 60));
const PREWARM_SECONDS = 3;
const FILL_LATENCY_MS = 300;
const SHOP = "bench-rates.myshopify.com";
const TARGET = { p95Ms: 100, p99Ms: 250, p95MsCourierDown: 100 };
const FALLBACK_FILS = 3_333;

const loadAverage = () => os.loadavg().map((l) => round(l, 2));
const withLoad = (line: string) => console.log(`${line}  [load ${loadAverage().join(", ")}]`);

const scratch = scratchDir("bench-rates");
const databaseUrl = migrateDatabase(path.join(scratch.dir, "bench.sqlite"));
// The app reads its environment on first use: set before any of its modules loads.
Object.assign(process.env, productionBenchEnvironment({ DATABASE_URL: databaseUrl }));

const { startCourierSandbox } = await import("../sandbox/courier");
const { resetEnvForTests } = await import("../app/env.server");
const courier = await startCourierSandbox({ acceptedKeys: [SANDBOX_KEY] });
process.env.COURIER_SANDBOX_URL = courier.url;
resetEnvForTests();
const { default: prisma } = await import("../app/db.server");
const { readyShop } = await import("../test/support/pipeline");
const { getCheckoutRateSettings, saveRateChoices, listAreaPrices, listRateTallies } =
  await import("../app/models/checkout-rates.server");
const { refreshShopPrices } = await import("../app/checkout/price-refresh.server");
const { shopCourierClient } = await import("../app/services/courier-connection.server");
const { kuwaitDay } = await import("../app/domain/working-days");

interface Phase {
  name: string;
  requests: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  emptyAnswers: number;
  /** Kuwaiti destinations answered with a rate, and those of them placed in an area. */
  rated: number;
  placed: number;
  /** Answers at the merchant's fallback price (not placed, not priced yet, or too heavy). */
  atFallback: number;
  maxInFlight: number;
  maxSendDelayMs: number;
  /** The server's CPU time per request (user + system), less sensitive to a busy machine. */
  cpuMsPerRequest: number | null;
  rssMb: number | null;
  loadAverage: number[];
}

function rssMb(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? round(Number(kb) / 1024, 1) : null;
  } catch {
    return null;
  }
}

let server: RunningServer | undefined;
const problems = new Map<string, number>();

async function load(
  name: string,
  urlPath: string,
  cases: RateRequestCase[],
  seconds: number,
  { check = true } = {},
): Promise<Phase> {
  const counts = { errors: 0, empty: 0, rated: 0, placed: 0, atFallback: 0 };
  const cpuBefore = server!.cpuSeconds();
  const figures = await openLoop({
    url: server!.url,
    rate: RATE,
    seconds,
    request: (i) => {
      const c = cases[i % cases.length]!;
      return {
        path: urlPath,
        headers: {
          "Content-Type": "application/json",
          "X-Shopify-Hmac-Sha256": c.signature,
          "X-Shopify-Shop-Domain": SHOP,
          "X-Shopify-API-Version": "2025-10",
        },
        body: c.body,
      };
    },
    onAnswer: (i, status, text) => {
      if (!check) {
        if (status !== 200) counts.errors += 1;
        return;
      }
      const answer = checkRateAnswer(cases[i % cases.length]!, status, text);
      if (answer.verdict === "error") {
        counts.errors += 1;
        problems.set(answer.problem, (problems.get(answer.problem) ?? 0) + 1);
      } else if (answer.verdict === "empty") counts.empty += 1;
      else if (answer.verdict === "rate") {
        counts.rated += 1;
        if (answer.placed) counts.placed += 1;
        if (answer.totalFils === FALLBACK_FILS) counts.atFallback += 1;
      }
    },
  });
  for (const [code, n] of figures.transportProblems)
    problems.set(`no answer (${code})`, (problems.get(`no answer (${code})`) ?? 0) + n);
  const cpuAfter = server!.cpuSeconds();
  const l = figures.latenciesMs;
  return {
    name,
    requests: figures.sent,
    p50Ms: round(percentile(l, 50), 1),
    p95Ms: round(percentile(l, 95), 1),
    p99Ms: round(percentile(l, 99), 1),
    maxMs: round(Math.max(...l), 1),
    errors: counts.errors + figures.transportErrors,
    emptyAnswers: counts.empty,
    rated: counts.rated,
    placed: counts.placed,
    atFallback: counts.atFallback,
    maxInFlight: figures.maxInFlight,
    maxSendDelayMs: round(figures.maxSendDelayMs, 1),
    cpuMsPerRequest:
      cpuBefore === null || cpuAfter === null
        ? null
        : round(((cpuAfter - cpuBefore) * 1000) / figures.sent, 2),
    rssMb: rssMb(server!.pid),
    loadAverage: loadAverage(),
  };
}

function describe(p: Phase) {
  const share = (n: number) => (p.rated ? `${((100 * n) / p.rated).toFixed(1)}%` : "-");
  withLoad(
    `  ${p.name.padEnd(13)} ${p.requests} requests at ${RATE}/s  p50 ${p.p50Ms} ms  p95 ${p.p95Ms} ms  p99 ${p.p99Ms} ms  max ${p.maxMs} ms  errors ${p.errors}  empty ${p.emptyAnswers}  placed ${share(p.placed)}  at fallback ${share(p.atFallback)}  in flight ≤ ${p.maxInFlight}  sent late ≤ ${p.maxSendDelayMs} ms  server CPU ${p.cpuMsPerRequest} ms/request  RSS ${p.rssMb} MB`,
  );
}

try {
  withLoad(
    `Checkout rates on the built server: ${RATE} requests/s, open loop, ${SECONDS} s per phase, Node ${process.version}, ${os.cpus().length} cores`,
  );
  const build = ensureBuilt(scratch.dir);
  if (build.state === "stale")
    console.log(`  build FAILED, measuring the previous build: ${build.reason}`);
  else console.log(`  build ${build.state}; database in ${scratch.dir}`);

  // The shop: installed, the courier sandbox's key and master data, a pickup location in
  // Salmiya; rates on with the merchant's choices, the price table empty.
  await readyShop(SHOP);
  const { callbackToken } = await getCheckoutRateSettings(SHOP);
  await prisma.checkoutRateSettings.update({ where: { shop: SHOP }, data: { enabled: true } });
  await saveRateChoices(SHOP, {
    fallbackFils: FALLBACK_FILS,
    marginFils: 250,
    marginBasisPoints: 0,
    freeAboveFils: 120_000,
    hiddenAreas: [],
    cutoffMinutes: 14 * 60,
    preparationDays: 0,
    holidays: [],
  });
  const cases = rateRequests({ count: RATE * SECONDS, seed: 28, secret: API_SECRET_KEY });
  const mix = (key: "language" | "locale") => {
    const counts = new Map<string, number>();
    for (const c of cases) counts.set(c[key], (counts.get(c[key]) ?? 0) + 1);
    return [...counts].map(([k, n]) => `${k} ${n}`).join(", ");
  };
  console.log(
    `  ${cases.length} requests from ${new Set(cases.map((c) => c.addressId)).size} destinations (addresses ${mix("language")}; checkout ${mix("locale")}; ${cases.filter((c) => !c.inKuwait).length} outside Kuwait; ${cases.filter((c) => c.weightKg > 30).length} carts over 30 kg)`,
  );

  const port = await freePort();
  server = await startBuiltServer({
    port,
    logFile: path.join(scratch.dir, "server.log"),
    nodeArgs: args.profile ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(args.profile)}`] : [],
    startTimeoutMs: 90_000,
    env: productionBenchEnvironment({
      DATABASE_URL: databaseUrl,
      SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
      COURIER_SANDBOX_URL: courier.url,
      // The refresh runs in this process, so the sandbox's log shows only what the server asks.
      DELIVERY_WORKER: "off",
      BENCH_BARE_ROUTE: "1",
    }),
  });
  const rssStart = rssMb(server.pid);
  withLoad(`  server ${server.url} (pid ${server.pid}), RSS ${rssStart} MB before the load`);
  const ratesPath = `/checkout/rates/${callbackToken}`;

  const phases: Phase[] = [];
  console.log("a. cold: the price table empty, the server just started");
  const cold = await load("cold", ratesPath, cases, SECONDS);
  describe(cold);
  phases.push(cold);

  console.log(
    `b. warm: the table filled with the courier's price endpoint at ${FILL_LATENCY_MS} ms`,
  );
  courier.faults.add({
    endpoint: "calculatePrice",
    kind: "latency",
    latencyMs: FILL_LATENCY_MS,
    times: 1_000_000,
  });
  const fillStarted = performance.now();
  let fillCalls = 0;
  for (let pass = 0; pass < 10; pass += 1) {
    const outcome = await refreshShopPrices(SHOP, {
      courierFor: shopCourierClient,
      callsPerPass: 5_000,
    });
    fillCalls += outcome.asked;
    if (outcome.stoppedBy) throw new Error(`The refresh stopped: ${outcome.stoppedBy}`);
    if (outcome.remaining === 0) break;
  }
  courier.faults.clear();
  const cells = (await listAreaPrices(SHOP, "sandbox")).length;
  withLoad(
    `  refresh: ${cells} cells (areas × weight bands) from ${fillCalls} courier calls in ${round((performance.now() - fillStarted) / 1000, 1)} s`,
  );
  // The server's snapshot reloads in the background once it is older than a few seconds; the
  // prewarm's first requests start that, the rest let it land.
  await load("prewarm", ratesPath, cases, PREWARM_SECONDS);
  const courierBefore = courier.requestLog.length;
  const warm = await load("warm", ratesPath, cases, SECONDS);
  const courierCallsOnHotPath = courier.requestLog.length - courierBefore;
  describe(warm);
  phases.push(warm);
  withLoad(`  courier calls during the warm load: ${courierCallsOnHotPath}`);

  console.log("c. courier down: the sandbox refuses every call (503) while the load goes on");
  courier.faults.add({ endpoint: "*", kind: "error", status: 503, times: 1_000_000 });
  const refused = await refreshShopPrices(SHOP, {
    courierFor: shopCourierClient,
    now: () => new Date(Date.now() + 2 * 86_400_000),
  });
  console.log(`  the refresh meanwhile: ${refused.asked} asked, stopped by "${refused.stoppedBy}"`);
  const downBefore = courier.requestLog.length;
  const down = await load("courier down", ratesPath, cases, SECONDS);
  describe(down);
  phases.push(down);
  const courierCallsWhileDown = courier.requestLog.length - downBefore;

  console.log("d. bare: POST /checkout/bare, the same bodies and signatures");
  await load("bare prewarm", "/checkout/bare", cases, PREWARM_SECONDS, { check: false });
  const bare = await load("bare", "/checkout/bare", cases, SECONDS, { check: false });
  describe(bare);

  // What the server counted (written every few seconds): outcomes other than "outside Kuwait",
  // and those of them placed in an area.
  const answered = cold.requests + warm.requests + down.requests + 2 * RATE * PREWARM_SECONDS;
  const tallies = await until(
    "the server's rate tally",
    async () => {
      const rows = await listRateTallies(SHOP, kuwaitDay(new Date(Date.now() - 86_400_000)));
      const total = rows.reduce((n, r) => n + r.count, 0);
      return total >= answered - cold.errors - warm.errors - down.errors ? rows : null;
    },
    20_000,
  ).catch(() => listRateTallies(SHOP, kuwaitDay(new Date(Date.now() - 86_400_000))));
  const kuwaiti = tallies.filter((t) => t.outcome !== "outside_kuwait");
  const kuwaitiCount = kuwaiti.reduce((n, t) => n + t.count, 0);
  const placedCount = kuwaiti.filter((t) => t.area !== "").reduce((n, t) => n + t.count, 0);
  const placedShare = kuwaitiCount ? round(placedCount / kuwaitiCount, 4) : 0;
  const outcomes = Object.entries(
    tallies.reduce<Record<string, number>>((acc, t) => {
      acc[t.outcome] = (acc[t.outcome] ?? 0) + t.count;
      return acc;
    }, {}),
  )
    .map(([o, n]) => `${o} ${n}`)
    .join(", ");
  const rssEnd = rssMb(server.pid);
  withLoad(
    `  the server's tally: ${outcomes}; placed ${placedCount} of ${kuwaitiCount} Kuwaiti requests (${(placedShare * 100).toFixed(1)}%)`,
  );
  withLoad(`  server RSS ${rssStart} MB before, ${rssEnd} MB after`);
  if (problems.size > 0)
    console.log(
      `  problems: ${[...problems].map(([problem, n]) => `${problem} ×${n}`).join(", ")}`,
    );
  await server.stop();
  server = undefined;

  const checks: [string, boolean][] = [
    [
      `warm p95 ${warm.p95Ms} ms ≤ ${TARGET.p95Ms} ms at ${RATE}/s for ${SECONDS} s`,
      warm.p95Ms <= TARGET.p95Ms,
    ],
    [`warm p99 ${warm.p99Ms} ms ≤ ${TARGET.p99Ms} ms`, warm.p99Ms <= TARGET.p99Ms],
    [
      `errors ${cold.errors + warm.errors + down.errors} = 0`,
      cold.errors + warm.errors + down.errors === 0,
    ],
    [
      `empty answers ${cold.emptyAnswers + warm.emptyAnswers + down.emptyAnswers} = 0`,
      cold.emptyAnswers + warm.emptyAnswers + down.emptyAnswers === 0,
    ],
    [
      `courier calls on the hot path once warm ${courierCallsOnHotPath} = 0`,
      courierCallsOnHotPath === 0,
    ],
    [
      `courier down p95 ${down.p95Ms} ms ≤ ${TARGET.p95MsCourierDown} ms (courier calls meanwhile ${courierCallsWhileDown})`,
      down.p95Ms <= TARGET.p95MsCourierDown,
    ],
  ];
  for (const [line, ok] of checks) withLoad(`${ok ? "PASS" : "FAIL"} ${line}`);
  if (!checks.every(([, ok]) => ok)) process.exitCode = 1;

  console.log(
    JSON.stringify({
      bench: "rates",
      requests: warm.requests,
      p50Ms: warm.p50Ms,
      p95Ms: warm.p95Ms,
      p99Ms: warm.p99Ms,
      errors: cold.errors + warm.errors + down.errors,
      emptyAnswers: cold.emptyAnswers + warm.emptyAnswers + down.emptyAnswers,
      courierCallsOnHotPath,
      p95MsCold: cold.p95Ms,
      p95MsCourierDown: down.p95Ms,
      placedShare,
      bare: { p50Ms: bare.p50Ms, p95Ms: bare.p95Ms, p99Ms: bare.p99Ms },
      rate: RATE,
      seconds: SECONDS,
      loadAverage: loadAverage(),
      p99MsCold: cold.p99Ms,
      p99MsCourierDown: down.p99Ms,
      maxMs: warm.maxMs,
      rssMb: { before: rssStart, after: rssEnd },
      cells,
      build: build.state,
      targetsMet: checks.every(([, ok]) => ok),
      node: process.version,
    }),
  );
} catch (error) {
  if (server) console.error(`Server log tail:\n${server.log().split("\n").slice(-30).join("\n")}`);
  throw error;
} finally {
  await server?.stop();
  await prisma.$disconnect();
  await courier.close();
  scratch.remove();
}
