import { describe, expect, it, vi } from "vitest";
import prisma from "../../app/db.server";
import { cancelDelivery } from "../../app/actions/cancel.server";
import { runDueDeliveries } from "../../app/pipeline/worker.server";
import { leaseMsFor, MAX_STEP_FAILURES } from "../../app/domain/lease-policy";
import { action as cancelAction } from "../../app/routes/app.deliveries.$id.cancel";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { action as fulfillmentsUpdate } from "../../app/routes/webhooks.fulfillments.update";
import { action as ordersCancelled } from "../../app/routes/webhooks.orders.cancelled";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import {
  fulfillmentPayload,
  programShopify,
  readyShop,
  testWorker,
  type FakeOrder,
} from "../support/pipeline";
import { adminFetchRequest, callRoute, shopDomain, webhookRequest } from "../support/shopify";

const shop = shopDomain("cancels");
const sandbox = setUpCourierSandbox();
const order: FakeOrder = {
  fulfillmentNumber: 9101,
  orderNumber: 5101,
  city: "Salmiya",
  address1: "Block 1 Street 2 House 3",
  provinceCode: "KW-HA",
};

async function createdDelivery() {
  await readyShop(shop);
  programShopify([order]);
  await callRoute(
    fulfillmentsCreate,
    webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(order) }),
  );
  await testWorker().drain();
  const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
  expect(delivery.state).toBe("created");
  return delivery;
}

const row = (id: string) => prisma.delivery.findUniqueOrThrow({ where: { id } });
const cancels = () => sandbox().requestLog.filter((r) => r.endpoint === "cancel");
const creates = () => sandbox().requestLog.filter((r) => r.endpoint === "createOrder");

function shopifyCancelsFulfillment(webhookId?: string) {
  const payload = { ...fulfillmentPayload(order), status: "cancelled" };
  return callRoute(
    fulfillmentsUpdate,
    webhookRequest({ topic: "fulfillments/update", shop, payload, webhookId }),
  );
}

async function receive() {
  await readyShop(shop);
  programShopify([order]);
  await callRoute(
    fulfillmentsCreate,
    webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(order) }),
  );
}

/** The cancel dialog's "Cancel delivery", keeping the Shopify fulfillment. */
const cancelFromApp = async (id: string) => {
  const answer = await (
    await callRoute(
      cancelAction,
      await adminFetchRequest(shop, `/app/deliveries/${id}/cancel`, {
        form: { intent: "cancel", fulfillment: "keep" },
      }),
      { id },
    )
  ).json();
  return answer.ok
    ? { ok: true, state: answer.state, ...(answer.message ? { message: answer.message } : {}) }
    : answer;
};

describe("cancelling deliveries", () => {
  it("cancels at the courier from the app while it has not been picked up", async () => {
    const delivery = await createdDelivery();
    expect(await cancelFromApp(delivery.id)).toEqual({ ok: true, state: "cancelled" });
    expect((await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).state).toBe(
      "cancelled",
    );
    expect(sandbox().requestLog.filter((r) => r.endpoint === "cancel")).toHaveLength(1);
    expect(sandbox().orders.get(delivery.courierOrderId!)?.status).toMatch(/cancel/i);
  });

  it("tells the merchant when the courier no longer allows it", async () => {
    const delivery = await createdDelivery();
    sandbox().advance(delivery.courierOrderId!, "picked_up");
    const outcome = await cancelFromApp(delivery.id);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toEqual({ code: "cancel_refused", params: {} });
    const after = await prisma.delivery.findUniqueOrThrow({
      where: { id: delivery.id },
      include: { events: true },
    });
    expect(after.state).toBe("created");
    expect(after.events.map((e) => e.kind)).toContain("cancel_refused");
  });

  it("records a fulfillment cancelled in Shopify at once, for the worker to cancel at the courier", async () => {
    const delivery = await createdDelivery();
    const response = await shopifyCancelsFulfillment();
    expect(response.status).toBe(200);
    expect(cancels()).toHaveLength(0);
    expect(await row(delivery.id)).toMatchObject({
      cancelRequestedAt: expect.any(Date),
      cancelReason: "the fulfillment was cancelled in Shopify",
    });
    await testWorker().drain();
    expect(await row(delivery.id)).toMatchObject({ state: "cancelled", cancelRequestedAt: null });
    expect(cancels()).toHaveLength(1);
  });

  it("asks the courier once when Shopify redelivers the cancellation", async () => {
    const delivery = await createdDelivery();
    sandbox().advance(delivery.courierOrderId!, "picked_up");
    const payload = { ...fulfillmentPayload(order), status: "cancelled" };
    for (let i = 0; i < 3; i += 1) {
      const request = webhookRequest({
        topic: "fulfillments/update",
        shop,
        payload,
        webhookId: "cancel-once",
      });
      expect((await callRoute(fulfillmentsUpdate, request)).status).toBe(200);
      await testWorker().drain();
    }
    expect(cancels()).toHaveLength(1);
    // The courier said no: the merchant is told, and the request does not linger.
    expect(await row(delivery.id)).toMatchObject({
      state: "created",
      cancelRequestedAt: null,
      stateReason: expect.stringMatching(/^Not cancelled: The courier refused to cancel/),
    });
  });

  it("follows an order cancelled in Shopify", async () => {
    const delivery = await createdDelivery();
    const payload = {
      id: order.orderNumber,
      admin_graphql_api_id: `gid://shopify/Order/${order.orderNumber}`,
    };
    await callRoute(ordersCancelled, webhookRequest({ topic: "orders/cancelled", shop, payload }));
    await testWorker().drain();
    expect((await row(delivery.id)).state).toBe("cancelled");
  });

  it("cancels here, without calling the courier, what has not reached it", async () => {
    await readyShop(shop);
    programShopify([order]);
    await callRoute(
      fulfillmentsCreate,
      webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(order) }),
    );
    const pending = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(await cancelFromApp(pending.id)).toEqual({ ok: true, state: "cancelled" });
    await testWorker().drain();
    expect(
      sandbox().requestLog.filter((r) => r.endpoint === "createOrder" || r.endpoint === "cancel"),
    ).toHaveLength(0);
  });

  it("handles Shopify's cancellation again when recording it failed the first time", async () => {
    const delivery = await createdDelivery();
    const findMany = prisma.delivery.findMany.bind(prisma.delivery);
    vi.spyOn(prisma.delivery, "findMany").mockImplementationOnce(() => {
      throw new Error("database is locked");
    });
    await expect(shopifyCancelsFulfillment("retried-cancel")).rejects.toThrow("database is locked");
    vi.mocked(prisma.delivery.findMany).mockImplementation(findMany as never);
    // Shopify sends the same webhook again: it is not taken for a duplicate.
    expect((await shopifyCancelsFulfillment("retried-cancel")).status).toBe(200);
    await testWorker().drain();
    expect((await row(delivery.id)).state).toBe("cancelled");
    expect(cancels()).toHaveLength(1);
  });

  it("cancels at the courier a delivery Shopify cancelled while its create was under way", async () => {
    await receive();
    const worker = testWorker();
    await runDueDeliveries(worker.deps, 20);
    const responses: number[] = [];
    const sending = testWorker({
      courierFor: async (s, e) => {
        const real = await worker.deps.courierFor(s, e);
        return (
          real && {
            ...real,
            createOrder: async (input) => {
              // Shopify's cancellation arrives while the worker holds the row, mid-create.
              responses.push((await shopifyCancelsFulfillment()).status);
              return real.createOrder(input);
            },
          }
        );
      },
    });
    await sending.drain();

    expect(responses).toEqual([200]);
    const delivery = await prisma.delivery.findFirstOrThrow({
      where: { shop },
      include: { events: true },
    });
    expect(delivery.state).toBe("cancelled");
    expect(delivery.courierOrderId).toBeTruthy();
    expect(sandbox().orders.get(delivery.courierOrderId!)?.status).toMatch(/cancel/i);
    expect(delivery.events.map((e) => e.kind)).toEqual(
      expect.arrayContaining(["sending", "cancel_requested", "created", "cancelled"]),
    );
    expect(delivery.trackingPushedAt).toBeNull();
  });

  it("asks the worker to cancel when the merchant cancels during a step, instead of refusing", async () => {
    await receive();
    const worker = testWorker();
    await runDueDeliveries(worker.deps, 20);
    let outcome: unknown;
    const sending = testWorker({
      courierFor: async (s, e) => {
        const real = await worker.deps.courierFor(s, e);
        return (
          real && {
            ...real,
            createOrder: async (input) => {
              outcome = await cancelFromApp(
                (await prisma.delivery.findFirstOrThrow({ where: { shop } })).id,
              );
              return real.createOrder(input);
            },
          }
        );
      },
    });
    await sending.drain();
    expect(outcome).toMatchObject({ ok: true, state: "requested" });
    expect((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state).toBe("cancelled");
    expect(cancels()).toHaveLength(1);
  });

  it("never sends a delivery cancelled while its outcome was unknown and history shows nothing", async () => {
    await receive();
    sandbox().faults.add({ endpoint: "createOrder", kind: "closeConnection" });
    const worker = testWorker({ reconcileDelayMs: 60_000 });
    await worker.drain();
    const unknown = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(unknown.state).toBe("unknown");

    expect(await cancelFromApp(unknown.id)).toMatchObject({ ok: true, state: "requested" });
    worker.advance(10 * 60_000);
    await worker.drain();
    expect((await row(unknown.id)).state).toBe("cancelled");
    expect(creates()).toHaveLength(1);
    expect(sandbox().orders.size).toBe(0);
  });

  it("cancels at the courier a delivery whose unknown outcome history shows was created", async () => {
    await receive();
    sandbox().faults.add({ endpoint: "createOrder", kind: "commitThenHang", hangMs: 2_000 });
    const worker = testWorker({ timeoutMs: 300, reconcileDelayMs: 60_000 });
    await worker.drain();
    const unknown = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(unknown.state).toBe("unknown");

    await shopifyCancelsFulfillment();
    worker.advance(10 * 60_000);
    await worker.drain();
    const delivery = await row(unknown.id);
    expect(delivery.state).toBe("cancelled");
    expect(sandbox().orders.size).toBe(1);
    expect(sandbox().orders.get(delivery.courierOrderId!)?.status).toMatch(/cancel/i);
    expect(creates()).toHaveLength(1);
  });

  it("looks in the courier's history before cancelling one waiting for the merchant's decision", async () => {
    await receive();
    // Created at the courier, but the reply was lost and history answered nothing readable.
    sandbox().faults.add({ endpoint: "createOrder", kind: "commitThenHang", hangMs: 2_000 });
    sandbox().faults.add({ endpoint: "history", kind: "malformedJson", times: 100 });
    const worker = testWorker({ timeoutMs: 300 });
    for (
      let round = 0;
      round < 2 * MAX_STEP_FAILURES &&
      (await prisma.delivery.findFirstOrThrow({ where: { shop } })).state !== "needs_review";
      round += 1
    ) {
      await worker.drain();
      worker.advance(5 * 60_000);
    }
    const waiting = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(waiting.state).toBe("needs_review");
    sandbox().faults.clear();

    expect(await cancelFromApp(waiting.id)).toEqual({ ok: true, state: "cancelled" });
    const delivery = await row(waiting.id);
    expect(delivery.courierOrderId).toBe([...sandbox().orders.keys()][0]);
    expect(sandbox().orders.get(delivery.courierOrderId!)?.status).toMatch(/cancel/i);
  });

  it("gives the row back when carrying out a cancel fails unexpectedly, so the worker carries it out", async () => {
    const delivery = await createdDelivery();
    const worker = testWorker();
    const broken = {
      owner: "cancel:broken",
      leaseMs: leaseMsFor(2_000),
      courierFor: async (s: string, e: "sandbox" | "production") => {
        const real = await worker.deps.courierFor(s, e);
        return (
          real && {
            ...real,
            cancel: async () => {
              throw new TypeError("Cannot read properties of undefined");
            },
          }
        );
      },
    };
    await expect(cancelDelivery(shop, delivery.id, "testing", { actor: broken })).rejects.toThrow(
      TypeError,
    );
    expect(await row(delivery.id)).toMatchObject({
      leaseOwner: null,
      leaseExpiresAt: null,
      cancelRequestedAt: expect.any(Date),
    });
    // Not left for the lease to lapse: the worker's next pass carries it out.
    worker.advance(1_000);
    await worker.drain();
    expect((await row(delivery.id)).state).toBe("cancelled");
    expect(cancels()).toHaveLength(1);
  });

  it("keeps trying a cancellation the courier did not answer, and carries it out once it does", async () => {
    const delivery = await createdDelivery();
    sandbox().faults.add({ endpoint: "cancel", kind: "error", status: 503, times: 2 });
    const outcome = await cancelFromApp(delivery.id);
    expect(outcome).toMatchObject({ ok: true, state: "requested" });
    expect(outcome.message).toEqual({ code: "cancel_waits_for_courier", params: {} });
    const worker = testWorker();
    for (let round = 0; round < 5; round += 1) {
      worker.advance(5 * 60_000);
      await worker.drain();
    }
    expect((await row(delivery.id)).state).toBe("cancelled");
    expect(cancels()).toHaveLength(3);
  });

  it("keeps a cancellation the courier refused for its key, rather than calling it refused", async () => {
    const delivery = await createdDelivery();
    sandbox().faults.add({ endpoint: "cancel", kind: "rejectKey" });
    const outcome = await cancelFromApp(delivery.id);
    expect(outcome).toMatchObject({ ok: true, state: "requested" });
    expect(await row(delivery.id)).toMatchObject({
      state: "created",
      cancelRequestedAt: expect.any(Date),
      lastError: expect.stringMatching(/rejected the API key/),
    });
    const worker = testWorker();
    worker.advance(60_000);
    await worker.drain();
    expect((await row(delivery.id)).state).toBe("cancelled");
  });

  it("keeps a cancellation through a long courier outage and never sends the delivery", async () => {
    await receive();
    sandbox().faults.add({ endpoint: "createOrder", kind: "closeConnection" });
    const worker = testWorker({ reconcileDelayMs: 60_000 });
    await worker.drain();
    const unknown = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(unknown.state).toBe("unknown");

    // The courier's history stays down for hours: far more tries than a step is allowed.
    sandbox().faults.add({ endpoint: "history", kind: "error", status: 503, times: 1_000 });
    expect(await cancelFromApp(unknown.id)).toMatchObject({ ok: true, state: "requested" });
    for (let round = 0; round < 3 * MAX_STEP_FAILURES; round += 1) {
      worker.advance(20 * 60_000);
      await worker.drain();
    }
    const waiting = await row(unknown.id);
    expect(waiting).toMatchObject({ state: "unknown", cancelRequestedAt: expect.any(Date) });
    // Waits grow, up to a quarter of an hour.
    expect(waiting.nextAttemptAt!.getTime() - worker.clock.now.getTime()).toBe(15 * 60_000);

    sandbox().faults.clear();
    worker.advance(20 * 60_000);
    await worker.settle();
    expect((await row(unknown.id)).state).toBe("cancelled");
    expect(creates()).toHaveLength(1);
    expect(sandbox().orders.size).toBe(0);
  });

  it("hands an unknown outcome whose cancellation cannot be confirmed to the merchant, never back to sending", async () => {
    await receive();
    sandbox().faults.add({ endpoint: "createOrder", kind: "closeConnection" });
    // The worker alone would wait a day before handing an unknown outcome to the merchant.
    const worker = testWorker({ reconcileDelayMs: 60_000 });
    await worker.drain();
    const unknown = await prisma.delivery.findFirstOrThrow({ where: { shop } });

    // The history answers, but with nothing the app can read: not an outage, so tries are counted.
    sandbox().faults.add({ endpoint: "history", kind: "malformedJson", times: 1_000 });
    await cancelFromApp(unknown.id);
    for (let round = 0; round < 2 * MAX_STEP_FAILURES; round += 1) {
      if ((await row(unknown.id)).cancelRequestedAt === null) break;
      worker.advance(20 * 60_000);
      await worker.drain();
    }
    // The history is readable again the moment the app gives up: it must not send it now.
    sandbox().faults.clear();
    for (let round = 0; round < 3; round += 1) {
      worker.advance(20 * 60_000);
      await worker.drain();
    }
    const delivery = await prisma.delivery.findUniqueOrThrow({
      where: { id: unknown.id },
      include: { events: true },
    });
    expect(delivery).toMatchObject({
      state: "needs_review",
      cancelRequestedAt: null,
      stateReason: expect.stringMatching(/not known whether the courier created it/),
    });
    expect(delivery.events.map((e) => e.kind)).toContain("cancel_refused");
    expect(creates()).toHaveLength(1);
  });

  it("closes a cancellation the worker overtook by skipping the delivery, saying so", async () => {
    await readyShop(shop);
    // Shopify no longer has the fulfillment: preparing it skips the delivery.
    programShopify([]);
    await callRoute(
      fulfillmentsCreate,
      webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(order) }),
    );
    const pending = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    const answers: unknown[] = [];
    const worker = testWorker();
    await testWorker({
      adminFor: async (name) => {
        answers.push(await cancelFromApp(pending.id));
        return worker.deps.adminFor(name);
      },
    }).drain();

    expect(answers).toEqual([expect.objectContaining({ ok: true, state: "requested" })]);
    const skipped = await prisma.delivery.findUniqueOrThrow({
      where: { id: pending.id },
      include: { events: true },
    });
    expect(skipped).toMatchObject({
      state: "skipped",
      cancelRequestedAt: null,
      cancelReason: null,
    });
    expect(skipped.events.find((e) => e.kind === "cancel_refused")?.message).toBe(
      "Not cancelled (cancelled by the merchant in the app): the delivery became skipped before it could be cancelled.",
    );
  });
});
