/**
 * What the courier-side fault scenarios of bench:faults share (bench/faults/*): a courier sandbox
 * on a simulated clock the worker shares, the Admin API stand-in, a shop ready to send, deliveries
 * recorded through the webhook's intake, and counts read back from the sandbox and the rows.
 * Imported only once the runner has set the app's environment.
 */
import { startCourierSandbox, type CourierSandbox } from "../../sandbox/courier";
import prisma from "../../app/db.server";
import { notesCarryReference } from "../../app/domain/request";
import { fulfillmentWebhook, receiveFulfillment } from "../../app/pipeline/intake.server";
import { runDueDeliveries } from "../../app/pipeline/worker.server";
import { resetEnvForTests } from "../../app/env.server";
import { adminApi } from "../../test/support/admin-api";
import {
  fulfillmentPayload,
  programShopify,
  readyShop,
  testWorker,
  type FakeOrder,
} from "../../test/support/pipeline";
import { SANDBOX_KEY } from "../../test/support/test-env";

export type Log = (line: string) => void;

export interface CourierBench {
  sandbox: CourierSandbox;
  /** The simulated clock of the sandbox and of every worker made with `worker()`. */
  clock: { now: Date };
  worker(overrides?: Parameters<typeof testWorker>[0]): ReturnType<typeof testWorker>;
  close(): Promise<void>;
}

/** A courier sandbox on a simulated clock, the app pointed at it, Shopify's stand-in installed. */
export async function courierBench(): Promise<CourierBench> {
  const clock = { now: new Date() };
  const sandbox = await startCourierSandbox({
    acceptedKeys: [SANDBOX_KEY],
    clock: () => clock.now.getTime(),
  });
  process.env.COURIER_SANDBOX_URL = sandbox.url;
  resetEnvForTests();
  adminApi.install();
  return {
    sandbox,
    clock,
    worker: (overrides = {}) => testWorker({ clock, ...overrides }),
    close: async () => {
      adminApi.uninstall();
      await sandbox.close();
    },
  };
}

let nextFulfillment = 5_000_000;

/**
 * `count` deliveries of a new shop, recorded through the webhook's intake and built (order from
 * Shopify's stand-in, address placed, request ready); returns the shop. `firstFulfillment` fixes
 * the fulfillment ids (so the references), for scenarios about them.
 */
export async function readyDeliveries(
  bench: CourierBench,
  name: string,
  count: number,
  firstFulfillment = (nextFulfillment += 10_000),
): Promise<string> {
  const shop = `${name}.myshopify.com`;
  await readyShop(shop);
  const orders: FakeOrder[] = Array.from({ length: count }, (_, i) => ({
    fulfillmentNumber: firstFulfillment + i,
    orderNumber: firstFulfillment + i,
    city: "Salmiya",
    address1: "Block 10, Street 5, House 12",
    provinceCode: "KW-HA",
  }));
  programShopify(orders);
  for (const order of orders) {
    await receiveFulfillment(shop, fulfillmentWebhook.parse(fulfillmentPayload(order)));
  }
  bench.clock.now = new Date();
  const builder = bench.worker({ owner: `${name}-builder` });
  // One pass over all of them: a second would send the ones it built.
  await runDueDeliveries(builder.deps, count);
  const ready = await prisma.delivery.count({ where: { shop, state: "ready" } });
  if (ready !== count) {
    const stuck = await prisma.delivery.findFirst({ where: { shop, state: { not: "ready" } } });
    throw new Error(
      `${name}: ${ready} of ${count} deliveries were built (${await statesOf(shop)}; ${stuck?.stateReason ?? stuck?.lastError ?? ""})`,
    );
  }
  return shop;
}

/** Courier orders beyond one per delivery of `shop`, live (not cancelled) and all. */
export async function duplicatesOf(bench: CourierBench, shop: string) {
  const rows = await prisma.delivery.findMany({ where: { shop }, select: { reference: true } });
  let live = 0;
  let all = 0;
  for (const { reference } of rows) {
    const orders = [...bench.sandbox.orders.values()].filter((o) =>
      notesCarryReference(o.request.notes, reference),
    );
    all += Math.max(0, orders.length - 1);
    live += Math.max(0, orders.filter((o) => o.status !== "cancelled").length - 1);
  }
  return { live, all };
}

/** How many of `shop`'s deliveries are in each state. */
export async function statesOf(shop: string): Promise<string> {
  const groups = await prisma.delivery.groupBy({
    by: ["state"],
    where: { shop },
    _count: { _all: true },
  });
  return groups.map((g) => `${g.state} ${g._count._all}`).join(", ");
}

/** Deliveries of `shop` waiting for the merchant. */
export function parkedOf(shop: string) {
  return prisma.delivery.count({
    where: { shop, state: { in: ["needs_review", "needs_attention", "rejected"] } },
  });
}
