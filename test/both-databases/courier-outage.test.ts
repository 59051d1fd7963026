import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { deliveryPage } from "../../app/pages/delivery.server";
import { LONG_WAIT_MS } from "../../app/domain/waits";
import { runDueDeliveries } from "../../app/pipeline/worker.server";
import { courierReports } from "../../app/services/courier-reports.server";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { startChildWorker } from "../support/child-worker";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import { testDatabaseName } from "../support/database";
import {
  fulfillmentPayload,
  programShopify,
  readyShop,
  testWorker,
  type FakeOrder,
} from "../support/pipeline";
import { callRoute, shopDomain, webhookRequest } from "../support/shopify";

// A courier that does not answer, for minutes on a simulated clock (ADR 0019): nothing is handed to
// the merchant for it, the courier is asked rarely, and every delivery is created once when it
// answers again. Runs on SQLite and on PostgreSQL.

const database = testDatabaseName();
const shop = shopDomain("courier-outage");
const clock = { now: new Date() };
const sandbox = setUpCourierSandbox({ clock: () => clock.now.getTime() });
beforeEach(() => {
  clock.now = new Date();
});
const MINUTE = 60_000;
const PARKED = ["needs_review", "needs_attention", "rejected"];

async function readyDeliveries(count: number) {
  await readyShop(shop);
  const orders: FakeOrder[] = Array.from({ length: count }, (_, i) => ({
    fulfillmentNumber: 9601 + i,
    orderNumber: 7601 + i,
    city: "Salmiya",
    address1: "Block 10, Street 5, House 12",
    provinceCode: "KW-HA",
  }));
  programShopify(orders);
  for (const order of orders) {
    await callRoute(
      fulfillmentsCreate,
      webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(order) }),
    );
  }
  clock.now = new Date();
  await runDueDeliveries(testWorker({ clock }).deps, 50);
  const states = (await prisma.delivery.findMany({ where: { shop } })).map((d) => d.state);
  expect(states).toEqual(Array(count).fill("ready"));
}

/** Runs the worker every `stepMs` of simulated time for `minutes`; returns the courier calls made. */
async function runFor(worker: ReturnType<typeof testWorker>, minutes: number, stepMs: number) {
  const before = sandbox().requestLog.length;
  for (let t = 0; t < minutes * MINUTE; t += stepMs) {
    await worker.drain();
    worker.advance(stepMs);
  }
  await worker.drain();
  return sandbox().requestLog.length - before;
}

const parked = () => prisma.delivery.count({ where: { shop, state: { in: PARKED } } });
const states = async () => [
  ...new Set((await prisma.delivery.findMany({ where: { shop } })).map((d) => d.state)),
];

describe(`a courier that does not answer (${database})`, () => {
  it("hands nothing to the merchant during a 45-minute outage and creates every delivery once after it", async () => {
    const count = 12;
    await readyDeliveries(count);
    sandbox().faults.add({ endpoint: "*", kind: "error", status: 503, probability: 1 });
    const worker = testWorker({ clock, timeoutMs: 15_000 });
    const calls = await runFor(worker, 45, MINUTE);
    expect(await parked()).toBe(0);
    for (const waiting of await prisma.delivery.findMany({ where: { shop } })) {
      expect(waiting.state).toBe("unknown");
      expect(waiting.lastError).toMatch(
        /^The courier is not answering; sending resumes by itself when it does\./,
      );
    }
    expect(calls / count / 45).toBeLessThanOrEqual(2);

    sandbox().faults.clear();
    await runFor(worker, 15, 30_000);
    expect(await states()).toEqual(["created"]);
    expect(await parked()).toBe(0);
    expect(sandbox().orders.size).toBe(count);
  }, 60_000);

  it("creates every delivery within a minute of the courier's return, even just after a failed trial", async () => {
    // The circuit's waits grew to 5 minutes, and so did those of the deliveries whose own call
    // went unanswered: the last one was created minutes after the courier came back (issue 24).
    const count = 12;
    await readyDeliveries(count);
    sandbox().faults.add({ endpoint: "*", kind: "error", status: 503, probability: 1 });
    const worker = testWorker({ clock, timeoutMs: 15_000 });
    await runFor(worker, 45, MINUTE);
    const openUntil = async () =>
      (
        await prisma.courierCircuit.findFirst({ where: { shop, circuit: "other" } })
      )?.openUntil?.getTime() ?? 0;
    // The worst moment to come back: right after a trial call failed.
    for (let t = 0; t < 10 * MINUTE; t += 5_000) {
      const before = await openUntil();
      await worker.drain();
      if ((await openUntil()) > before) break;
      worker.advance(5_000);
    }
    sandbox().faults.clear();
    const back = clock.now.getTime();
    for (let t = 0; t < 3 * MINUTE && (await states()).join() !== "created"; t += 5_000) {
      worker.advance(5_000);
      await worker.drain();
    }
    expect(await states()).toEqual(["created"]);
    const last = await prisma.deliveryEvent.aggregate({
      where: { shop, kind: "created" },
      _max: { at: true },
    });
    expect(last._max.at!.getTime() - back).toBeLessThanOrEqual(MINUTE);
    expect(sandbox().orders.size).toBe(count);
  }, 60_000);

  it("says on each delivery's page, after half an hour of outage, that it waits for the courier", async () => {
    await readyDeliveries(2);
    sandbox().faults.add({ endpoint: "*", kind: "error", status: 503, probability: 1 });
    const worker = testWorker({ clock, timeoutMs: 15_000 });
    await runFor(worker, 35, MINUTE);
    for (const waiting of await prisma.delivery.findMany({ where: { shop } })) {
      const page = await deliveryPage(shop, waiting.id, clock.now);
      expect(page?.waitingLong?.kind).toBe("courier_down");
      expect(clock.now.getTime() - Date.parse(page!.waitingLong!.since)).toBeGreaterThanOrEqual(
        LONG_WAIT_MS,
      );
    }
  }, 60_000);

  it("asks at most twice a minute per delivery while only its creates fail", async () => {
    const count = 10;
    await readyDeliveries(count);
    sandbox().faults.add({ endpoint: "createBulk", kind: "error", status: 503, probability: 1 });
    sandbox().faults.add({ endpoint: "createOrder", kind: "error", status: 503, probability: 1 });
    const worker = testWorker({ clock, timeoutMs: 15_000 });
    const calls = await runFor(worker, 5, 5_000);
    expect(calls / count / 5).toBeLessThanOrEqual(2);
    expect(await parked()).toBe(0);

    sandbox().faults.clear();
    await worker.settle();
    expect(await states()).toEqual(["created"]);
    expect(sandbox().orders.size).toBe(count);
  });

  it("holds back a worker's calls once another worker process's failures opened the circuit", async () => {
    await readyDeliveries(6);
    sandbox().faults.add({ endpoint: "*", kind: "error", status: 503, probability: 1 });
    // Its creates go unanswered, then its history searches: the circuit opens.
    const other = startChildWorker("other-process", [
      "--passes",
      "2",
      "--reconcile-delay-ms",
      "0",
      "--timeout-ms",
      "1000",
    ]);
    expect(await other.exited).toBe(0);
    const circuit = await prisma.courierCircuit.findFirst({
      where: { shop, circuit: "other" },
    });
    expect(circuit?.state).toBe("open");

    await prisma.delivery.updateMany({ where: { shop }, data: { nextAttemptAt: new Date() } });
    const before = sandbox().requestLog.length;
    await testWorker({ owner: "this-process" }).drain();
    expect(sandbox().requestLog.length).toBe(before);
    for (const delivery of await prisma.delivery.findMany({ where: { shop } })) {
      expect(delivery.state).toBe("unknown");
      expect(delivery.lastError).toBe(
        "The courier is not answering; sending resumes by itself when it does.",
      );
    }
  }, 30_000);

  it("answers the merchant's own calls at once while the circuit is open, and counts theirs", async () => {
    // The merchant's report, cancel and "send again" went straight to a courier the worker had
    // stopped calling, and each waited out its timeout (ADR 0049).
    await readyShop(shop);
    const account = { shop, environment: "sandbox" };
    await prisma.courierCircuit.deleteMany({ where: account });
    await prisma.courierCircuit.create({
      data: {
        ...account,
        circuit: "other",
        state: "open",
        failures: 5,
        opens: 1,
        openUntil: new Date(Date.now() + 10 * MINUTE),
      },
    });
    const before = sandbox().requestLog.length;
    const day = new Date().toISOString().slice(0, 10);
    const reports = await courierReports(shop, day, day);
    expect(reports.connected && reports.reportError?.code).toBe("courier_not_answering");
    expect(reports.connected && reports.historyError?.code).toBe("courier_not_answering");
    expect(sandbox().requestLog.length).toBe(before);

    // Closed again: a merchant's call the courier does not answer counts toward opening it.
    await prisma.courierCircuit.deleteMany({ where: account });
    sandbox().faults.add({ endpoint: "*", kind: "error", status: 503, probability: 1 });
    const failing = await courierReports(shop, day, day);
    expect(failing.connected && failing.reportError?.code).toBe("courier_not_answering");
    const counted = await prisma.courierCircuit.findFirst({
      where: { ...account, circuit: "other" },
    });
    expect(counted?.failures).toBeGreaterThan(0);
    sandbox().faults.clear();
  });
});
