import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  CourierAuthError,
  CourierNotFoundError,
  CourierValidationError,
  createCourierClient,
  fetchMasterData,
  testConnection,
  type CourierClient,
} from "../../app/courier";
import { MISSING_AREAS, startCourierSandbox, type CourierSandbox } from "../../sandbox/courier";
import { orderInput, place, TEST_KEY } from "./fixtures";

// The client against the running sandbox, one endpoint after another, over real HTTP on loopback.
let sandbox: CourierSandbox;
let client: CourierClient;

beforeAll(async () => {
  sandbox = await startCourierSandbox({ acceptedKeys: [TEST_KEY, "second-customer-key"] });
  client = createCourierClient({ baseUrl: sandbox.url, apiKey: TEST_KEY, retryBaseDelayMs: 5 });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const rejection = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
};

describe("master data", () => {
  it("reads governances in Arabic by default and in English on request, under the courier's own ids", async () => {
    const arabic = await client.governances();
    const english = await client.governances("en");
    expect(arabic).toHaveLength(6);
    expect(arabic.map((g) => g.governanceName)).toContain("حولي");
    expect(english.map((g) => g.governanceName)).toContain("Hawalli");
    expect(english.map((g) => g.governanceId)).toEqual(arabic.map((g) => g.governanceId));
    // Not array positions: an app that used indexes would be caught.
    for (const g of arabic) expect(g.governanceId).toBeGreaterThan(10);
    expect(sandbox.requestLog.map((e) => e.path)).toEqual([
      "/api/master/governances/ar",
      "/api/master/governances/en",
    ]);
  });

  it("reads the areas of a governance with their ids, names and governance", async () => {
    const { governanceId, areaId } = place(sandbox, "Salmiya");
    const areas = await client.areas(governanceId);
    const salmiya = areas.find((a) => a.areaId === areaId);
    expect(salmiya).toMatchObject({ areaName: "السالميه", governanceId });
    expect(salmiya?.raw).toEqual({ areaId, areaName: "السالميه", governanceId });
    const english = await client.areas(governanceId, "en");
    expect(english.find((a) => a.areaId === areaId)?.areaName).toBe("Salmiya");
  });

  it("says plainly when a governance does not exist", async () => {
    const error = await rejection(client.areas(999_999));
    expect(error).toBeInstanceOf(CourierNotFoundError);
    expect((error as CourierNotFoundError).outcome).toBe("rejected");
    expect((error as Error).message).toMatch(/Governance 999999 was not found/);
  });

  it("reads vehicle types and order statuses", async () => {
    const vehicles = await client.vehicleTypes();
    expect(vehicles.map((v) => v.vehicleTypeId)).toEqual([1, 2, 3, 4]);
    expect(vehicles[0]?.name).toBe("دراجة نارية");
    const statuses = await client.orderStatuses("en");
    expect(statuses.map((s) => s.code)).toEqual([
      "pending",
      "accepted",
      "assigned",
      "picked_up",
      "in_transit",
      "out_for_delivery",
      "delivered",
      "delivery_failed",
      "returned",
      "cancelled",
    ]);
    expect(statuses[0]?.name).toBe("Pending");
  });

  it("counts everything the key can read for Test connection, without the areas the courier lacks", async () => {
    const expectedAreas = sandbox.governances.reduce((n, g) => n + g.areas.length, 0);
    expect(await testConnection(client)).toEqual({ governances: 6, areas: expectedAreas });
    const data = await fetchMasterData(client, { lang: "en" });
    const names = data.areas.map((a) => a.areaName);
    for (const missing of MISSING_AREAS) expect(names).not.toContain(missing);
    for (const area of data.areas) {
      expect(data.governances.map((g) => g.governanceId)).toContain(area.governanceId);
    }
  });

  it("fetches the areas of at most three governances at a time", async () => {
    let inFlight = 0;
    let most = 0;
    const counting: typeof fetch = async (input, init) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      try {
        return await fetch(input, init);
      } finally {
        inFlight -= 1;
      }
    };
    sandbox.faults.add({ endpoint: "areas", kind: "latency", latencyMs: 20, times: 6 });
    const counted = createCourierClient({
      baseUrl: sandbox.url,
      apiKey: TEST_KEY,
      fetch: counting,
    });
    expect((await testConnection(counted)).governances).toBe(6);
    expect(most).toBe(3);
  });
});

describe("orders", () => {
  it("creates an order with the exact wire body the document describes", async () => {
    const result = await client.createOrder(orderInput(sandbox));
    expect(result).toMatchObject({
      status: "pending",
      orderNumber: expect.stringMatching(/^KW\d+$/),
    });
    expect(result.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);

    const stored = sandbox.orders.get(result.orderId);
    expect(stored?.request.deliveryAddress).toEqual({
      ...place(sandbox, "Jabriya"),
      block: "1A",
      street: "5",
      office: "",
      floor: "",
      house: "14",
      avenue: "2",
      building: "",
      contactCountryCode: "+965",
      contactName: "نورة",
      contactPhone: "99887766",
      latitude: 29.320123,
      longitude: 48.020988,
      notes: "Ring twice",
    });
    expect(stored?.request.pickupAddress.contactPhone).toBe("22223333");
    expect(stored?.request.packageDetails).toEqual({
      weight: 1.2,
      description: "Perfume",
      value: 24.5,
    });
    expect(stored?.request.pickupDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  });

  it("reads one order, tracks it through its statuses and finds it in history by the reference in its notes", async () => {
    const created = await client.createOrder(orderInput(sandbox, { notes: "ref:KCS-4242" }));
    await client.createOrder(orderInput(sandbox, { notes: "ref:KCS-9999" }));

    const order = await client.getOrder(created.orderId);
    expect(order).toMatchObject({
      orderId: created.orderId,
      orderNumber: created.orderNumber,
      status: "pending",
      createdAt: created.createdAt,
    });

    sandbox.advance(created.orderId, "in_transit");
    const tracking = await client.track(created.orderId);
    expect(tracking.status).toBe("in_transit");
    expect(tracking.events.map((e) => e.status)).toEqual([
      "pending",
      "accepted",
      "assigned",
      "picked_up",
      "in_transit",
    ]);

    const found = await client.history({ search: "KCS-4242" });
    expect(found.orders.map((o) => o.orderId)).toEqual([created.orderId]);
    expect(found.total).toBe(1);
    expect((await client.history({ status: "pending" })).orders).toHaveLength(1);
    const today = created.createdAt.slice(0, 10);
    expect((await client.history({ from: today, to: today })).total).toBe(2);
    expect((await client.history({ to: "2000-01-01" })).orders).toEqual([]);
  });

  it("pages through history", async () => {
    await client.createBulk(
      Array.from({ length: 5 }, (_, i) => orderInput(sandbox, { notes: `bulk ${i}` })),
    );
    const first = await client.history({ page: 1, pageSize: 2 });
    const third = await client.history({ page: 3, pageSize: 2 });
    expect(first).toMatchObject({ page: 1, pageSize: 2, total: 5 });
    expect(first.orders).toHaveLength(2);
    expect(third.orders).toHaveLength(1);
    expect(sandbox.requestLog.at(-1)?.query).toBe("?page=3&pageSize=2");
    // The client's largest page is one the sandbox serves; one more is refused before sending.
    expect((await client.history({ pageSize: 100 })).pageSize).toBe(100);
    expect((await client.exceptions({ pageSize: 100 })).pageSize).toBe(100);
    const sent = sandbox.requestLog.length;
    await expect(client.history({ pageSize: 101 })).rejects.toMatchObject({ outcome: "not_sent" });
    expect(sandbox.requestLog).toHaveLength(sent);
  });

  it("cancels before pickup and refuses, with the courier's reason, after it", async () => {
    const early = await client.createOrder(orderInput(sandbox));
    const cancelled = await client.cancel(early.orderId, { reason: "customer changed their mind" });
    expect(cancelled).toMatchObject({ orderId: early.orderId, status: "cancelled" });

    const late = await client.createOrder(orderInput(sandbox));
    sandbox.advance(late.orderId, "picked_up");
    const error = await rejection(client.cancel(late.orderId));
    expect(error).toBeInstanceOf(CourierValidationError);
    expect(error).toMatchObject({ status: 409, outcome: "rejected" });
    expect((error as Error).message).toMatch(/can no longer be cancelled/);
    expect(sandbox.orders.get(late.orderId)?.status).toBe("picked_up");
  });

  it("does not show one customer's orders to another key", async () => {
    const created = await client.createOrder(orderInput(sandbox));
    const other = createCourierClient({ baseUrl: sandbox.url, apiKey: "second-customer-key" });
    await expect(other.getOrder(created.orderId)).rejects.toBeInstanceOf(CourierNotFoundError);
    expect((await other.history()).orders).toEqual([]);
  });

  it("creates in bulk and reports each order's fate in input order", async () => {
    const wrongArea = orderInput(sandbox);
    // Passes the client's checks (integers) but the area belongs to another governance.
    wrongArea.deliveryAddress = {
      ...wrongArea.deliveryAddress,
      areaId: place(sandbox, "Jahra").areaId,
    };
    const result = await client.createBulk([orderInput(sandbox), wrongArea, orderInput(sandbox)]);
    expect(result).toMatchObject({ created: 2, rejected: 1, unknown: 0 });
    expect(result.items.map((i) => i.outcome)).toEqual(["created", "rejected", "created"]);
    const rejected = result.items[1];
    expect(rejected?.outcome === "rejected" && rejected.message).toMatch(
      /is an area of governance/,
    );
    expect(sandbox.orders.size).toBe(2);
  });

  it("prices by area and weight with the sandbox's tariff", async () => {
    const input = orderInput(sandbox);
    const sameGovernance = await client.calculatePrice({
      pickupAddress: input.pickupAddress,
      deliveryAddress: input.deliveryAddress,
      packageDetails: { weight: 7.2 },
    });
    // 1.250 within a governance + 3 started kilograms above 5 at 0.250.
    expect(sameGovernance).toMatchObject({ price: 2, currency: "KWD" });
    const remote = await client.calculatePrice({
      pickupAddress: place(sandbox, "Salmiya"),
      deliveryAddress: place(sandbox, "Wafra"),
      packageDetails: { weight: 1 },
      vehicleTypeId: 2,
    });
    // (1.750 across governances + 1.000 remote) × 1.2 for a car.
    expect(remote.price).toBe(3.3);
  });

  it("lists the exceptions of failed attempts and reports on the customer's orders", async () => {
    const failing = await client.createOrder(orderInput(sandbox, { notes: "[sandbox:fail-once]" }));
    const fine = await client.createOrder(orderInput(sandbox));
    await client.createOrder(orderInput(sandbox));
    sandbox.advance(failing.orderId, "delivery_failed");
    sandbox.advance(fine.orderId, "delivered");

    const { exceptions, total } = await client.exceptions();
    expect(total).toBe(1);
    expect(exceptions[0]).toMatchObject({ orderId: failing.orderId, type: "delivery_failed" });
    expect((await client.exceptions({ orderId: fine.orderId })).exceptions).toEqual([]);

    const report = await client.corporateOrdersReport();
    expect(report.totalOrders).toBe(3);
    expect(report.byStatus).toMatchObject({
      pending: 1,
      delivered: 1,
      delivery_failed: 1,
      cancelled: 0,
    });
    expect(report.raw).toMatchObject({ currency: "KWD", totalCodAmount: 73.5 });
  });
});

describe("authentication", () => {
  it("sends the key as `ApiKey <key>` and is refused with a wrong one", async () => {
    const wrong = createCourierClient({ baseUrl: sandbox.url, apiKey: "not-the-key" });
    const error = await rejection(wrong.governances());
    expect(error).toBeInstanceOf(CourierAuthError);
    expect(error).toMatchObject({ status: 401, responseCode: 401, outcome: "rejected" });
    expect((error as Error).message).toMatch(/rejected the API key.*sandbox or production/);
    expect(sandbox.requestLog.map((e) => e.auth)).toEqual(["invalid"]);
  });

  it("works without a key against a sandbox that needs no credentials, and not otherwise", async () => {
    const open = await startCourierSandbox({ allowMissingKey: true });
    try {
      const keyless = createCourierClient({ baseUrl: open.url, apiKey: "" });
      expect(await keyless.governances()).toHaveLength(6);
      expect(open.requestLog[0]?.auth).toBe("missing");
    } finally {
      await open.close();
    }
    const keyless = createCourierClient({ baseUrl: sandbox.url, apiKey: "" });
    await expect(keyless.governances()).rejects.toBeInstanceOf(CourierAuthError);
  });
});
