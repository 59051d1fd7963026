import { describe, expect, it, vi } from "vitest";
import { formatKuwaitDateTime, parseKuwaitDateTime } from "../../app/courier";
import prisma, { sqliteConnection } from "../../app/db.server";
import { runDueDeliveries } from "../../app/pipeline/worker.server";
import { assertLeaseOutlastsCourierCalls, leaseMsFor } from "../../app/domain/lease-policy";
import { cancelDelivery } from "../../app/actions/cancel.server";
import { loader as reviewLoader } from "../../app/routes/app.address-review";
import { loader as deliveryLoader } from "../../app/routes/app.deliveries.$id";
import { loader as listLoader } from "../../app/routes/app.deliveries._index";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import {
  fulfillmentPayload,
  programShopify,
  readyShop,
  testWorker,
  type FakeOrder,
} from "../support/pipeline";
import { adminFetchRequest, callRoute, shopDomain, webhookRequest } from "../support/shopify";

const shop = shopDomain("pipeline");
const sandbox = setUpCourierSandbox();

const salmiya: FakeOrder = {
  fulfillmentNumber: 5001,
  orderNumber: 1001,
  city: "Salmiya",
  address1: "Block 10, Street 5, House 12",
  provinceCode: "KW-HA",
};

function sendWebhook(order: FakeOrder, webhookId?: string) {
  return callRoute(
    fulfillmentsCreate,
    webhookRequest({
      topic: "fulfillments/create",
      shop,
      payload: fulfillmentPayload(order),
      webhookId,
    }),
  );
}

const creates = () => sandbox().requestLog.filter((r) => r.endpoint === "createOrder");

async function onlyDelivery() {
  const deliveries = await prisma.delivery.findMany({ where: { shop }, include: { events: true } });
  expect(deliveries).toHaveLength(1);
  return deliveries[0]!;
}

describe("a fulfilled order becomes a courier delivery", () => {
  it("records the webhook at once, then creates the delivery and puts tracking on Shopify", async () => {
    await readyShop(shop);
    const { trackingUpdates } = programShopify([salmiya]);
    const response = await sendWebhook(salmiya);
    expect(response.status).toBe(200);
    expect((await onlyDelivery()).state).toBe("pending");
    expect(creates()).toHaveLength(0);

    await testWorker().drain();

    const delivery = await onlyDelivery();
    expect(delivery.state).toBe("created");
    expect(delivery.courierOrderNumber).toBeTruthy();
    expect(delivery.trackingPushedAt).toBeInstanceOf(Date);
    expect(creates()).toHaveLength(1);
    const [courierOrder] = [...sandbox().orders.values()];
    expect(JSON.stringify(courierOrder)).toContain(delivery.reference);
    const body = JSON.parse(delivery.request!);
    expect(body.deliveryAddress).toMatchObject({
      block: "10",
      street: "5",
      house: "12",
      contactPhone: "99991234",
    });
    expect(body.packageDetails).toMatchObject({
      weight: 1.2,
      value: 24.5,
      description: "2 × Abaya",
    });
    expect(body.paymentMethod).toBe("PREPAID");
    expect(body.pickupDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(trackingUpdates).toEqual([
      {
        fulfillmentId: "gid://shopify/Fulfillment/5001",
        trackingInfoInput: {
          number: delivery.courierOrderNumber,
          url: `https://app.example/tracking/${delivery.trackingToken}`,
          company: "Test Courier",
        },
        notifyCustomer: true,
      },
    ]);
    expect(delivery.events.map((e) => e.kind)).toEqual([
      "received",
      "ready",
      "sending",
      "created",
      "tracking",
    ]);
  });

  it("uses the cash-on-delivery code and the outstanding amount when the order is unpaid", async () => {
    await readyShop(shop);
    programShopify([{ ...salmiya, outstanding: "24.500" }]);
    await sendWebhook({ ...salmiya, outstanding: "24.500" });
    await testWorker().drain();
    const body = JSON.parse((await onlyDelivery()).request!);
    expect(body.paymentMethod).toBe("COD");
    expect(body.packageDetails.value).toBe(24.5);
  });

  it("creates exactly one courier order when the same webhook arrives five times at once", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => sendWebhook(salmiya, "same-webhook-id")),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const worker = testWorker();
    await Promise.all([worker.drain(), worker.drain(), worker.drain()]);
    expect((await onlyDelivery()).state).toBe("created");
    expect(creates()).toHaveLength(1);
    expect(sandbox().orders.size).toBe(1);
  });

  it("skips, with the reason shown, what is not for the courier", async () => {
    await readyShop(shop);
    await sendWebhook({ ...salmiya, countryCode: "SA" });
    const delivery = await onlyDelivery();
    expect(delivery.state).toBe("skipped");
    expect(delivery.stateReason).toBe("The destination is outside Kuwait (SA).");
    await prisma.shopSettings.update({ where: { shop }, data: { autoSend: false } });
    await sendWebhook({ ...salmiya, fulfillmentNumber: 5002 });
    const second = await prisma.delivery.findFirstOrThrow({
      where: { shop, fulfillmentId: "gid://shopify/Fulfillment/5002" },
    });
    expect(second.stateReason).toBe("Automatic sending is off (Settings).");
    await testWorker().drain();
    expect(creates()).toHaveLength(0);
  });

  it("sends nothing for a shop that uninstalled", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    await sendWebhook(salmiya);
    await prisma.shopSettings.update({ where: { shop }, data: { uninstalledAt: new Date() } });
    await testWorker().drain();
    expect((await onlyDelivery()).state).toBe("pending");
    expect(creates()).toHaveLength(0);
  });

  it("holds an address it cannot place for the merchant, without calling the courier", async () => {
    await readyShop(shop);
    const unclear = {
      ...salmiya,
      city: "Kuwait",
      address1: "near the big mosque, house 3",
      provinceCode: undefined,
    };
    programShopify([unclear]);
    await sendWebhook(unclear);
    await testWorker().drain();
    const delivery = await onlyDelivery();
    expect(delivery.state).toBe("needs_address");
    expect(delivery.stateReason).toMatch(/could not be recognised|not sure enough/);
    expect(JSON.parse(delivery.addressMatch!).reasons.length).toBeGreaterThan(0);
    expect(creates()).toHaveLength(0);
  });

  it("says why it is not sure, as data the timeline and address review put in words", async () => {
    await readyShop(shop);
    const hospital = {
      ...salmiya,
      city: "Kuwait",
      address1: "Adan Hospital, nurses housing, building 4",
      provinceCode: undefined,
    };
    programShopify([hospital]);
    await sendWebhook(hospital);
    await testWorker().drain();
    const delivery = await prisma.delivery.findFirstOrThrow({
      where: { shop },
      include: { events: true },
    });
    expect(delivery.state).toBe("needs_address");
    expect(JSON.parse(delivery.addressMatch!).doubt).toEqual({
      kind: "only_landmark",
      area: "Adan",
      typed: "Adan",
    });
    const held = delivery.events.find((e) => e.kind === "needs_address");
    expect(JSON.parse(held!.data!).text).toEqual({
      key: "area_doubt_only_landmark",
      params: { area: "Adan", typed: "Adan" },
    });
    expect(creates()).toHaveLength(0);
  });
});

describe("a delivery waiting for its address in the list", () => {
  const unplaced: FakeOrder = {
    ...salmiya,
    city: "Kuwait",
    address1: "near the big mosque, house 3",
    provinceCode: undefined,
    outstanding: "36.000",
  };

  it("shows its customer, phone and the cash the driver will collect, found by name and phone", async () => {
    await readyShop(shop);
    programShopify([unplaced]);
    await sendWebhook(unplaced);
    await testWorker().drain();
    const delivery = await onlyDelivery();
    expect(delivery.state).toBe("needs_address");
    expect(delivery.request).toBeNull();
    expect(delivery).toMatchObject({
      customerName: "Fatima Al-Sabah",
      nameKey: "fatima al-sabah",
      nameKey2: "al-sabah",
      cashToCollect: "36.000",
    });
    expect(delivery.customerPhone).toMatch(/^\d{8}$/);
    const list = async (query: string) =>
      (await (
        await callRoute(listLoader, await adminFetchRequest(shop, `/app/deliveries?${query}`))
      ).json()) as { rows: { id: string; customer: string | null; cod: string | null }[] };
    expect((await list("tab=attention")).rows).toMatchObject([
      { id: delivery.id, customer: "Fatima Al-Sabah", cod: "36.000" },
    ]);
    expect((await list("q=al-sabah")).rows.map((r) => r.id)).toEqual([delivery.id]);
    expect((await list(`q=${delivery.customerPhone}`)).rows.map((r) => r.id)).toEqual([
      delivery.id,
    ]);
  });

  it("keeps the place when the courier's area is known, and the request's values once built", async () => {
    await readyShop(shop);
    // Salmiya without a block: placed, but the courier needs the block.
    const noBlock = { ...salmiya, address1: "Street 5, House 12", outstanding: "36.000" };
    programShopify([noBlock]);
    await sendWebhook(noBlock);
    await testWorker().drain();
    const waiting = await onlyDelivery();
    expect(waiting.state).toBe("needs_address");
    expect(waiting.areaId).not.toBeNull();
    expect(waiting.governanceId).not.toBeNull();
    expect(waiting.cashToCollect).toBe("36.000");
  });
});

describe("an unpaid order fulfilled in two parts", () => {
  const abaya = { title: "Abaya", quantity: 1, lineQuantity: 1, lineTotal: "18.000", grams: 600 };
  const scarves = { title: "Scarf", quantity: 2, lineQuantity: 2, lineTotal: "12.000", grams: 100 };
  const part = (fulfillmentNumber: number, items: FakeOrder["items"]): FakeOrder => ({
    ...salmiya,
    fulfillmentNumber,
    outstanding: "30.000",
    items,
  });
  const bodies = () =>
    [...sandbox().orders.values()].map((o) => ({
      paymentMethod: String(o.request.paymentMethod).toUpperCase(),
      value: o.request.packageDetails.value,
    }));

  it("has the driver collect the balance on one delivery only, the other prepaid at its own value", async () => {
    await readyShop(shop);
    const parts = [part(5001, [abaya]), part(5002, [scarves])];
    programShopify(parts);
    // Both parts arrive together and are built in the same pass.
    await Promise.all(parts.map((p) => sendWebhook(p)));
    await testWorker().drain();

    const deliveries = await prisma.delivery.findMany({ where: { shop } });
    expect(deliveries.map((d) => d.state)).toEqual(["created", "created"]);
    expect(bodies()).toEqual(
      expect.arrayContaining([
        { paymentMethod: "COD", value: 30 },
        { paymentMethod: "PREPAID", value: expect.any(Number) },
      ]),
    );
    const prepaid = bodies().find((b) => b.paymentMethod === "PREPAID")!;
    expect([18, 12]).toContain(prepaid.value);
    expect(deliveries.filter((d) => d.cashToCollect !== null).map((d) => d.cashToCollect)).toEqual([
      "30.000",
    ]);
  });

  it("says on each delivery's page who collects the order's balance", async () => {
    await readyShop(shop);
    const parts = [part(5001, [abaya]), part(5002, [scarves])];
    programShopify(parts);
    await sendWebhook(parts[0]!);
    await testWorker().drain();
    await sendWebhook(parts[1]!);
    await testWorker().drain();
    const [collector, other] = await Promise.all(
      ["5001", "5002"].map((n) =>
        prisma.delivery.findFirstOrThrow({
          where: { shop, fulfillmentId: `gid://shopify/Fulfillment/${n}` },
        }),
      ),
    );
    const page = async (id: string) =>
      (
        await callRoute(deliveryLoader, await adminFetchRequest(shop, `/app/deliveries/${id}`), {
          id,
        })
      ).json();
    expect((await page(collector!.id)).payment).toMatchObject({
      cashToCollect: "30.000",
      collectedBy: null,
    });
    expect((await page(other!.id)).payment).toMatchObject({
      cashToCollect: null,
      collectedBy: { id: collector!.id },
    });
    expect(JSON.parse(other!.request!).packageDetails.value).toBe(12);
  });

  it("lets a later part collect the balance when the part that was to collect it is cancelled", async () => {
    await readyShop(shop);
    const parts = [part(5001, [abaya]), part(5002, [scarves])];
    programShopify(parts);
    await sendWebhook(parts[0]!);
    await runDueDeliveries(testWorker().deps, 20);
    const first = await onlyDelivery();
    expect(first.cashToCollect).toBe("30.000");
    await cancelDelivery(shop, first.id, "the merchant changed their mind");

    await sendWebhook(parts[1]!);
    await testWorker().drain();
    expect(bodies()).toEqual([{ paymentMethod: "COD", value: 30 }]);
  });
});

describe("currencies", () => {
  it("sends an order paid in KWD from a shop that keeps its books in USD, with the amounts paid", async () => {
    await readyShop(shop);
    const marketsOrder: FakeOrder = {
      ...salmiya,
      shopCurrency: "USD",
      outstanding: "80.00",
      paidIn: { currency: "KWD", total: "24.500", outstanding: "24.500" },
    };
    programShopify([marketsOrder]);
    await sendWebhook(marketsOrder);
    await testWorker().drain();
    const delivery = await onlyDelivery();
    expect(delivery.state).toBe("created");
    const body = JSON.parse(delivery.request!);
    expect(body.paymentMethod).toBe("COD");
    expect(body.packageDetails.value).toBe(24.5);
  });

  it("holds an order in neither KWD for the merchant's attention, outside the address review queue", async () => {
    await readyShop(shop);
    const dollars: FakeOrder = {
      ...salmiya,
      shopCurrency: "USD",
      paidIn: { currency: "USD", total: "80.00", outstanding: "0.00" },
    };
    programShopify([dollars]);
    await sendWebhook(dollars);
    await testWorker().drain();

    const delivery = await onlyDelivery();
    expect(delivery.state).toBe("needs_attention");
    expect(delivery.stateReason).toMatch(/in USD.*Kuwaiti dinar \(KWD\)/);
    expect(creates()).toHaveLength(0);
    const review = await (
      await callRoute(reviewLoader, await adminFetchRequest(shop, "/app/address-review"))
    ).json();
    expect(review.queue).toHaveLength(0);
    const attention = await (
      await callRoute(listLoader, await adminFetchRequest(shop, "/app/deliveries?tab=attention"))
    ).json();
    expect(attention.rows.map((d: { id: string }) => d.id)).toEqual([delivery.id]);
  });
});

describe("pickup times", () => {
  const DAY = 24 * 3_600_000;
  const courierPickup = () =>
    parseKuwaitDateTime([...sandbox().orders.values()][0]!.request.pickupDate)!.getTime();

  it("sends a delivery received two days ago with a pickup time ahead of now", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    await sendWebhook(salmiya);
    await prisma.delivery.updateMany({
      where: { shop },
      data: { createdAt: new Date(Date.now() - 2 * DAY) },
    });
    await testWorker().drain();

    const delivery = await onlyDelivery();
    expect(delivery.state).toBe("created");
    // Two hours of preparation (the shop's default) from now, not from two days ago.
    expect(courierPickup()).toBeGreaterThan(Date.now() + 110 * 60_000);
  });

  it("moves the pickup time of a request that waited days for the courier, and keeps its reference", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    await sendWebhook(salmiya);
    const worker = testWorker();
    await runDueDeliveries(worker.deps, 20);
    // Built two days ago, then held while the courier was down.
    const built = await onlyDelivery();
    const stale = {
      ...JSON.parse(built.request!),
      pickupDate: formatKuwaitDateTime(new Date(Date.now() - 2 * DAY + 2 * 3_600_000)),
    };
    await prisma.delivery.update({
      where: { id: built.id },
      data: { request: JSON.stringify(stale), createdAt: new Date(Date.now() - 2 * DAY) },
    });
    await worker.drain();

    const delivery = await onlyDelivery();
    expect(delivery.state).toBe("created");
    expect(courierPickup()).toBeGreaterThan(Date.now() + 110 * 60_000);
    const sent = JSON.parse(delivery.request!);
    expect(sent.pickupDate).toBe([...sandbox().orders.values()][0]!.request.pickupDate);
    expect(sent.notes).toBe(stale.notes);
    expect(sent.notes).toContain(delivery.reference);
    expect(delivery.events.find((e) => e.kind === "sending")?.message).toMatch(/Pickup time moved/);
  });

  it("keeps the pickup time of a request sent right after it was built", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    await sendWebhook(salmiya);
    const worker = testWorker();
    await runDueDeliveries(worker.deps, 20);
    const built = JSON.parse((await onlyDelivery()).request!).pickupDate;
    worker.advance(5_000);
    await worker.drain();
    expect(JSON.parse((await onlyDelivery()).request!).pickupDate).toBe(built);
  });
});

describe("several deliveries at once", () => {
  it("go to the courier in one create-bulk call, each with its own outcome", async () => {
    await readyShop(shop);
    const orders = [0, 1, 2, 3, 4].map((i) => ({
      ...salmiya,
      fulfillmentNumber: 6100 + i,
      orderNumber: 2100 + i,
    }));
    const { trackingUpdates } = programShopify(orders);
    for (const order of orders) await sendWebhook(order);
    const worker = testWorker();
    // First pass: every request is built; then one is spoilt, as a courier would refuse it.
    await runDueDeliveries(worker.deps, 20);
    const spoilt = await prisma.delivery.findFirstOrThrow({
      where: { shop, orderId: "gid://shopify/Order/2103" },
    });
    const body = JSON.parse(spoilt.request!);
    body.deliveryAddress.areaId = 999_999;
    await prisma.delivery.update({
      where: { id: spoilt.id },
      data: { request: JSON.stringify(body) },
    });

    await worker.drain();
    const bulkCalls = sandbox().requestLog.filter((r) => r.endpoint === "createBulk");
    expect(bulkCalls).toHaveLength(1);
    expect(creates()).toHaveLength(0);
    const deliveries = await prisma.delivery.findMany({
      where: { shop },
      orderBy: { orderId: "asc" },
    });
    expect(deliveries.map((d) => d.state)).toEqual([
      "created",
      "created",
      "created",
      "rejected",
      "created",
    ]);
    expect(deliveries[3]!.stateReason).toBeTruthy();
    expect(sandbox().orders.size).toBe(4);
    expect(trackingUpdates).toHaveLength(4);
  });
});

describe("when the courier misbehaves", () => {
  it("reconciles a create that committed and then timed out, without creating twice", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    await sendWebhook(salmiya);
    sandbox().faults.add({ endpoint: "createOrder", kind: "commitThenHang", hangMs: 2_000 });
    await testWorker({ timeoutMs: 300 }).drain();

    const delivery = await onlyDelivery();
    expect(delivery.state).toBe("created");
    expect(delivery.events.map((e) => e.kind)).toContain("unknown");
    expect(delivery.events.map((e) => e.kind)).toContain("reconciled");
    expect(creates()).toHaveLength(1);
    expect(sandbox().orders.size).toBe(1);
    expect(delivery.courierOrderId).toBe([...sandbox().orders.keys()][0]);
  });

  it("does not take another delivery's courier order whose reference merely starts with its own", async () => {
    await readyShop(shop);
    const longer = { ...salmiya, fulfillmentNumber: 123, orderNumber: 1123 };
    const shorter = { ...salmiya, fulfillmentNumber: 12, orderNumber: 1012 };
    programShopify([longer, shorter]);
    await sendWebhook(longer);
    await testWorker().drain();
    // The next create is cut off before the courier does anything: its outcome is unknown, and
    // the history search for "…-12" also returns the order of "…-123".
    sandbox().faults.add({ endpoint: "createOrder", kind: "closeConnection" });
    await sendWebhook(shorter);
    await testWorker().settle();

    const first = await prisma.delivery.findFirstOrThrow({
      where: { shop, fulfillmentId: "gid://shopify/Fulfillment/123" },
    });
    const second = await prisma.delivery.findFirstOrThrow({
      where: { shop, fulfillmentId: "gid://shopify/Fulfillment/12" },
    });
    expect(second.reference).toBe("SHPFY-pipeline-12");
    expect(second.state).toBe("created");
    expect(second.courierOrderId).not.toBe(first.courierOrderId);
    expect(sandbox().orders.size).toBe(2);
  });

  it("creates every delivery once the courier recovers from failing, none twice", async () => {
    await readyShop(shop);
    const orders = [0, 1, 2].map((i) => ({
      ...salmiya,
      fulfillmentNumber: 6000 + i,
      orderNumber: 2000 + i,
    }));
    programShopify(orders);
    for (const order of orders) await sendWebhook(order);
    sandbox().faults.add({ endpoint: "createBulk", kind: "error", status: 503, times: 3 });
    sandbox().faults.add({ endpoint: "createOrder", kind: "error", status: 503, times: 3 });
    const worker = testWorker();
    for (let round = 0; round < 10; round += 1) {
      await worker.drain();
      worker.advance(60_000);
    }
    const deliveries = await prisma.delivery.findMany({ where: { shop } });
    expect(deliveries.map((d) => d.state)).toEqual(["created", "created", "created"]);
    expect(sandbox().orders.size).toBe(3);
    expect(new Set(deliveries.map((d) => d.courierOrderId)).size).toBe(3);
  });

  it("waits for the rate limit before trying again", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    await sendWebhook(salmiya);
    sandbox().faults.add({ endpoint: "createOrder", kind: "rateLimit", retryAfter: 30 });
    const worker = testWorker();
    await worker.drain();
    expect((await onlyDelivery()).state).toBe("ready");
    expect(creates()).toHaveLength(1);
    worker.advance(31_000);
    await worker.drain();
    expect((await onlyDelivery()).state).toBe("created");
    expect(sandbox().orders.size).toBe(1);
  });

  it("shows a validation rejection with the courier's message and does not retry it", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    // A pickup mapping whose area is not in its governance: the courier refuses the order.
    const jahraAreaId = [
      ...(await prisma.courierMasterData.findFirstOrThrow({ where: { shop } })).areas.matchAll(
        /"areaId":(\d+),"areaName":"الجهراء"/g,
      ),
    ][0]?.[1];
    await prisma.pickupLocation.updateMany({
      where: { shop },
      data: { areaId: Number(jahraAreaId) },
    });
    await sendWebhook(salmiya);
    const worker = testWorker();
    for (let round = 0; round < 5; round += 1) {
      await worker.drain();
      worker.advance(3_600_000);
    }
    const delivery = await onlyDelivery();
    expect(delivery.state).toBe("rejected");
    expect(delivery.stateReason).toBeTruthy();
    expect(creates()).toHaveLength(1);
  });

  /**
   * Two workers on one clock, as set up in production (COURIER_TIMEOUT_MS = 120 s). The first
   * one's creates take 100 s of that clock, and the second runs a pass while each is in flight.
   */
  function slowCreatesWithAnotherWorker() {
    const clock = { now: new Date() };
    const shared = { now: () => clock.now, courierTimeoutMs: 120_000 };
    const other = testWorker({ owner: "other-worker", ...shared });
    const slow = testWorker({
      owner: "slow-worker",
      ...shared,
      courierFor: async (s, e) => {
        const real = await other.deps.courierFor(s, e);
        return (
          real && {
            ...real,
            createOrder: async (input) => {
              clock.now = new Date(clock.now.getTime() + 100_000);
              await other.drain();
              return real.createOrder(input);
            },
          }
        );
      },
    });
    return { slow, other };
  }

  it("keeps its lease through a slow create, so no other worker sends the delivery again", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    await sendWebhook(salmiya);
    await slowCreatesWithAnotherWorker().slow.drain();
    expect((await onlyDelivery()).state).toBe("created");
    expect(sandbox().orders.size).toBe(1);
  });

  it("renews the lease before each create when a refused batch goes one by one", async () => {
    await readyShop(shop);
    const orders = [0, 1, 2].map((i) => ({
      ...salmiya,
      fulfillmentNumber: 6200 + i,
      orderNumber: 2200 + i,
    }));
    programShopify(orders);
    for (const order of orders) await sendWebhook(order);
    sandbox().faults.add({ endpoint: "createBulk", kind: "error", status: 400 });
    const { slow } = slowCreatesWithAnotherWorker();
    await runDueDeliveries(slow.deps, 20);
    await slow.drain();
    const deliveries = await prisma.delivery.findMany({ where: { shop } });
    expect(deliveries.map((d) => d.state)).toEqual(["created", "created", "created"]);
    expect(sandbox().orders.size).toBe(3);
  });

  it("commits the move to creating with a full sync before the courier is called", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    await sendWebhook(salmiya);
    const worker = testWorker();
    await runDueDeliveries(worker.deps, 20);
    const pragma = vi.spyOn(await sqliteConnection(), "pragma");
    const seen: { state: string; pragmas: string[] }[] = [];
    const watching = testWorker({
      courierFor: async (s, e) => {
        const real = await worker.deps.courierFor(s, e);
        return (
          real && {
            ...real,
            createOrder: async (input) => {
              seen.push({
                state: (await onlyDelivery()).state,
                pragmas: pragma.mock.calls.map((call) => String(call[0])),
              });
              return real.createOrder(input);
            },
          }
        );
      },
    });
    await watching.drain();
    expect(seen).toEqual([
      { state: "creating", pragmas: ["synchronous = FULL", "synchronous = NORMAL"] },
    ]);
    expect((await onlyDelivery()).state).toBe("created");
  });

  it("sends a create held up past its send window once it finds the delivery still its own", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    await sendWebhook(salmiya);
    await runDueDeliveries(testWorker().deps, 20);
    const tries: string[] = [];
    // A 2 s lease gives a 500 ms send window; the first try is held up 700 ms before it goes.
    const slow = testWorker({
      leaseMs: 2_000,
      courierFor: async (s, e) => {
        const real = await testWorker().deps.courierFor(s, e);
        return (
          real && {
            ...real,
            createOrder: async (input, options) => {
              if (tries.length === 0) await new Promise((resolve) => setTimeout(resolve, 700));
              try {
                const result = await real.createOrder(input, options);
                tries.push("sent");
                return result;
              } catch (error) {
                tries.push((error as Error).name);
                throw error;
              }
            },
          }
        );
      },
    });
    await slow.drain();
    expect(tries).toEqual(["CourierSendExpiredError", "sent"]);
    const delivery = await onlyDelivery();
    expect(delivery.state).toBe("created");
    expect(delivery.events.map((e) => e.kind)).not.toContain("not_sent");
    expect(creates()).toHaveLength(1);
  });

  it("refuses to start a worker whose lease a courier call could outlive", () => {
    expect(() => assertLeaseOutlastsCourierCalls(60_000, 120_000)).toThrow(
      /must be at least 460000 ms/,
    );
    expect(() => assertLeaseOutlastsCourierCalls(leaseMsFor(120_000), 120_000)).not.toThrow();
  });

  it("loses and doubles nothing when an unexpected error cuts a create short after the courier took it", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    await sendWebhook(salmiya);
    const dying = testWorker({
      owner: "worker-that-fails",
      courierFor: async (s, e) => {
        const real = await testWorker().deps.courierFor(s, e);
        return (
          real && {
            ...real,
            // The courier creates the order; something fails before the reply is read.
            createOrder: async (input) => {
              await real.createOrder(input);
              throw new Error("something broke");
            },
          }
        );
      },
    });
    // The error is the row's own: recorded there, not thrown out of the pass.
    await dying.drain();
    const stuck = await onlyDelivery();
    expect(stuck.state).toBe("creating");
    expect(stuck.lastError).toBe("something broke");

    // Later: the row is found creating, its outcome unknown, and reconciled.
    const restarted = testWorker();
    restarted.advance(10 * 60_000);
    await restarted.drain();
    const delivery = await onlyDelivery();
    expect(delivery.state).toBe("created");
    expect(sandbox().orders.size).toBe(1);
    expect(creates()).toHaveLength(1);
  });
});
