import { beforeEach, describe, expect, it } from "vitest";
import { buildCreateOrderBody, createCourierClient } from "../../app/courier";
import prisma from "../../app/db.server";
import { runDueDeliveries } from "../../app/pipeline/worker.server";
import { MAX_STEP_FAILURES } from "../../app/domain/lease-policy";
import { notesCarryReference } from "../../app/domain/request";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { orderInput } from "../courier/fixtures";
import { SANDBOX_KEY, setUpCourierSandbox } from "../support/courier-sandbox";
import { testDatabaseName } from "../support/database";
import {
  fulfillmentPayload,
  programShopify,
  readyShop,
  testWorker,
  type FakeOrder,
} from "../support/pipeline";
import { callRoute, shopDomain, webhookRequest } from "../support/shopify";

// Creates whose outcome the worker does not learn from the reply, reconciled through the courier's
// history (ADR 0018): a courier that records orders some seconds after answering, and a history
// with many other orders whose notes contain the reference. The sandbox and the worker share one
// simulated clock. Runs on SQLite and on PostgreSQL.

const database = testDatabaseName();
const shop = shopDomain("unknown-outcomes");
const clock = { now: new Date() };
const sandbox = setUpCourierSandbox({ clock: () => clock.now.getTime() });
beforeEach(() => {
  clock.now = new Date();
});
const orders: FakeOrder[] = [0, 1, 2].map((i) => ({
  fulfillmentNumber: 12 + i,
  orderNumber: 7501 + i,
  city: "Salmiya",
  address1: "Block 10, Street 5, House 12",
  provinceCode: "KW-HA",
}));

async function readyDeliveries(count: number) {
  await readyShop(shop);
  programShopify(orders.slice(0, count));
  for (const order of orders.slice(0, count)) {
    await callRoute(
      fulfillmentsCreate,
      webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(order) }),
    );
  }
  // Recorded on the real clock: the simulated one starts from there.
  clock.now = new Date();
  await runDueDeliveries(testWorker({ clock }).deps, 20);
  const rows = await prisma.delivery.findMany({ where: { shop }, orderBy: { reference: "asc" } });
  expect(rows.map((d) => d.state)).toEqual(Array(count).fill("ready"));
  return rows;
}

/** Orders of other deliveries, newer, whose notes contain `reference` inside a longer one. */
async function newerOrdersContaining(reference: string, count: number) {
  const client = createCourierClient({ baseUrl: sandbox().url, apiKey: SANDBOX_KEY });
  for (let i = 0; i < count; i += 50) {
    clock.now = new Date(clock.now.getTime() + 1_000);
    await client.createBulk(
      Array.from({ length: Math.min(50, count - i) }, (_, j) =>
        buildCreateOrderBody(
          orderInput(sandbox(), { notes: `${reference}${i + j} · Shopify order #${i + j}` }),
        ),
      ),
    );
  }
}

const creates = () =>
  sandbox().requestLog.filter((r) => r.endpoint === "createOrder" || r.endpoint === "createBulk");
const ordersFor = (reference: string) =>
  [...sandbox().orders.values()].filter((o) => notesCarryReference(o.request.notes, reference));

describe(`a courier that records orders after answering (${database})`, () => {
  it("creates each order of a batch once when the courier records it 20 s after a gateway error", async () => {
    await readyDeliveries(3);
    sandbox().faults.add({
      endpoint: "createBulk",
      kind: "commitLate",
      commitAfterMs: 20_000,
      status: 504,
    });
    // The production time limit: the 504 comes at once, nothing waits for it.
    await testWorker({ clock, timeoutMs: 15_000 }).settle();

    const rows = await prisma.delivery.findMany({ where: { shop } });
    expect(rows.map((d) => d.state)).toEqual(["created", "created", "created"]);
    expect(sandbox().orders.size).toBe(3);
    expect(creates()).toHaveLength(1);
    expect(new Set(rows.map((d) => d.courierOrderId))).toEqual(new Set(sandbox().orders.keys()));
  });

  it("creates the order once when the courier records it 8 s after a 1 s time limit ran out", async () => {
    const [delivery] = await readyDeliveries(1);
    sandbox().faults.add({ endpoint: "createOrder", kind: "commitLate", commitAfterMs: 8_000 });
    await testWorker({ clock, timeoutMs: 1_000 }).settle();

    const row = await prisma.delivery.findUniqueOrThrow({
      where: { id: delivery!.id },
      include: { events: true },
    });
    expect(row.state).toBe("created");
    expect(sandbox().orders.size).toBe(1);
    expect(creates()).toHaveLength(1);
    expect(row.events.map((e) => e.kind)).toEqual(
      expect.arrayContaining(["unknown", "not_in_history", "reconciled"]),
    );
  });
});

describe(`the courier's history, read to the end (${database})`, () => {
  it("finds the order behind 150 newer ones whose notes contain its reference", async () => {
    const [delivery] = await readyDeliveries(1);
    // Created, but the reply is lost.
    sandbox().faults.add({ endpoint: "createOrder", kind: "closeConnection", afterCommit: true });
    const worker = testWorker({ clock, reconcileDelayMs: 5_000 });
    await worker.drain();
    expect((await prisma.delivery.findUniqueOrThrow({ where: { id: delivery!.id } })).state).toBe(
      "unknown",
    );
    await newerOrdersContaining(delivery!.reference, 150);
    await worker.settle();

    const row = await prisma.delivery.findUniqueOrThrow({ where: { id: delivery!.id } });
    expect(row.state).toBe("created");
    expect(ordersFor(delivery!.reference).map((o) => o.orderId)).toEqual([row.courierOrderId]);
  });

  it("waits for the merchant rather than sending again when history ignores paging", async () => {
    const [delivery] = await readyDeliveries(1);
    sandbox().faults.add({ endpoint: "createOrder", kind: "closeConnection" });
    const worker = testWorker({ clock, reconcileDelayMs: 5_000 });
    await worker.drain();
    await newerOrdersContaining(delivery!.reference, 150);
    sandbox().faults.add({ endpoint: "history", kind: "ignorePaging", probability: 1 });
    await worker.settle(3 * MAX_STEP_FAILURES);

    const row = await prisma.delivery.findUniqueOrThrow({ where: { id: delivery!.id } });
    expect(row.state).toBe("needs_review");
    expect(row.stateReason).toMatch(/its history could not tell/);
    expect(ordersFor(delivery!.reference)).toHaveLength(0);
    expect(sandbox().requestLog.filter((r) => r.endpoint === "createOrder")).toHaveLength(1);
  });
});
