import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { buildCreateOrderBody } from "../../app/courier";
import {
  COURIER_SPELLINGS,
  DEFAULT_SANDBOX_KEY,
  loadMasterData,
  MISSING_AREAS,
  SIGNATURE_HEADER,
  startCourierSandbox,
  verifyWebhookSignature,
  type CourierSandbox,
  type CourierSandboxOptions,
} from "../../sandbox/courier";
import { DEFAULT_GAZETTEER } from "../../sandbox/courier/master-data";
import { round3 } from "../../sandbox/courier/orders";
import { isLoopbackAddress } from "../../sandbox/courier/server";
import { orderInput } from "./fixtures";

// The sandbox's own behaviour, spoken to with plain fetch so its rules are checked independently of
// the client.
const started: CourierSandbox[] = [];
async function sandboxWith(options: CourierSandboxOptions = {}) {
  const sandbox = await startCourierSandbox(options);
  started.push(sandbox);
  return sandbox;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

const auth = { authorization: `ApiKey ${DEFAULT_SANDBOX_KEY}` };

async function call(
  sandbox: CourierSandbox,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = auth,
) {
  const response = await fetch(sandbox.url + path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

const create = async (sandbox: CourierSandbox, notes = "") => {
  const reply = await call(
    sandbox,
    "POST",
    "/api/orders/create",
    buildCreateOrderBody(orderInput(sandbox, { notes })),
  );
  return (reply.body.results as { orderId: string }).orderId;
};

describe("master data", () => {
  it("has ids that are stable across runs, unique, and nothing like array positions", () => {
    const first = loadMasterData();
    const second = loadMasterData();
    expect(second).toEqual(first);
    const governanceIds = first.map((g) => g.governanceId);
    const areaIds = first.flatMap((g) => g.areas.map((a) => a.areaId));
    expect(new Set(governanceIds).size).toBe(6);
    expect(new Set(areaIds).size).toBe(areaIds.length);
    for (const id of governanceIds) expect(id).toBeGreaterThan(10);
    for (const id of areaIds) expect(id).toBeGreaterThanOrEqual(1000);
  });

  it("lacks a few gazetteer areas and spells some Arabic names its own way", () => {
    const gazetteer = JSON.parse(fs.readFileSync(DEFAULT_GAZETTEER, "utf8")) as {
      areas: { nameEn: string; nameAr: string }[];
    }[];
    const gazetteerAreas = gazetteer.flatMap((g) => g.areas);
    const courierAreas = loadMasterData().flatMap((g) => g.areas);
    expect(courierAreas).toHaveLength(gazetteerAreas.length - MISSING_AREAS.length);
    for (const [nameEn, spelling] of Object.entries(COURIER_SPELLINGS)) {
      const original = gazetteerAreas.find((a) => a.nameEn === nameEn)?.nameAr;
      expect(original, nameEn).toBeDefined();
      expect(spelling).not.toBe(original);
      expect(courierAreas.find((a) => a.nameEn === nameEn)?.nameAr).toBe(spelling);
    }
  });

  it("answers in Arabic or English by the path suffix and refuses other languages", async () => {
    const sandbox = await sandboxWith();
    const ar = await call(sandbox, "GET", "/api/master/governances/ar");
    const en = await call(sandbox, "GET", "/api/master/governances/en");
    expect(ar.body).toMatchObject({ responseCode: 200, message: "Success" });
    expect((ar.body.results as { governanceName: string }[])[0]?.governanceName).toBe("العاصمة");
    expect((en.body.results as { governanceName: string }[])[0]?.governanceName).toBe("Al Asimah");
    const fr = await call(sandbox, "GET", "/api/master/governances/fr");
    expect(fr).toMatchObject({ status: 400, body: { responseCode: 400 } });
  });
});

describe("requests", () => {
  it("refuses a missing or wrong key with a 401 envelope, and can accept no key at all", async () => {
    const sandbox = await sandboxWith();
    expect(await call(sandbox, "GET", "/api/master/order-status/ar", undefined, {})).toMatchObject({
      status: 401,
      body: { responseCode: 401, message: expect.stringMatching(/Authorization is required/) },
    });
    expect(
      (
        await call(sandbox, "GET", "/api/master/order-status/ar", undefined, {
          authorization: `Bearer ${DEFAULT_SANDBOX_KEY}`,
        })
      ).status,
    ).toBe(401);

    const open = await sandboxWith({ allowMissingKey: true });
    expect((await call(open, "GET", "/api/master/order-status/ar", undefined, {})).status).toBe(
      200,
    );
    expect(
      (
        await call(open, "GET", "/api/master/order-status/ar", undefined, {
          authorization: "ApiKey wrong",
        })
      ).status,
    ).toBe(401);
  });

  it("answers unknown paths, wrong methods and broken JSON with envelopes", async () => {
    const sandbox = await sandboxWith();
    expect(await call(sandbox, "GET", "/api/nope")).toMatchObject({
      status: 404,
      body: { responseCode: 404 },
    });
    expect(await call(sandbox, "GET", "/api/orders/create")).toMatchObject({ status: 404 });
    expect(await call(sandbox, "DELETE", "/api/orders/create")).toMatchObject({
      status: 405,
      body: { responseCode: 405 },
    });
    expect(await call(sandbox, "POST", "/api/orders/create", "{not json")).toMatchObject({
      status: 400,
      body: { message: "The body is not valid JSON." },
    });
  });

  it("refuses the sender/receiver body of the document's code sample, saying which body it takes", async () => {
    const sandbox = await sandboxWith();
    const reply = await call(sandbox, "POST", "/api/orders/create", {
      sender: { name: "a", phone: "1", address: "x" },
      receiver: { name: "b", phone: "2", address: "y" },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(/send pickupAddress, deliveryAddress/);
  });

  it("lists every problem of an invalid order", async () => {
    const sandbox = await sandboxWith();
    const body = buildCreateOrderBody(orderInput(sandbox));
    const reply = await call(sandbox, "POST", "/api/orders/create", {
      ...body,
      paymentMethod: "bitcoin",
      pickupDate: "2020-01-01T10:00:00",
      deliveryAddress: { ...body.deliveryAddress, contactPhone: "+96599887766", governanceId: 1 },
    });
    expect(reply.status).toBe(400);
    const fields = (reply.body.results as { errors: { field: string }[] }).errors.map(
      (e) => e.field,
    );
    expect(fields).toEqual([
      "deliveryAddress.governanceId",
      "deliveryAddress.contactPhone",
      "pickupDate",
      "paymentMethod",
    ]);
  });

  it("keeps a request log without keys or bodies", async () => {
    const sandbox = await sandboxWith();
    await create(sandbox, "secret note");
    const [entry] = sandbox.requestLog;
    expect(entry).toMatchObject({
      method: "POST",
      path: "/api/orders/create",
      endpoint: "createOrder",
      status: 200,
      auth: "valid",
    });
    const logged = JSON.stringify(sandbox.requestLog);
    expect(logged).not.toContain(DEFAULT_SANDBOX_KEY);
    expect(logged).not.toContain("secret note");
  });
});

describe("money", () => {
  it.each([
    [0.5005, 0.501],
    [0.5095, 0.51],
    [1.0005, 1.001],
    [-1.0005, -1.001],
    [1.2345, 1.235],
    [0.0004, 0],
    [1.75 * 1.2, 2.1],
    [12.5, 12.5],
    [1e-7, 0],
  ])("rounds %d to %d, to the fils as written in decimal", (value, fils) => {
    expect(round3(value)).toBe(fils);
  });

  it("keeps every amount already in fils exactly", () => {
    for (let fils = 0; fils <= 200_000; fils += 7) expect(round3(fils / 1000)).toBe(fils / 1000);
  });
});

describe("orders over time", () => {
  const walk = (sandbox: CourierSandbox, orderId: string) => {
    const seen: string[] = [];
    for (let i = 0; i < 20; i++) {
      const [moved] = sandbox.advance(orderId);
      seen.push(moved?.status ?? "?");
      if (["delivered", "returned", "cancelled"].includes(moved?.status ?? "")) break;
    }
    return seen;
  };

  it("delivers, fails once then delivers, or returns, by the marker in the notes", async () => {
    const sandbox = await sandboxWith();
    expect(walk(sandbox, await create(sandbox))).toEqual([
      "accepted",
      "assigned",
      "picked_up",
      "in_transit",
      "out_for_delivery",
      "delivered",
    ]);
    expect(walk(sandbox, await create(sandbox, "[sandbox:fail-once]")).slice(4)).toEqual([
      "out_for_delivery",
      "delivery_failed",
      "out_for_delivery",
      "delivered",
    ]);
    expect(walk(sandbox, await create(sandbox, "[sandbox:return]")).slice(4)).toEqual([
      "out_for_delivery",
      "delivery_failed",
      "out_for_delivery",
      "delivery_failed",
      "returned",
    ]);
    expect(sandbox.exceptions.map((e) => e.type)).toEqual([
      "delivery_failed",
      "delivery_failed",
      "delivery_failed",
    ]);
    await create(sandbox, "[sandbox:address-problem]");
    sandbox.advance("all", "delivery_failed");
    expect(sandbox.exceptions.at(-1)?.type).toBe("address_problem");
  });

  it("moves orders forward by itself at the configured interval", async () => {
    const sandbox = await sandboxWith({ stepIntervalMs: 40 });
    const orderId = await create(sandbox);
    await expect
      .poll(() => sandbox.orders.get(orderId)?.status, { timeout: 3000, interval: 20 })
      .toBe("delivered");
    expect(sandbox.orders.get(orderId)?.history).toHaveLength(7);
  });

  it("accepts a cancel until pickup and not after", async () => {
    const sandbox = await sandboxWith();
    for (const status of ["pending", "accepted", "assigned"] as const) {
      const orderId = await create(sandbox);
      if (status !== "pending") sandbox.advance(orderId, status);
      expect((await call(sandbox, "POST", `/api/orders/${orderId}/cancel`)).status).toBe(200);
    }
    const cancelled = [...sandbox.orders.keys()][0] ?? "";
    expect(await call(sandbox, "POST", `/api/orders/${cancelled}/cancel`)).toMatchObject({
      status: 409,
      body: { message: expect.stringMatching(/already cancelled/) },
    });
    const picked = await create(sandbox);
    sandbox.advance(picked, "picked_up");
    expect(
      (await call(sandbox, "POST", `/api/orders/${picked}/cancel`, { reason: "late" })).status,
    ).toBe(409);
  });

  it("makes an order fail on its next time out, then delivers it", async () => {
    const sandbox = await sandboxWith();
    const orderId = await create(sandbox);
    expect(sandbox.advance(orderId, "delivery_failed")).toEqual([
      { orderId, status: "delivery_failed" },
    ]);
    expect(sandbox.exceptions.map((e) => [e.orderId, e.type])).toEqual([
      [orderId, "delivery_failed"],
    ]);
    expect(walk(sandbox, orderId)).toEqual(["out_for_delivery", "delivered"]);
  });

  it("raises an address problem when the failure asked for is one", async () => {
    const sandbox = await sandboxWith();
    const orderId = await create(sandbox);
    sandbox.advance(orderId, "out_for_delivery");
    sandbox.advance(orderId, "delivery_failed", "address_problem");
    expect(sandbox.exceptions.at(-1)).toMatchObject({ orderId, type: "address_problem" });
  });

  it("returns an order after two failed attempts", async () => {
    const sandbox = await sandboxWith();
    const orderId = await create(sandbox);
    sandbox.advance(orderId, "returned");
    expect(
      sandbox.orders
        .get(orderId)
        ?.history.map((h) => h.status)
        .slice(5),
    ).toEqual([
      "out_for_delivery",
      "delivery_failed",
      "out_for_delivery",
      "delivery_failed",
      "returned",
    ]);
  });

  it("delivers an order whose notes asked for a return when told to deliver it", async () => {
    const sandbox = await sandboxWith();
    const orderId = await create(sandbox, "[sandbox:return]");
    expect(sandbox.advance(orderId, "delivered")).toEqual([{ orderId, status: "delivered" }]);
  });

  it("leaves a delivered order as it is and says why it cannot be returned", async () => {
    const sandbox = await sandboxWith();
    const orderId = await create(sandbox);
    sandbox.advance(orderId, "delivered");
    const number = sandbox.orders.get(orderId)?.orderNumber;
    expect(() => sandbox.advance(orderId, "returned")).toThrow(
      `Order ${number} is delivered, a final status: it moves no further.`,
    );
    expect(sandbox.orders.get(orderId)?.status).toBe("delivered");
    expect(sandbox.orders.get(orderId)?.history).toHaveLength(7);
  });

  it("refuses to cancel an order out for delivery, through the control API too", async () => {
    const sandbox = await sandboxWith();
    const orderId = await create(sandbox);
    sandbox.advance(orderId, "out_for_delivery");
    const reply = await fetch(`${sandbox.url}/__sandbox/advance`, {
      method: "POST",
      body: JSON.stringify({ target: orderId, to: "cancelled" }),
    });
    expect(reply.status).toBe(400);
    expect(((await reply.json()) as { error: string }).error).toMatch(
      /is out for delivery: the courier cancels an order only before pickup/,
    );
    expect(sandbox.orders.get(orderId)?.status).toBe("out_for_delivery");
  });

  it("moves nothing while paused, and goes on at the new speed when resumed", async () => {
    const sandbox = await sandboxWith({ stepIntervalMs: 60_000 });
    const orderId = await create(sandbox);
    const clock = await fetch(`${sandbox.url}/__sandbox/clock`, {
      method: "POST",
      body: JSON.stringify({ stepMs: 30, paused: true }),
    });
    expect(await clock.json()).toEqual({ stepMs: 30, paused: true });
    await new Promise((r) => setTimeout(r, 250));
    expect(sandbox.orders.get(orderId)?.status).toBe("pending");
    sandbox.setPaused(false);
    await expect
      .poll(() => sandbox.orders.get(orderId)?.status, { timeout: 3000, interval: 20 })
      .toBe("delivered");
  });

  it("signs each status change it posts to the webhook receiver", async () => {
    const received: { body: string; signature: string | undefined }[] = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({
          body: Buffer.concat(chunks).toString(),
          signature: req.headers[SIGNATURE_HEADER] as string | undefined,
        });
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const port = (receiver.address() as AddressInfo).port;
      const sandbox = await sandboxWith({
        webhook: { url: `http://127.0.0.1:${port}/webhooks/courier`, secret: "whsec_test" },
      });
      const orderId = await create(sandbox);
      sandbox.advance(orderId, "picked_up");
      await sandbox.flushWebhooks();
      expect(received).toHaveLength(3);
      for (const { body, signature } of received) {
        expect(verifyWebhookSignature(body, signature, "whsec_test")).toBe(true);
        expect(verifyWebhookSignature(body, signature, "another secret")).toBe(false);
      }
      const events = received.map(
        (r) => JSON.parse(r.body) as { order: { status: string; previousStatus: string } },
      );
      expect(events.map((e) => e.order.status)).toEqual(["accepted", "assigned", "picked_up"]);
      expect(events[0]?.order.previousStatus).toBe("pending");
      expect(sandbox.webhookDeliveries.every((d) => d.delivered && d.attempts === 1)).toBe(true);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe("faults", () => {
  it("fires probabilistic faults the same way for the same seed", async () => {
    const pattern = async (seed: number) => {
      const sandbox = await sandboxWith({ seed });
      sandbox.faults.add({ endpoint: "governances", kind: "error", probability: 0.5 });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++)
        statuses.push((await call(sandbox, "GET", "/api/master/governances/ar")).status);
      return statuses;
    };
    const first = await pattern(7);
    expect(await pattern(7)).toEqual(first);
    expect(first).toContain(503);
    expect(first).toContain(200);
  });

  it("sends the headers and part of the body, then holds the rest until hangMs has passed", async () => {
    const sandbox = await sandboxWith();
    sandbox.faults.add({ endpoint: "governances", kind: "stallBody", hangMs: 300 });
    const started = performance.now();
    const response = await fetch(`${sandbox.url}/api/master/governances/en`, { headers: auth });
    const reader = response.body!.getReader();
    const first = await reader.read();
    const firstAt = performance.now() - started;
    const chunks = [first.value!];
    for (let next = await reader.read(); !next.done; next = await reader.read())
      chunks.push(next.value);
    const doneAt = performance.now() - started;

    expect(response.status).toBe(200);
    expect(Number(response.headers.get("content-length"))).toBeGreaterThan(first.value!.length);
    // The first half came at once, the rest only once the sandbox let it go.
    expect(doneAt - firstAt).toBeGreaterThanOrEqual(200);
    expect(doneAt).toBeGreaterThanOrEqual(295);
    const text = Buffer.concat(chunks).toString("utf8");
    expect(JSON.parse(text)).toMatchObject({ responseCode: 200 });
    expect(sandbox.requestLog[0]).toMatchObject({ status: 200, fault: "stallBody" });
  });

  it("records an order created with commitLate only once its delay has passed on the sandbox's clock", async () => {
    const clock = { now: Date.parse("2026-11-24T09:00:00Z") };
    const sandbox = await sandboxWith({ clock: () => clock.now });
    sandbox.faults.add({
      endpoint: "createOrder",
      kind: "commitLate",
      commitAfterMs: 20_000,
      status: 504,
    });
    const reply = await call(
      sandbox,
      "POST",
      "/api/orders/create",
      buildCreateOrderBody(orderInput(sandbox, { notes: "REF-LATE-1" })),
    );
    expect(reply.status).toBe(504);
    const [order] = [...sandbox.orders.values()];
    const search = () => call(sandbox, "GET", "/api/orders/customer/history?search=REF-LATE-1");
    expect((await search()).body.results).toEqual([]);
    expect((await call(sandbox, "GET", `/api/orders/${order!.orderId}`)).status).toBe(404);

    clock.now += 20_000;
    expect((await search()).body.results).toEqual([
      expect.objectContaining({ orderId: order!.orderId }),
    ]);
    expect((await call(sandbox, "GET", `/api/orders/${order!.orderId}`)).status).toBe(200);
  });

  /** A sandbox with five orders to find, and the history page `n` of two orders each. */
  async function fiveInHistory() {
    const sandbox = await sandboxWith();
    for (let i = 0; i < 5; i++) await create(sandbox, `PAGED-${i}`);
    const page = (n: number) =>
      call(sandbox, "GET", `/api/orders/customer/history?search=PAGED&pageSize=2&page=${n}`);
    return { sandbox, page };
  }

  it("pages history for real", async () => {
    const { page } = await fiveInHistory();
    const ids = async (n: number) =>
      ((await page(n)).body.results as { orderId: string }[]).map((o) => o.orderId);
    expect(new Set([...(await ids(1)), ...(await ids(2)), ...(await ids(3))]).size).toBe(5);
    expect((await page(1)).headers.get("x-total-count")).toBe("5");
  });

  it("with ignorePaging answers the first page every time, without a total", async () => {
    const { sandbox, page } = await fiveInHistory();
    sandbox.faults.add({ endpoint: "history", kind: "ignorePaging", times: 2 });
    const first = await page(1);
    const third = await page(3);
    expect(third.body.results).toEqual(first.body.results);
    expect(third.headers.get("x-total-count")).toBeNull();
  });

  it("can be armed and the orders moved through the control API, for a sandbox in another process", async () => {
    const sandbox = await sandboxWith();
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      body: JSON.stringify({
        endpoint: "vehicleTypes",
        kind: "rateLimit",
        retryAfter: 3,
        times: 2,
      }),
    });
    const limited = await call(sandbox, "GET", "/api/master/vehicle-types/ar");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect(
      (await (await fetch(`${sandbox.url}/__sandbox/faults`)).json()) as unknown[],
    ).toMatchObject([{ times: 1 }]);

    const orderId = await create(sandbox);
    const moved = await fetch(`${sandbox.url}/__sandbox/advance`, {
      method: "POST",
      body: JSON.stringify({ target: orderId, to: "assigned" }),
    });
    expect(await moved.json()).toEqual([{ orderId, status: "assigned" }]);
    const log = (await (await fetch(`${sandbox.url}/__sandbox/log`)).json()) as {
      endpoint: string;
    }[];
    expect(log.map((e) => e.endpoint)).toEqual(["vehicleTypes", "createOrder"]);
  });

  it.each([
    ["127.0.0.1", true],
    ["127.45.6.7", true],
    ["::1", true],
    ["0:0:0:0:0:0:0:1", true],
    ["::ffff:127.0.0.1", true],
    ["::FFFF:127.9.9.9", true],
    ["10.0.0.5", false],
    ["192.168.1.20", false],
    ["128.0.0.1", false],
    ["::ffff:10.0.0.5", false],
    ["::ffff:7f00:1", true],
    ["::2", false],
    ["fe80::1", false],
    ["", false],
    [undefined, false],
  ])(
    "tells whether %s is loopback, the only kind the control API answers (%s)",
    (address, allowed) => {
      expect(isLoopbackAddress(address)).toBe(allowed);
    },
  );
});
