/**
 * Issue 11's Shopify-side faults, against the Shopify stand-in (its real cost bucket: 2,000
 * points, 100 restored a second) and the courier sandbox, both on the worker's simulated clock:
 * fulfillments whose webhook is dropped and the check that finds them (ADR 0013), a 500-order
 * burst (ADR 0014), and the worker stopping right after Shopify took a tracking number.
 */
import prisma from "../../app/db.server";
import type { AdminGraphql } from "../../app/shopify/graphql";
import { startStandInShop } from "../../test/support/standin-shop";
import { courierBench, parkedOf, statesOf, type Log } from "../support/fault-courier";

const BATCH = 50;
const DROPPED = 10;
const BURST = 500;
const CRASHES = 20;
const PARKED = ["needs_review", "needs_attention", "rejected"];

export async function missedWebhooks(log: Log): Promise<Record<string, number>> {
  // Loaded here: the scenarios below also run against main's code, which has no check.
  const { CHECK_EVERY_MS, runDueFulfillmentChecks } =
    await import("../../app/pipeline/fulfillment-check.server");
  const bench = await courierBench();
  const shopify = await startStandInShop("faults-missed", bench.clock);
  try {
    const worker = bench.worker({ owner: "missed" });
    await runDueFulfillmentChecks(worker.deps);
    shopify.standIn.webhooks.dropNext(DROPPED, "fulfillments/create");
    for (let i = 0; i < BATCH; i += 1) shopify.fulfilNewOrder();
    await shopify.standIn.webhooks.flush();
    await worker.settle();
    const before = await prisma.delivery.count({ where: { shop: shopify.shop } });
    log(
      `${BATCH} fulfillments, ${DROPPED} webhooks dropped: ${before} deliveries before the check`,
    );
    bench.clock.now = new Date(bench.clock.now.getTime() + CHECK_EVERY_MS);
    const found = (await runDueFulfillmentChecks(worker.deps)).get(shopify.shop);
    const recovered = found instanceof Error || !found ? 0 : found.recovered;
    await worker.settle();
    for (const dropped of shopify.standIn.webhooks.of("fulfillments/create"))
      if (dropped.state === "dropped") await shopify.standIn.webhooks.redeliver(dropped.webhookId);
    await worker.settle();
    const rows = await prisma.delivery.count({ where: { shop: shopify.shop } });
    const created = await prisma.delivery.count({
      where: { shop: shopify.shop, courierOrderId: { not: null } },
    });
    log(
      `after the check: ${recovered} recorded; after the late webhooks: ${rows} deliveries, ${created} created at the courier (${await statesOf(shopify.shop)})`,
    );
    return {
      missedWebhooks: DROPPED,
      missedWebhooksRecovered: recovered,
      missedWebhooksRecordedTwice: rows - BATCH,
    };
  } finally {
    await shopify.close();
    await bench.close();
  }
}

export async function shopifyThrottling(log: Log): Promise<Record<string, number>> {
  const bench = await courierBench();
  const shopify = await startStandInShop("faults-burst", bench.clock);
  try {
    for (let i = 0; i < BURST; i += 1) shopify.fulfilNewOrder();
    await shopify.standIn.webhooks.flush();
    const started = bench.clock.now.getTime();
    const wall = performance.now();
    // The worker's loop on Shopify's clock: a second at a time, or on to the next delivery due,
    // until each is done or waits for the merchant (at most 4 simulated hours).
    const worker = bench.worker({ owner: "burst" });
    const open = { shop: shopify.shop, trackingPushedAt: null, state: { notIn: PARKED } };
    while (bench.clock.now.getTime() - started < 4 * 3_600_000) {
      await worker.drain();
      if ((await prisma.delivery.count({ where: open })) === 0) break;
      const next = await prisma.delivery.findFirst({
        where: { ...open, nextAttemptAt: { gt: bench.clock.now } },
        orderBy: { nextAttemptAt: "asc" },
      });
      const step = Math.max(
        1_000,
        (next?.nextAttemptAt?.getTime() ?? 0) - bench.clock.now.getTime(),
      );
      worker.advance(step);
    }
    const calls = shopify.standIn.store.graphqlLog;
    const throttled = calls.filter((c) => c.outcome === "throttled").length;
    const parked = await parkedOf(shopify.shop);
    const tracked = await prisma.delivery.count({
      where: { shop: shopify.shop, trackingPushedAt: { not: null } },
    });
    const requested = Math.max(
      ...calls
        .filter((c) => c.operationName === "DeliveryFulfillment")
        .map((c) => c.requestedQueryCost ?? 0),
    );
    log(
      `${BURST} orders: ${tracked} with tracking on Shopify, ${parked} waiting for the merchant; ${throttled} of ${calls.length} Admin calls throttled; DeliveryFulfillment requests ${requested} points; ${Math.round((bench.clock.now.getTime() - started) / 1000)} s simulated (${((performance.now() - wall) / 1000).toFixed(1)} s wall)`,
    );
    return {
      throttledParked: parked,
      throttledOrders: BURST,
      throttledAdminCalls: throttled,
      deliveryFulfillmentRequestedCost: requested,
    };
  } finally {
    await shopify.close();
    await bench.close();
  }
}

/**
 * The worker stops the moment Shopify has taken a tracking number (its reply never arrives, its
 * commit never happens), `CRASHES` times; another worker takes each delivery once the lease lapses.
 */
export async function trackingCrashes(log: Log): Promise<Record<string, number>> {
  const bench = await courierBench();
  const shopify = await startStandInShop("faults-tracking", bench.clock);
  try {
    for (let i = 0; i < CRASHES; i += 1) shopify.fulfilNewOrder();
    await shopify.standIn.webhooks.flush();
    const dying = bench.worker({ owner: "dies-after-shopify" });
    const adminFor = dying.deps.adminFor;
    let writes = 0;
    dying.deps.adminFor = async (shop): Promise<AdminGraphql> => {
      const admin = await adminFor(shop);
      return {
        async graphql(query, options) {
          const response = await admin.graphql(query, options);
          if (!query.includes("DeliveryTrackingUpdate")) return response;
          writes += 1;
          return new Promise<Response>(() => undefined);
        },
      };
    };
    void dying.settle();
    for (let i = 0; i < 2_000 && writes < CRASHES; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    bench.clock.now = new Date(bench.clock.now.getTime() + 10 * 60_000);
    await bench.worker({ owner: "takes-over" }).settle();
    const counts = [...shopify.trackingWrites().values()];
    const rewrites = counts.reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    const tracked = await prisma.delivery.count({
      where: { shop: shopify.shop, trackingPushedAt: { not: null } },
    });
    log(
      `${writes} stops right after Shopify took the tracking number: ${tracked} recorded by the next worker, ${rewrites} written again`,
    );
    return { trackingCrashes: writes, trackingRewritesAfterCrash: rewrites };
  } finally {
    await shopify.close();
    await bench.close();
  }
}
