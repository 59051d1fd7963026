import { describe, expect, it, vi } from "vitest";
import prisma from "../../app/db.server";
import { runDueDeliveries } from "../../app/pipeline/worker.server";
import { customerDataExport, listComplianceRequests } from "../../app/models/privacy.server";
import {
  action as reviewAction,
  loader as reviewLoader,
} from "../../app/routes/app.address-review";
import {
  action as deliveryAction,
  loader as deliveryLoader,
} from "../../app/routes/app.deliveries.$id";
import { loader as trackingLoader } from "../../app/routes/tracking.$token";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import {
  fulfillmentPayload,
  programShopify,
  readyShop,
  testWorker,
  type FakeOrder,
} from "../support/pipeline";
import {
  adminFetchRequest,
  APP_URL,
  callRoute,
  shopDomain,
  webhookRequest,
} from "../support/shopify";

/**
 * JSON columns that no longer read back (a hand edit, a bug, a shape no longer written): the
 * worker asks the merchant with the reason instead of failing without a word, and the pages show
 * what they can.
 */
const shop = shopDomain("unreadable");
const sandbox = setUpCourierSandbox();

/** An order the matcher places with confidence (Salmiya, Hawalli). */
const salmiya: FakeOrder = {
  fulfillmentNumber: 8001,
  orderNumber: 4001,
  city: "Salmiya",
  address1: "Block 1 Street 2 House 3",
  provinceCode: "KW-HA",
};

/** An order the matcher cannot place: it waits on the address review page. */
const unclear: FakeOrder = {
  ...salmiya,
  city: "Kuwait",
  address1: "Mshairf blk 3 st 5 house 9",
  provinceCode: undefined,
};

async function receive(order: FakeOrder) {
  await callRoute(
    fulfillmentsCreate,
    webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(order) }),
  );
}

/** Deliveries whose requests are built and waiting to go, one pass of the worker in. */
async function readyDeliveries(orders: FakeOrder[]) {
  await readyShop(shop);
  programShopify(orders);
  for (const order of orders) await receive(order);
  const worker = testWorker();
  await runDueDeliveries(worker.deps, 20);
  const rows = await prisma.delivery.findMany({ where: { shop }, orderBy: { orderId: "asc" } });
  expect(rows.map((d) => d.state)).toEqual(orders.map(() => "ready"));
  return { worker, rows };
}

const creates = () =>
  sandbox().requestLog.filter((r) => r.endpoint === "createOrder" || r.endpoint === "createBulk");

const post = async (id: string, form: Record<string, string> = { intent: "retry" }) =>
  callRoute(deliveryAction, await adminFetchRequest(shop, `/app/deliveries/${id}`, { form }), {
    id,
  });

const deliveryPage = async (id: string) =>
  (
    await callRoute(deliveryLoader, await adminFetchRequest(shop, `/app/deliveries/${id}`), { id })
  ).json();

describe("a stored request that no longer reads", () => {
  it("is held for the merchant until Try again builds it afresh", async () => {
    const { worker, rows } = await readyDeliveries([salmiya]);
    const [row] = rows;
    await prisma.delivery.update({ where: { id: row!.id }, data: { request: '{"pickupAd' } });

    await worker.drain();
    const waiting = await prisma.delivery.findUniqueOrThrow({ where: { id: row!.id } });
    expect(waiting.state).toBe("needs_attention");
    expect(waiting.stateReason).toBe(
      "The request built for this delivery can no longer be read (not JSON). Press Try again to build it again from the order.",
    );
    expect(creates()).toHaveLength(0);

    expect((await post(row!.id)).status).toBe(200);
    await testWorker().drain();
    const sent = await prisma.delivery.findUniqueOrThrow({ where: { id: row!.id } });
    expect(sent.state).toBe("created");
    expect(JSON.parse(sent.request!).notes).toContain(sent.reference);
    expect(sandbox().orders.size).toBe(1);
  });

  it("is kept out of its batch, the others going in one create-bulk call", async () => {
    const orders = [0, 1, 2].map((i) => ({
      ...salmiya,
      fulfillmentNumber: 8100 + i,
      orderNumber: 4100 + i,
    }));
    const { worker, rows } = await readyDeliveries(orders);
    const spoilt = JSON.parse(rows[1]!.request!);
    spoilt.deliveryAddress.contactPhone = "12";
    await prisma.delivery.update({
      where: { id: rows[1]!.id },
      data: { request: JSON.stringify(spoilt) },
    });

    await worker.drain();
    const after = await prisma.delivery.findMany({ where: { shop }, orderBy: { orderId: "asc" } });
    expect(after.map((d) => d.state)).toEqual(["created", "needs_attention", "created"]);
    expect(after[1]!.stateReason).toMatch(
      /^The request built for this delivery can no longer be read \(deliveryAddress\.contactPhone: /,
    );
    const bulk = sandbox().requestLog.filter((r) => r.endpoint === "createBulk");
    expect(bulk).toHaveLength(1);
    expect(sandbox().orders.size).toBe(2);
  });

  it("is said on the delivery's page, which shows the rest", async () => {
    const { rows } = await readyDeliveries([salmiya]);
    await prisma.delivery.update({ where: { id: rows[0]!.id }, data: { request: "[]" } });
    const page = await deliveryPage(rows[0]!.id);
    expect(page.delivery).toMatchObject({ state: "ready" });
    expect(page.technical).toMatchObject({
      reference: rows[0]!.reference,
      request: null,
      requestProblem: expect.stringMatching(/expected object/),
    });
  });
});

describe("a delivery page whose other JSON no longer reads", () => {
  it("shows the timeline without the unreadable answer, and that a Shopify status is pending", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    await receive(salmiya);
    await testWorker().drain();
    const delivery = await prisma.delivery.findFirstOrThrow({
      where: { shop },
      include: { events: true },
    });
    expect(delivery.state).toBe("created");
    const created = delivery.events.find((e) => e.kind === "created")!;
    await prisma.deliveryEvent.update({ where: { id: created.id }, data: { data: "{oops" } });
    await prisma.delivery.update({
      where: { id: delivery.id },
      data: { addressMatch: "{oops", shopifyPending: '{"status":"LOST"}' },
    });

    const page = await deliveryPage(delivery.id);
    expect(page.courier.number).toBe(delivery.courierOrderNumber);
    expect(page.courier.shopifyOwed).toEqual({ status: null, retryAt: null });
    const entry = page.events.find((e: { kind: string }) => e.kind === "created");
    // Its sentence from its kind alone; the record as written stays in the technical details.
    expect(entry).toMatchObject({ sentence: { key: "timeline.kind.created" }, courier: null });
    expect(page.technical.timeline).toContainEqual(
      expect.objectContaining({ kind: "created", message: created.message }),
    );
    expect(page.events.map((e: { kind: string }) => e.kind)).toEqual(
      delivery.events.map((e) => e.kind),
    );
  });

  it("the public tracking page leaves out a step whose record no longer reads", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    await receive(salmiya);
    await testWorker().drain();
    const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    const status = (at: string, data: string) =>
      prisma.deliveryEvent.create({
        data: {
          shop,
          deliveryId: delivery.id,
          at: new Date(at),
          kind: "courier_status",
          message: "The courier reported a status.",
          data,
        },
      });
    await status(
      "2030-01-01T10:00:00.000Z",
      JSON.stringify({ status: "PICKED", name: "تم الاستلام", state: "picked_up", at: null }),
    );
    await status("2030-01-01T11:00:00.000Z", "not json");

    const response = await callRoute(
      trackingLoader,
      new Request(new URL(`/tracking/${delivery.trackingToken}`, APP_URL)),
      { token: delivery.trackingToken },
    );
    expect(response.status).toBe(200);
    const { page } = await response.json();
    // The steps of the journey (ADR 0040): booked, then the pickup the readable record tells of.
    expect(
      page.steps.filter((s: { done: boolean }) => s.done).map((s: { step: string }) => s.step),
    ).toEqual(["booked", "picked_up"]);
  });
});

describe("a Shopify shipment status the app does not know", () => {
  it("is shown as unknown on the delivery's page", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    await receive(salmiya);
    await testWorker().drain();
    const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    await prisma.delivery.update({
      where: { id: delivery.id },
      data: { shopifyEventStatus: "LOST" },
    });

    const page = await deliveryPage(delivery.id);
    expect(page.delivery).toMatchObject({ state: "created" });
    expect(page.courier.shopifyStatus).toBeNull();
  });
});

describe("an address match that no longer reads", () => {
  async function waitingForAddress() {
    const { directory } = await readyShop(shop);
    programShopify([unclear]);
    await receive(unclear);
    await testWorker().drain();
    const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(delivery.state).toBe("needs_address");
    await prisma.delivery.update({
      where: { id: delivery.id },
      data: { addressMatch: '{"reasons":"none"}' },
    });
    return { directory, delivery };
  }

  it("still lists the address to place, saying what is missing, and takes the answer", async () => {
    const { directory, delivery } = await waitingForAddress();
    const page = await (
      await callRoute(reviewLoader, await adminFetchRequest(shop, "/app/address-review"))
    ).json();
    expect(page.queue).toEqual([
      expect.objectContaining({
        id: delivery.id,
        typed: "",
        suggestion: null,
        // The page says so in its own words (review:unreadable).
        unreadable: true,
        courier: null,
      }),
    ]);

    const mishref = directory.areas.find(
      (a) => a.name.includes("مشرف") && !a.name.includes("مبارك"),
    )!;
    const response = await callRoute(
      reviewAction,
      await adminFetchRequest(shop, "/app/address-review", {
        form: {
          deliveryId: delivery.id,
          governanceId: String(mishref.governanceId),
          areaId: String(mishref.id),
          block: "3",
          house: "9",
          remember: "on",
        },
      }),
    );
    expect(await response.json()).toMatchObject({
      ok: true,
      notRemembered: { code: "not_remembered_unreadable", params: {} },
    });
    const ready = await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(ready.state).toBe("ready");
    expect(JSON.parse(ready.addressMatch!)).toEqual({
      fixedByMerchant: true,
      courier: { governanceId: mishref.governanceId, areaId: mishref.id },
      parts: expect.objectContaining({ block: "3" }),
    });
  });

  it("sends a rejected delivery back to the address review page on Send again", async () => {
    await readyShop(shop);
    programShopify([salmiya]);
    sandbox().faults.add({ endpoint: "createOrder", kind: "error", status: 400 });
    await receive(salmiya);
    await testWorker().drain();
    const rejected = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(rejected.state).toBe("rejected");
    await prisma.delivery.update({ where: { id: rejected.id }, data: { addressMatch: "x" } });

    const response = await post(rejected.id);
    expect(response.status).toBe(200);
    const reason =
      "The place chosen for this delivery's address can no longer be read (not JSON): choose it again on the address review page.";
    expect(await response.json()).toEqual({
      ok: true,
      message: { code: "place_unreadable", params: {} },
    });
    const waiting = await prisma.delivery.findUniqueOrThrow({ where: { id: rejected.id } });
    expect(waiting).toMatchObject({ state: "needs_address", stateReason: reason });
    expect(sandbox().orders.size).toBe(0);
  });
});

describe("courier master data that no longer reads", () => {
  it("makes deliveries wait for the connection to be tested, as if never fetched", async () => {
    await readyShop(shop);
    // Written unreadable by a fetch (a new fetch time): a process that built the areas before
    // keeps its copy only while the stored fetch time is the one it built from.
    await prisma.courierMasterData.updateMany({
      where: { shop },
      data: { areas: "[{", fetchedAt: new Date() },
    });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    programShopify([salmiya]);
    await receive(salmiya);
    await testWorker().drain();
    const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(delivery).toMatchObject({
      state: "needs_address",
      stateReason: "The courier's areas are not loaded: test the connection in Settings.",
    });
    expect(warn).toHaveBeenCalledWith(
      `CourierMasterData.areas of ${shop} (sandbox) no longer reads (not JSON): treated as not fetched.`,
    );
  });
});

describe("privacy records that no longer read", () => {
  it("export what is stored, and show a request's orders as none", async () => {
    await readyShop(shop);
    const delivery = await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/4242",
        fulfillmentId: "gid://shopify/Fulfillment/4242",
        source: "webhook",
        state: "delivered",
        environment: "sandbox",
        reference: "SHPFY-unreadable-1",
        request: '{"deliveryAddress":{"contactName":"Mariam"}}',
        addressMatch: "Mariam's house",
      },
    });
    const request = await prisma.complianceRequest.create({
      data: { shop, topic: "customers/data_request", webhookId: "w-1", orderIds: '["4242"]' },
    });
    const exported = await customerDataExport(shop, request.id);
    expect(exported?.deliveries).toEqual([
      expect.objectContaining({
        order: delivery.orderId,
        courierRequest: { deliveryAddress: { contactName: "Mariam" } },
        addressMatch: "Mariam's house",
      }),
    ]);

    await prisma.complianceRequest.update({
      where: { id: request.id },
      data: { orderIds: "4242" },
    });
    expect((await listComplianceRequests(shop)).map((r) => r.orderIds)).toEqual([[]]);
  });
});
