/**
 * A real worker process paused (SIGSTOP) past its 2 s lease while it sends a create — before the
 * request leaves, and inside the HTTP call — once for one delivery and once for a batch of three;
 * another worker takes the deliveries over and creates them; then the paused one is resumed
 * (ADR 0017). Figure: courier orders beyond one per delivery that are still live.
 */
import { startChildWorker } from "../../test/support/child-worker";
import { courierBench, duplicatesOf, readyDeliveries, type Log } from "../support/fault-courier";

const RUNS = [
  { pause: "before-send", count: 1 },
  { pause: "before-send", count: 3 },
  { pause: "in-send", count: 1 },
  { pause: "in-send", count: 3 },
] as const;

export async function run(log: Log): Promise<Record<string, number>> {
  const bench = await courierBench();
  try {
    let live = 0;
    let cancelled = 0;
    for (const { pause, count } of RUNS) {
      const shop = await readyDeliveries(bench, `paused-${pause}-${count}`, count);
      const paused = startChildWorker(`paused-${pause}-${count}`, [
        "--pause",
        pause,
        "--lease-ms",
        "2000",
        "--timeout-ms",
        pause === "in-send" ? "30000" : "1000",
      ]);
      await paused.printed(`paused ${pause}`);
      await paused.stopped();
      const pausedAt = Date.now();
      const other = bench.worker({ owner: `other-${pause}-${count}`, reconcileDelayMs: 5_000 });
      other.advance(10 * 60_000);
      await other.settle(100);
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, pausedAt + 1_000 - Date.now())),
      );
      paused.signal("SIGCONT");
      await paused.exited;
      const duplicates = await duplicatesOf(bench, shop);
      live += duplicates.live;
      cancelled += duplicates.all - duplicates.live;
      log(
        `paused ${pause.replace("-", " ")}, ${count} ${count === 1 ? "delivery" : "deliveries"}: ` +
          `${duplicates.all + count} courier orders, ${duplicates.live} live duplicates, ` +
          `${duplicates.all - duplicates.live} cancelled by the late worker`,
      );
    }
    return { duplicatesPausedWorker: live, pausedWorkerDuplicatesCancelled: cancelled };
  } finally {
    await bench.close();
  }
}
