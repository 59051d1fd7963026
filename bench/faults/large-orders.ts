/**
 * Issue 24 (3): orders of 250 and 1,000 line items fulfilled on the Shopify stand-in (its real
 * cost bucket: 2,000 points, 100 restored a second) with nothing else in the shop, the worker's
 * loop on the simulated clock for at most 30 simulated minutes each. Figures: the largest order
 * created at the courier, and for each size the Admin API points requested and the simulated
 * seconds until its tracking was on Shopify (or the 30 minutes, when it never got there).
 */
import prisma from "../../app/db.server";
import { startStandInShop } from "../../test/support/standin-shop";
import { courierBench, statesOf, type Log } from "../support/fault-courier";

const SIZES = [250, 1_000];
const LIMIT_MS = 30 * 60_000;

export async function run(log: Log): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  let largestSent = 0;
  for (const size of SIZES) {
    const bench = await courierBench();
    const shopify = await startStandInShop(`faults-large-${size}`, bench.clock);
    try {
      const { fulfillmentId } = shopify.fulfilNewOrder({
        lineItems: Array.from({ length: size }, (_, i) => ({
          title: `Item ${i + 1}`,
          quantity: 1,
          price: "1.250",
          grams: 200,
        })),
      });
      await shopify.standIn.webhooks.flush();
      const started = bench.clock.now.getTime();
      const wall = performance.now();
      const worker = bench.worker({ owner: `large-${size}` });
      const where = { shop: shopify.shop, fulfillmentId };
      // The worker's loop on Shopify's clock: on to the delivery's next attempt, at least a second.
      while (bench.clock.now.getTime() - started < LIMIT_MS) {
        await worker.drain();
        const row = await prisma.delivery.findFirstOrThrow({ where });
        if (
          row.trackingPushedAt ||
          !["pending", "ready", "creating", "unknown", "created"].includes(row.state)
        )
          break;
        const wait = (row.nextAttemptAt?.getTime() ?? 0) - bench.clock.now.getTime();
        worker.advance(Math.max(1_000, wait));
      }
      const row = await prisma.delivery.findFirstOrThrow({ where });
      const calls = shopify.standIn.store.graphqlLog;
      const requested = calls.reduce((sum, c) => sum + (c.requestedQueryCost ?? 0), 0);
      const throttled = calls.filter((c) => c.outcome === "throttled").length;
      const seconds = Math.round((bench.clock.now.getTime() - started) / 1000);
      const created = row.courierOrderId !== null;
      if (created) largestSent = Math.max(largestSent, size);
      log(
        `${size} line items: ${created ? `created at the courier, tracking ${row.trackingPushedAt ? "on Shopify" : "not on Shopify"}` : `not created (${await statesOf(shopify.shop)}, ${row.failures} failures, "${row.lastError ?? ""}")`}; ${calls.length} Admin calls (${throttled} throttled), ${requested} points requested; ${seconds} s simulated (${((performance.now() - wall) / 1000).toFixed(1)} s wall)`,
      );
      figures[`largeOrder${size}PointsRequested`] = requested;
      figures[`largeOrder${size}SimulatedSeconds`] = seconds;
    } finally {
      await shopify.close();
      await bench.close();
    }
  }
  return { largeOrderLineItemsSent: largestSent, ...figures };
}
