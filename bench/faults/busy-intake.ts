/**
 * Webhook intake while the worker is busy (issue 11, ADR 0016), on SQLite: the built server with
 * its in-process worker on, the courier sandbox, and the Admin API answered inside the server
 * (bench/support/admin-standin-preload.ts). Signed `fulfillments/create` webhooks at 100 a second
 * for 10 s (a shop whose automatic sending is off, so they add no work to the worker), first with
 * the worker idle, then while it drains a backlog of 1,000 deliveries of another shop. Figures:
 * intake p50/p99 idle and busy, and deliveries the worker created during the busy run. Run on
 * this tree and, as the before, on BENCH_BEFORE_REF (default main) built in a scratch copy, in
 * the same run; BENCH_BEFORE_REF=none skips it.
 */
import path from "node:path";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import autocannon from "autocannon";
import prisma from "../../app/db.server";
import { fulfillmentWebhook, receiveFulfillment } from "../../app/pipeline/intake.server";
import { resetEnvForTests } from "../../app/env.server";
import { startCourierSandbox } from "../../sandbox/courier";
import { fulfillmentPayload, readyShop } from "../../test/support/pipeline";
import { SANDBOX_KEY } from "../../test/support/test-env";
import { ensureBuilt, startBuiltServer } from "../support/app-server";
import { buildBefore } from "../support/before-tree";
import type { Log } from "../support/fault-courier";
import { WEBHOOK_PATH, webhookSource } from "../support/fulfillment-webhooks";
import { freePort, ROOT, round, scratchDir, sleep } from "../support/scratch";

const RATE = 100;
const SECONDS = Number(process.env.BENCH_BUSY_SECONDS ?? 10);
const BACKLOG = 1_000;
const FAR = new Date("2100-01-01T00:00:00Z");

interface Phase {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  ok: number;
  non2xx: number;
}

interface TreeFigures {
  idle: Phase;
  busy: Phase;
  /** Courier orders the worker created during the busy run. */
  createdDuringBusy: number;
}

let nextFulfillment = 7_000_000;

async function measureTree(root: string, name: string, log: Log): Promise<TreeFigures> {
  const sandbox = await startCourierSandbox({ acceptedKeys: [SANDBOX_KEY] });
  process.env.COURIER_SANDBOX_URL = sandbox.url;
  resetEnvForTests();
  const scratch = scratchDir(`bench-busy-${name}`);
  const tag = name.replace(/[^a-z0-9]/gi, "").toLowerCase();
  const quietShop = `quiet-${tag}.myshopify.com`;
  const busyShop = `busy-${tag}.myshopify.com`;
  try {
    await readyShop(quietShop);
    await prisma.shopSettings.update({ where: { shop: quietShop }, data: { autoSend: false } });
    await readyShop(busyShop);
    // The backlog, recorded through intake, held back until the busy run.
    const first = (nextFulfillment += 100_000);
    for (let i = 0; i < BACKLOG; i += 1) {
      const order = {
        fulfillmentNumber: first + i,
        orderNumber: first + i,
        city: "Salmiya",
        address1: "Block 10, Street 5, House 12",
        provinceCode: "KW-HA",
      };
      await receiveFulfillment(busyShop, fulfillmentWebhook.parse(fulfillmentPayload(order)));
    }
    await prisma.delivery.updateMany({ where: { shop: busyShop }, data: { nextAttemptAt: FAR } });

    const port = await freePort();
    const server = await startBuiltServer({
      root,
      port,
      logFile: path.join(scratch.dir, "server.log"),
      nodeArgs: [
        ...(process.env.BENCH_BUSY_PROFILE
          ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_BUSY_PROFILE)}`]
          : []),
        "--import",
        "tsx",
        "--import",
        path.join(ROOT, "bench", "support", "admin-standin-preload.ts"),
      ],
      env: { DELIVERY_WORKER: "on", COURIER_SANDBOX_URL: sandbox.url },
    });
    try {
      const source = webhookSource({
        shop: quietShop,
        secret: API_SECRET_KEY,
        duplicateShare: 0,
        firstFulfillment: (nextFulfillment += 100_000),
      });
      const load = async (seconds: number): Promise<Phase> => {
        const result = await autocannon({
          url: server.url,
          connections: 10,
          overallRate: RATE,
          duration: seconds,
          timeout: 10,
          requests: [
            {
              method: "POST",
              path: WEBHOOK_PATH,
              setupRequest: (request) => {
                const webhook = source.next();
                return { ...request, headers: webhook.headers, body: webhook.body };
              },
            },
          ],
        });
        return {
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          maxMs: result.latency.max,
          ok: result["2xx"],
          non2xx: result.non2xx,
        };
      };
      await load(2);
      const idle = await load(SECONDS);
      await prisma.delivery.updateMany({
        where: { shop: busyShop },
        data: { nextAttemptAt: new Date() },
      });
      // The worker's timer (3 s) finds the backlog; measure once it is under way.
      const started = Date.now();
      while (sandbox.orders.size === 0 && Date.now() - started < 30_000) await sleep(100);
      const before = sandbox.orders.size;
      const busy = await load(SECONDS);
      const createdDuringBusy = sandbox.orders.size - before;
      const left = await prisma.delivery.count({
        where: { shop: busyShop, state: { in: ["pending", "ready"] } },
      });
      const states = await prisma.delivery.groupBy({
        by: ["state"],
        where: { shop: busyShop },
        _count: true,
      });
      const failing = await prisma.delivery.findFirst({
        where: { shop: busyShop, lastError: { not: null } },
        select: { lastError: true },
      });
      log(
        `${name.padEnd(20)} backlog now ${states.map((g) => `${g.state} ${g._count}`).join(", ")}${failing ? `; a last error: ${failing.lastError}` : ""}`,
      );
      if (process.env.BENCH_BUSY_LOG) log(server.log().split("\n").slice(-15).join("\n"));
      log(
        `${name.padEnd(20)} idle p50 ${idle.p50Ms} ms p99 ${idle.p99Ms} ms · busy p50 ${busy.p50Ms} ms p99 ${busy.p99Ms} ms max ${busy.maxMs} ms · non-2xx ${idle.non2xx + busy.non2xx} · ${createdDuringBusy} deliveries created in ${SECONDS} s busy (${left} of ${BACKLOG} not yet sent)`,
      );
      return { idle, busy, createdDuringBusy };
    } finally {
      await server.stop();
      // Whatever is left of the backlog stays out of the next tree's way.
      await prisma.delivery.updateMany({
        where: { shop: busyShop, state: { in: ["pending", "ready"] } },
        data: { nextAttemptAt: FAR },
      });
    }
  } finally {
    await sandbox.close();
    scratch.remove();
  }
}

export async function run(log: Log): Promise<Record<string, number>> {
  const ref = process.env.BENCH_BEFORE_REF ?? "main";
  const scratch = scratchDir("bench-busy-before");
  try {
    const build = ensureBuilt(scratch.dir);
    log(`this tree's build ${build.state}; ${RATE} webhooks/s for ${SECONDS} s per phase`);
    let before: TreeFigures | undefined;
    if (ref !== "none") {
      log(`building ${ref} in a scratch copy as the before`);
      before = await measureTree(buildBefore(ref, scratch.dir), `before (${ref})`, log);
    }
    const after = await measureTree(ROOT, "this tree", log);
    return {
      intakeP50IdleMs: after.idle.p50Ms,
      intakeP99IdleMs: after.idle.p99Ms,
      intakeP50BusyMs: after.busy.p50Ms,
      intakeP99BusyMs: after.busy.p99Ms,
      busyDeliveriesCreatedPer10s: round((after.createdDuringBusy * 10) / SECONDS),
      ...(before
        ? {
            beforeIntakeP99IdleMs: before.idle.p99Ms,
            beforeIntakeP99BusyMs: before.busy.p99Ms,
            beforeBusyDeliveriesCreatedPer10s: round((before.createdDuringBusy * 10) / SECONDS),
          }
        : {}),
    };
  } finally {
    scratch.remove();
  }
}
