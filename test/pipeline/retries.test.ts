import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { runDueDeliveries } from "../../app/pipeline/worker.server";
import { MAX_STEP_FAILURES } from "../../app/domain/lease-policy";
import { action as deliveryAction } from "../../app/routes/app.deliveries.$id";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { adminApi } from "../support/admin-api";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import {
  fulfillmentPayload,
  programShopify,
  readyShop,
  testWorker,
  type FakeOrder,
} from "../support/pipeline";
import { adminFetchRequest, callRoute, shopDomain, webhookRequest } from "../support/shopify";

const shop = shopDomain("retries");
const sandbox = setUpCourierSandbox();
const order: FakeOrder = {
  fulfillmentNumber: 8101,
  orderNumber: 4101,
  city: "Salmiya",
  address1: "Block 1 Street 2 House 3",
  provinceCode: "KW-HA",
};

async function receive(o: FakeOrder) {
  await callRoute(
    fulfillmentsCreate,
    webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(o) }),
  );
}

const only = () => prisma.delivery.findFirstOrThrow({ where: { shop }, include: { events: true } });

/**
 * Runs the worker each time the row is due again, until it stops asking (or `rounds` runs out);
 * returns the waits it chose, in milliseconds.
 */
async function retryUntilSettled(worker: ReturnType<typeof testWorker>, rounds = 30) {
  const waits: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    await worker.drain();
    const row = await only();
    if (!row.nextAttemptAt || row.state === "needs_attention") break;
    waits.push(row.nextAttemptAt.getTime() - worker.clock.now.getTime());
    worker.clock.now = row.nextAttemptAt;
  }
  return waits;
}

const shopifyRefuses = () => ({
  errors: [{ message: "Internal error. Looks like something went wrong." }],
});

describe("retries that cannot succeed on their own", () => {
  it("slow down, then stop and ask the merchant, when Shopify keeps failing to give the order", async () => {
    await readyShop(shop);
    programShopify([order]);
    adminApi.on("DeliveryFulfillment", shopifyRefuses);
    await receive(order);
    const waits = await retryUntilSettled(testWorker());

    const delivery = await only();
    expect(delivery.state).toBe("needs_attention");
    expect(delivery.stateReason).toMatch(
      /Stopped after 10 failed tries in a row while loading the order from Shopify: Internal error/,
    );
    expect(adminApi.callsTo("DeliveryFulfillment")).toHaveLength(MAX_STEP_FAILURES);
    expect(waits).toHaveLength(MAX_STEP_FAILURES - 1);
    for (let i = 1; i < waits.length; i += 1)
      expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!);
    expect(waits.at(-1)).toBeGreaterThan(10 * waits[0]!);
    expect(sandbox().requestLog.filter((r) => r.endpoint === "createOrder")).toHaveLength(0);
  });

  it("stop at a tracking number Shopify keeps refusing until the merchant presses Try again", async () => {
    await readyShop(shop);
    programShopify([order]);
    adminApi.on("DeliveryTrackingUpdate", () => ({
      data: {
        fulfillmentTrackingInfoUpdate: {
          fulfillment: null,
          userErrors: [{ field: null, message: "Fulfillment is locked" }],
        },
      },
    }));
    await receive(order);
    const worker = testWorker();
    await retryUntilSettled(worker);

    const stuck = await only();
    expect(stuck.state).toBe("needs_attention");
    expect(stuck.courierOrderNumber).toBeTruthy();
    expect(stuck.stateReason).toMatch(/did not take its tracking number.*Fulfillment is locked/);
    expect(adminApi.callsTo("DeliveryTrackingUpdate")).toHaveLength(MAX_STEP_FAILURES);

    const { trackingUpdates } = programShopify([order]);
    const response = await callRoute(
      deliveryAction,
      await adminFetchRequest(shop, `/app/deliveries/${stuck.id}`, { form: { intent: "retry" } }),
      { id: stuck.id },
    );
    expect(response.status).toBe(200);
    await worker.drain();
    const delivery = await only();
    expect(delivery.state).toBe("created");
    expect(delivery.trackingPushedAt).toBeInstanceOf(Date);
    expect(trackingUpdates).toHaveLength(1);
    expect(sandbox().orders.size).toBe(1);
  });

  it("start counting afresh after the merchant's Try again", async () => {
    await readyShop(shop);
    programShopify([order]);
    adminApi.on("DeliveryFulfillment", shopifyRefuses);
    await receive(order);
    const worker = testWorker();
    await retryUntilSettled(worker);
    const stuck = await only();
    expect(stuck.state).toBe("needs_attention");

    const response = await callRoute(
      deliveryAction,
      await adminFetchRequest(shop, `/app/deliveries/${stuck.id}`, { form: { intent: "retry" } }),
      { id: stuck.id },
    );
    expect(response.status).toBe(200);
    expect((await only()).failures).toBe(0);
    // Shopify still fails: the delivery waits to try again, it is not handed back at once.
    worker.advance(1_000);
    await worker.drain();
    const after = await only();
    expect(after).toMatchObject({ state: "pending", failures: 1 });
    expect(adminApi.callsTo("DeliveryFulfillment")).toHaveLength(MAX_STEP_FAILURES + 1);
  });

  it("give up on a Send to courier whose Shopify fulfillment never came", async () => {
    await readyShop(shop);
    await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/4102",
        orderName: "#4102",
        fulfillmentId: null,
        source: "manual",
        state: "pending",
        environment: "sandbox",
        reference: "SHPFY-retries-FO1",
        nextAttemptAt: new Date(),
      },
    });
    const waits = await retryUntilSettled(testWorker());
    const delivery = await only();
    expect(delivery.state).toBe("needs_attention");
    expect(delivery.stateReason).toMatch(/fulfillment for this "Send to courier" never arrived/);
    expect(waits.at(-1)).toBeGreaterThan(10 * waits[0]!);
  });

  it("never let one delivery's failure stop the others", async () => {
    await readyShop(shop);
    // Shopify answers for one fulfillment and fails for the other.
    const broken = { ...order, fulfillmentNumber: 8102, orderNumber: 4102, shopifyError: "Boom" };
    programShopify([order, broken]);
    await receive(broken);
    await receive(order);
    await expect(runDueDeliveries(testWorker().deps, 20)).resolves.toBe(2);
    const states = await prisma.delivery.findMany({
      where: { shop },
      orderBy: { orderId: "asc" },
      select: { state: true, failures: true },
    });
    expect(states).toEqual([
      { state: "ready", failures: 0 },
      { state: "pending", failures: 1 },
    ]);
  });
});

describe("Shopify throttling", () => {
  it("is waited out without counting as a failure, however often it comes", async () => {
    const throttledShop = shopDomain("retries-throttled");
    const own = () => prisma.delivery.findFirstOrThrow({ where: { shop: throttledShop } });
    await readyShop(throttledShop);
    programShopify([order]);
    await callRoute(
      fulfillmentsCreate,
      webhookRequest({
        topic: "fulfillments/create",
        shop: throttledShop,
        payload: fulfillmentPayload(order),
      }),
    );
    adminApi.throttleNext(MAX_STEP_FAILURES + 2);
    const worker = testWorker();
    for (let round = 0; round < MAX_STEP_FAILURES + 2; round += 1) {
      await worker.drain();
      const row = await own();
      expect(row).toMatchObject({ state: "pending", failures: 0 });
      expect(row.lastError).toMatch(/Shopify asked the app to slow down/);
      worker.clock.now = row.nextAttemptAt!;
    }
    await worker.settle();
    expect((await own()).trackingPushedAt).not.toBeNull();
  });
});
