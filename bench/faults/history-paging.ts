/**
 * Reconciling through a long history (ADR 0018): 20 deliveries created at the courier whose
 * replies were lost, then 120 newer orders per delivery whose notes contain its reference inside
 * a longer one (`…-7` in `…-71003`), so each delivery's own order is on the history search's
 * third page. Figure: courier orders beyond one per delivery.
 */
import { buildCreateOrderBody, createCourierClient } from "../../app/courier";
import { orderInput } from "../../test/courier/fixtures";
import { SANDBOX_KEY } from "../../test/support/test-env";
import {
  courierBench,
  duplicatesOf,
  readyDeliveries,
  statesOf,
  type Log,
} from "../support/fault-courier";

const DELIVERIES = 20;
const NEWER_PER_DELIVERY = 120;

export async function run(log: Log): Promise<Record<string, number>> {
  const bench = await courierBench();
  try {
    const shop = await readyDeliveries(bench, "history-paging", DELIVERIES, 1);
    // Created, but every reply is lost; nothing is looked up until the newer orders exist.
    bench.sandbox.faults.add({
      endpoint: "*",
      kind: "closeConnection",
      afterCommit: true,
      probability: 1,
    });
    await bench.worker({ owner: "history-paging", reconcileDelayMs: 60_000 }).drain();
    bench.sandbox.faults.clear();

    const client = createCourierClient({ baseUrl: bench.sandbox.url, apiKey: SANDBOX_KEY });
    for (let id = 1; id <= DELIVERIES; id += 1) {
      bench.clock.now = new Date(bench.clock.now.getTime() + 1_000);
      for (let k = 0; k < NEWER_PER_DELIVERY; k += 50) {
        await client.createBulk(
          Array.from({ length: Math.min(50, NEWER_PER_DELIVERY - k) }, (_, j) =>
            buildCreateOrderBody(
              orderInput(bench.sandbox, {
                notes: `SHPFY-history-paging-${id}${1000 + k + j} · Shopify order #${k + j}`,
              }),
            ),
          ),
        );
      }
    }
    await bench.worker({ owner: "history-paging", reconcileDelayMs: 5_000 }).settle(200);
    const found = await duplicatesOf(bench, shop);
    const searches = bench.sandbox.requestLog.filter((r) => r.endpoint === "history").length;
    log(
      `${DELIVERIES} deliveries behind ${NEWER_PER_DELIVERY} newer matching orders each: ${found.live} duplicates, ` +
        `${(searches / DELIVERIES).toFixed(1)} history pages read per delivery (${await statesOf(shop)})`,
    );
    return { duplicatesHistoryPaging: found.live };
  } finally {
    await bench.close();
  }
}
