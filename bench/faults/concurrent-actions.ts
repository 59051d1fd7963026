/**
 * Concurrent merchant actions (issue 24): ten "Send again" clicks at once on each of 20 deliveries
 * the courier rejected, through what the delivery page's action calls (the route itself needs
 * Vite's module loader). A click that met the delivery moved by another must be answered in words;
 * a thrown error is what the route answers 500. Figures: server errors, courier orders beyond one per delivery.
 */
import prisma from "../../app/db.server";
import { retryDelivery } from "../../app/actions/retry.server";
import { courierBench, duplicatesOf, readyDeliveries, type Log } from "../support/fault-courier";

const DELIVERIES = 20;
const CLICKS = 10;

export async function run(log: Log): Promise<Record<string, number>> {
  const bench = await courierBench();
  try {
    const shop = await readyDeliveries(bench, "concurrent-clicks", DELIVERIES);
    // The shop's ready deliveries go out in one create-bulk call (ADR 0024), then, refused as a
    // whole, one by one: the courier refuses each.
    bench.sandbox.faults.add({ endpoint: "createBulk", kind: "error", status: 400 });
    bench.sandbox.faults.add({
      endpoint: "createOrder",
      kind: "error",
      status: 400,
      times: DELIVERIES,
    });
    await bench.worker({ owner: "rejects" }).settle();
    const rejected = await prisma.delivery.findMany({ where: { shop, state: "rejected" } });
    let serverErrors = 0;
    let answered = 0;
    const admin = await bench.worker().deps.adminFor(shop);
    const click = async (id: string) => {
      try {
        await retryDelivery(shop, admin, id);
        answered += 1;
      } catch {
        serverErrors += 1;
      }
    };
    await Promise.all(rejected.flatMap((d) => Array.from({ length: CLICKS }, () => click(d.id))));
    await bench.worker({ owner: "sends-again" }).settle();
    const duplicates = await duplicatesOf(bench, shop);
    const created = await prisma.delivery.count({ where: { shop, courierOrderId: { not: null } } });
    log(
      `${rejected.length} rejected deliveries × ${CLICKS} simultaneous Send again: ${answered} answered in words, ${serverErrors} server errors; ${created} created at the courier, ${duplicates.all} duplicate orders`,
    );
    return { concurrentRetryServerErrors: serverErrors, concurrentRetryDuplicates: duplicates.all };
  } finally {
    await bench.close();
  }
}
