/**
 * A courier that records orders after answering (ADR 0018): 200 deliveries whose creates it
 * answers with a gateway's 504 at once and records 20 s later (the production 15 s time limit), and
 * 200 whose creates it leaves unanswered past a 1 s time limit and records 8 s after receipt. The
 * worker and the sandbox share a simulated clock. Figure: courier orders beyond one per delivery.
 */
import {
  courierBench,
  duplicatesOf,
  readyDeliveries,
  statesOf,
  type Log,
} from "../support/fault-courier";

const DELIVERIES = 200;

const CASES = [
  { name: "late-commit-20s", commitAfterMs: 20_000, status: 504, timeoutMs: 15_000 },
  { name: "late-commit-8s", commitAfterMs: 8_000, status: undefined, timeoutMs: 1_000 },
] as const;

export async function run(log: Log): Promise<Record<string, number>> {
  const bench = await courierBench();
  try {
    let duplicates = 0;
    for (const { name, commitAfterMs, status, timeoutMs } of CASES) {
      const shop = await readyDeliveries(bench, name, DELIVERIES);
      for (const endpoint of ["createOrder", "createBulk"] as const)
        bench.sandbox.faults.add({
          endpoint,
          kind: "commitLate",
          commitAfterMs,
          probability: 1,
          ...(status ? { status } : {}),
        });
      const started = performance.now();
      await bench
        .worker({ owner: name, timeoutMs, reconcileDelayMs: 5_000 })
        .settle(DELIVERIES * 2);
      bench.sandbox.faults.clear();
      const found = await duplicatesOf(bench, shop);
      duplicates += found.live;
      log(
        `${DELIVERIES} deliveries, recorded ${commitAfterMs / 1000} s after ${status ? `a ${status}` : `no answer within ${timeoutMs / 1000} s`}: ` +
          `${found.live} duplicates (${await statesOf(shop)}; ${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
    }
    return { duplicatesLateCommit: duplicates, lateCommitDeliveries: DELIVERIES * CASES.length };
  } finally {
    await bench.close();
  }
}
