/**
 * A courier that does not answer, on a simulated clock (ADR 0019). 300 deliveries while every call
 * fails with a 503 for 45 minutes, then the courier answers again; and 300 while only its creates
 * fail, for 5 minutes. Figures: deliveries waiting for the merchant once the courier is back, how
 * long after its return the last delivery is created, and courier calls per delivery per minute
 * while only creates fail (and while everything fails).
 */
import prisma from "../../app/db.server";
import {
  courierBench,
  duplicatesOf,
  parkedOf,
  readyDeliveries,
  statesOf,
  type CourierBench,
  type Log,
} from "../support/fault-courier";

const DELIVERIES = 300;
const MINUTE = 60_000;

/** The worker run every `stepMs` of simulated time for `minutes`; the courier calls made. */
async function runFor(
  bench: CourierBench,
  worker: ReturnType<CourierBench["worker"]>,
  minutes: number,
  stepMs: number,
  until?: () => Promise<boolean>,
) {
  const before = bench.sandbox.requestLog.length;
  let elapsed = 0;
  for (; elapsed < minutes * MINUTE; elapsed += stepMs) {
    await worker.drain(100);
    if (until && (await until())) break;
    worker.advance(stepMs);
  }
  return { calls: bench.sandbox.requestLog.length - before, minutes: elapsed / MINUTE };
}

/**
 * Runs the worker every 5 s of simulated time until a trial call on `shop`'s circuit for calls
 * other than creates fails: the deliveries of a long outage all wait on history searches.
 */
async function untilTrialFails(worker: ReturnType<CourierBench["worker"]>, shop: string) {
  const openUntil = async () =>
    (
      await prisma.courierCircuit.findFirst({
        where: { shop, circuit: "other" },
        select: { openUntil: true },
      })
    )?.openUntil?.getTime() ?? 0;
  for (let elapsed = 0; elapsed < 10 * MINUTE; elapsed += 5_000) {
    const before = await openUntil();
    await worker.drain(100);
    if ((await openUntil()) > before) return;
    worker.advance(5_000);
  }
  throw new Error(
    `no trial call failed in 10 simulated minutes (${await statesOf(shop)}; ${JSON.stringify(await prisma.courierCircuit.findMany({ where: { shop } }))})`,
  );
}

export async function run(log: Log): Promise<Record<string, number>> {
  const bench = await courierBench();
  try {
    const full = await readyDeliveries(bench, "outage-everything", DELIVERIES);
    bench.sandbox.faults.add({ endpoint: "*", kind: "error", status: 503, probability: 1 });
    const worker = bench.worker({ owner: "outage", timeoutMs: 15_000, reconcileDelayMs: 5_000 });
    const down = await runFor(bench, worker, 45, MINUTE);
    const parkedDuring = await parkedOf(full);
    // The courier comes back at the worst moment: just after a trial call failed, when the
    // circuit has opened again for its longest.
    await untilTrialFails(worker, full);
    bench.sandbox.faults.clear();
    const recoveredAt = bench.clock.now.getTime();
    const allCreated = async () =>
      (await prisma.delivery.count({ where: { shop: full, state: "created" } })) === DELIVERIES;
    // Passes every 5 s of simulated time, as the drain loop's are every few seconds.
    const back = await runFor(bench, worker, 60, 5_000, allCreated);
    const resumed = await allCreated();
    const lastCreated = await prisma.deliveryEvent.aggregate({
      where: { shop: full, kind: "created" },
      _max: { at: true },
    });
    const recoverySeconds =
      resumed && lastCreated._max.at
        ? Math.round((lastCreated._max.at.getTime() - recoveredAt) / 1000)
        : -1;
    const parkedAfter = await parkedOf(full);
    const fullDuplicates = await duplicatesOf(bench, full);
    const fullRate = down.calls / DELIVERIES / 45;
    log(
      `${DELIVERIES} deliveries, every call failing for 45 min: ${down.calls} courier calls ` +
        `(${fullRate.toFixed(3)} per delivery per minute), ${parkedDuring} waiting for the merchant`,
    );
    log(
      `  courier back: ${resumed ? `the last created ${recoverySeconds} simulated s later` : `not all created ${back.minutes} simulated min later`}, ` +
        `${parkedAfter} waiting for the merchant, ${fullDuplicates.live} duplicates (${await statesOf(full)})`,
    );

    const creates = await readyDeliveries(bench, "outage-creates", DELIVERIES);
    for (const endpoint of ["createOrder", "createBulk"] as const)
      bench.sandbox.faults.add({ endpoint, kind: "error", status: 503, probability: 1 });
    const createsWorker = bench.worker({
      owner: "outage-creates",
      timeoutMs: 15_000,
      reconcileDelayMs: 5_000,
    });
    const failing = await runFor(bench, createsWorker, 5, 5_000);
    const createsRate = failing.calls / DELIVERIES / 5;
    const parkedCreates = await parkedOf(creates);
    bench.sandbox.faults.clear();
    await createsWorker.settle(DELIVERIES);
    const createsDuplicates = await duplicatesOf(bench, creates);
    log(
      `${DELIVERIES} deliveries, only creates failing for 5 min: ${failing.calls} courier calls ` +
        `(${createsRate.toFixed(3)} per delivery per minute); after: ${createsDuplicates.live} duplicates (${await statesOf(creates)})`,
    );
    return {
      outageParkedForMerchant: parkedAfter + (await parkedOf(creates)),
      outageParkedWhileDown: parkedDuring + parkedCreates,
      outageCourierCallsPerDeliveryPerMinute: Math.round(createsRate * 1000) / 1000,
      outageAllFailingCallsPerDeliveryPerMinute: Math.round(fullRate * 1000) / 1000,
      // Simulated seconds from the courier's return until the last delivery was created (-1: never).
      outageRecoverySeconds: recoverySeconds,
      outageDuplicates: fullDuplicates.live + createsDuplicates.live,
    };
  } finally {
    await bench.close();
  }
}
