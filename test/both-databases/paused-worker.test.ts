import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { runDueDeliveries } from "../../app/pipeline/worker.server";
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

// A real worker process paused (SIGSTOP) past its lease while it sends a create, another worker
// taking its deliveries over and creating them, then the paused one resumed (ADR 0017). Runs on
// SQLite and on PostgreSQL.

const database = testDatabaseName();
const shop = shopDomain("paused-worker");
const sandbox = setUpCourierSandbox();
const orders: FakeOrder[] = [0, 1, 2].map((i) => ({
  fulfillmentNumber: 9401 + i,
  orderNumber: 6401 + i,
  city: "Salmiya",
  address1: "Block 10, Street 5, House 12",
  provinceCode: "KW-HA",
}));

/** `count` deliveries built and ready to send, by this process. */
async function readyDeliveries(count: number) {
  await readyShop(shop);
  programShopify(orders.slice(0, count));
  for (const order of orders.slice(0, count)) {
    await callRoute(
      fulfillmentsCreate,
      webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(order) }),
    );
  }
  await runDueDeliveries(testWorker().deps, 20);
  const states = (await prisma.delivery.findMany({ where: { shop } })).map((d) => d.state);
  expect(states).toEqual(Array(count).fill("ready"));
}

/**
 * A worker process with a 2 s lease that stops itself where `pause` says; this process's worker
 * takes its deliveries over once the lease has lapsed and sends them; then it is resumed, at
 * least a second later (longer than its send window), and runs to its end.
 */
async function pausedWhileAnotherSends(pause: "before-send" | "in-send") {
  const paused = startChildWorker("paused-worker", [
    "--pause",
    pause,
    "--lease-ms",
    "2000",
    // Inside the call, a time limit short enough to fire at once on resuming would hide the send.
    "--timeout-ms",
    pause === "in-send" ? "30000" : "1000",
  ]);
  await paused.printed(`paused ${pause}`);
  await paused.stopped();
  const pausedAt = Date.now();

  const other = testWorker({ owner: "other-worker" });
  other.advance(10 * 60_000);
  await other.settle();
  expect(sandbox().orders.size).toBeGreaterThan(0);

  await new Promise((resolve) => setTimeout(resolve, Math.max(0, pausedAt + 1_000 - Date.now())));
  paused.signal("SIGCONT");
  expect(await paused.exited).toBe(0);
  expect(paused.output()).toContain("done");
}

const deliveries = () =>
  prisma.delivery.findMany({
    where: { shop },
    include: { events: true },
    orderBy: { reference: "asc" },
  });
const createCalls = () =>
  sandbox().requestLog.filter((r) => r.endpoint === "createOrder" || r.endpoint === "createBulk");
const live = () => [...sandbox().orders.values()].filter((o) => o.status !== "cancelled");

describe(`a worker paused past its lease (${database})`, () => {
  it("does not send the create it was about to send when it resumes", async () => {
    await readyDeliveries(1);
    await pausedWhileAnotherSends("before-send");

    const [delivery] = await deliveries();
    expect(sandbox().orders.size).toBe(1);
    expect(createCalls()).toHaveLength(1);
    expect(delivery).toMatchObject({
      state: "created",
      courierOrderId: [...sandbox().orders.keys()][0],
    });
    expect(delivery!.events.map((e) => e.kind)).toContain("not_sent");
  }, 150_000);

  it("does not send the batch of three it was about to send when it resumes", async () => {
    await readyDeliveries(3);
    await pausedWhileAnotherSends("before-send");

    expect(sandbox().orders.size).toBe(3);
    expect(createCalls()).toHaveLength(1);
    const rows = await deliveries();
    expect(rows.map((d) => d.state)).toEqual(["created", "created", "created"]);
    expect(new Set(rows.map((d) => d.courierOrderId)).size).toBe(3);
  }, 150_000);

  it("cancels at the courier the order its late create made, and keeps the delivery's own", async () => {
    await readyDeliveries(1);
    await pausedWhileAnotherSends("in-send");

    const [delivery] = await deliveries();
    expect(sandbox().orders.size).toBe(2);
    expect(live().map((o) => o.orderId)).toEqual([delivery!.courierOrderId]);
    const duplicate = [...sandbox().orders.values()].find((o) => o.status === "cancelled")!;
    const told = delivery!.events.find((e) => e.kind === "duplicate_cancelled");
    expect(told?.message).toContain(duplicate.orderNumber);
    expect(told?.message).toContain(`The delivery's order is ${delivery!.courierOrderNumber}.`);
  }, 150_000);

  it("cancels each order its late batch made, and keeps the deliveries' own", async () => {
    await readyDeliveries(3);
    await pausedWhileAnotherSends("in-send");

    const rows = await deliveries();
    expect(sandbox().orders.size).toBe(6);
    expect(
      live()
        .map((o) => o.orderId)
        .sort(),
    ).toEqual(rows.map((d) => d.courierOrderId).sort());
    for (const row of rows)
      expect(row.events.filter((e) => e.kind === "duplicate_cancelled")).toHaveLength(1);
  }, 150_000);
});
