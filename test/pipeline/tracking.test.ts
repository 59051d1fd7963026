import { beforeEach, describe, expect, it, vi } from "vitest";
import { signPush } from "../../app/courier";
import prisma from "../../app/db.server";
import { cancelDelivery } from "../../app/actions/cancel.server";
import { runTrackingSync } from "../../app/pipeline/tracking/sync.server";
import { FIRST_TRACKING_LOOK_MS } from "../../app/domain/lease-policy";
import { SYNC_DEFAULTS } from "../../app/pipeline/tracking/context.server";
import { requestColumn } from "../../app/domain/stored-request";
import { isStuck, listDeliveryPage } from "../../app/models/read/delivery-list.server";
import { redactCustomer } from "../../app/models/privacy.server";
import { createPushCredentials } from "../../app/models/push-credentials.server";
import { listStatusMappings, saveStatusMappings } from "../../app/models/tracking.server";
import {
  action as courierWebhook,
  loader as courierWebhookLoader,
} from "../../app/routes/courier.webhooks.$token";
import { loader as deliveryLoader } from "../../app/routes/app.deliveries.$id";
import { loader as trackingLoader } from "../../app/routes/tracking.$token";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { resetCostBudget } from "../../app/shopify/cost-budget";
import { unauthenticated } from "../../app/shopify.server";
import { adminApi } from "../support/admin-api";
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
  callRoute,
  installShop,
  shopDomain,
  webhookRequest,
} from "../support/shopify";

const shop = shopDomain("tracking");
// The sandbox's clock moves only when a test says so, so every status has its own time. Each test
// starts it at the app's (real) time, on a whole minute: courier times days away from the app's
// clock would change the cadence under test, and times ahead of it are read as "now".
const courierClock = { now: 0 };
beforeEach(() => {
  courierClock.now = Math.floor(Date.now() / 60_000) * 60_000;
});
const sandbox = setUpCourierSandbox({ clock: () => courierClock.now });

const order: FakeOrder = {
  fulfillmentNumber: 7001,
  orderNumber: 3001,
  city: "Salmiya",
  address1: "Block 10, Street 5, House 12",
  provinceCode: "KW-HA",
};

interface ShopifyEvent {
  fulfillmentId: string;
  status: string;
  happenedAt?: string;
  message: string;
}

/** Records fulfillment events and mark-paid calls the app makes. */
function recordShopifyWrites() {
  const events: ShopifyEvent[] = [];
  const paid: string[] = [];
  adminApi.on("DeliveryFulfillmentEvent", (variables) => {
    const input = variables.fulfillmentEvent as ShopifyEvent;
    events.push(input);
    return {
      data: {
        fulfillmentEventCreate: {
          fulfillmentEvent: {
            id: `gid://shopify/FulfillmentEvent/${events.length}`,
            status: input.status,
            happenedAt: input.happenedAt ?? null,
          },
          userErrors: [],
        },
      },
    };
  });
  adminApi.on("DeliveryMarkPaid", (variables) => {
    const input = variables.input as { id: string };
    paid.push(input.id);
    return {
      data: {
        orderMarkAsPaid: {
          order: { id: input.id, displayFinancialStatus: "PAID" },
          userErrors: [],
        },
      },
    };
  });
  return { events, paid };
}

/** A shop with one delivery created at the courier, tracking on Shopify. */
async function createdDelivery(fake: FakeOrder = order) {
  await readyShop(shop);
  programShopify([fake]);
  const writes = recordShopifyWrites();
  const response = await callRoute(
    fulfillmentsCreate,
    webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(fake) }),
  );
  expect(response.status).toBe(200);
  const worker = testWorker();
  await worker.drain();
  const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
  expect(delivery.state).toBe("created");
  expect(delivery.syncAt).toBeInstanceOf(Date);
  return { worker, writes, delivery, courierOrderId: delivery.courierOrderId! };
}

function step(courierOrderId: string, to?: Parameters<ReturnType<typeof sandbox>["advance"]>[1]) {
  courierClock.now += 60_000;
  sandbox().advance(courierOrderId, to);
}

const tracks = () => sandbox().requestLog.filter((r) => r.endpoint === "track").length;

/** The delivery page's data, as the merchant's browser loads it. */
async function deliveryPage(id: string) {
  const response = await callRoute(
    deliveryLoader,
    await adminFetchRequest(shop, `/app/deliveries/${id}`),
    { id },
  );
  const page = (await response.json()) as {
    delivery: { cancelRequestedAt: string | null };
    courier: { shopifyOwed: unknown };
  };
  return { ...page.delivery, shopifyOwed: page.courier.shopifyOwed };
}

/** Posts a status push to the shop's courier webhook URL, signed with `secret`. */
function postPush(body: object, { token, secret }: { token: string; secret: string }) {
  const raw = JSON.stringify(body);
  return callRoute(
    courierWebhook,
    new Request(`https://app.example/courier/webhooks/${token}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-courier-signature": signPush(raw, secret) },
      body: raw,
    }),
    { token },
  );
}

async function row() {
  return prisma.delivery.findFirstOrThrow({ where: { shop }, include: { events: true } });
}

describe("tracking sync", () => {
  it("follows a delivery to delivered, writing each Shopify event in order at the courier's time", async () => {
    const { worker, writes, courierOrderId } = await createdDelivery();
    // Not due yet: nothing is asked.
    expect(await runTrackingSync(worker.deps)).toBe(0);
    expect(tracks()).toBe(0);

    const expected: string[] = [];
    for (const [to, shopify] of [
      ["accepted", "CONFIRMED"],
      ["assigned", null],
      ["picked_up", "CARRIER_PICKED_UP"],
      ["in_transit", "IN_TRANSIT"],
      ["out_for_delivery", "OUT_FOR_DELIVERY"],
      ["delivered", "DELIVERED"],
    ] as const) {
      step(courierOrderId, to);
      worker.advance(FIRST_TRACKING_LOOK_MS + 6 * 60 * 60_000);
      expect(await runTrackingSync(worker.deps)).toBe(1);
      if (shopify) expected.push(shopify);
      expect(writes.events.map((e) => e.status)).toEqual(expected);
      expect((await row()).courierStatus).toBe(to);
    }
    const done = await row();
    expect(done.state).toBe("delivered");
    expect(done.syncAt).toBeNull();
    // Each Shopify event carries the time the courier gave (Kuwait local, UTC+3, read as such).
    const deliveredAt = new Date(writes.events.at(-1)!.happenedAt!);
    expect(deliveredAt.getTime()).toBe(courierClock.now - (courierClock.now % 1000));
    expect(writes.events.every((e) => e.fulfillmentId === "gid://shopify/Fulfillment/7001")).toBe(
      true,
    );
    expect(done.events.filter((e) => e.kind === "courier_status").map((e) => e.message)).toEqual([
      "Courier status: تم قبول الطلب (accepted).",
      "Courier status: تم تعيين السائق (assigned).",
      "Courier status: تم الاستلام من المرسل (picked_up).",
      "Courier status: في الطريق (in_transit).",
      "Courier status: خرج للتوصيل (out_for_delivery).",
      "Courier status: تم التوصيل (delivered).",
    ]);

    // The public tracking page tells the customer the same story, without personal data.
    const page = await callRoute(
      trackingLoader,
      new Request(`https://app.example/tracking/${done.trackingToken}`),
      { token: done.trackingToken },
    );
    const { page: story } = (await page.json()) as {
      page: { steps: { step: string; done: boolean; now: boolean }[]; outcome: string | null };
    };
    // Each step once, in the order of the parcel's journey: booked (once, however many timeline
    // entries say so), then picked up; the app's own tracking-number bookkeeping is no step.
    expect(story.steps.map((s) => s.step)).toEqual([
      "booked",
      "picked_up",
      "in_transit",
      "out_for_delivery",
      "delivered",
    ]);
    expect(story.outcome).toBe("delivered");
    expect(story.steps.every((s) => s.done)).toBe(true);
    expect(story.steps.filter((s) => s.now).map((s) => s.step)).toEqual(["delivered"]);
    // Never the customer: the page has their area, not their name nor their whole phone.
    expect(JSON.stringify(story)).not.toMatch(/Fatima|9999 ?1234/);

    // Final: never asked again.
    const before = tracks();
    worker.advance(7 * 24 * 60 * 60_000);
    expect(await runTrackingSync(worker.deps)).toBe(0);
    expect(tracks()).toBe(before);
  });

  it("closes on the timeline a cancellation asked for while the sync finds the parcel delivered", async () => {
    const { worker, delivery, courierOrderId } = await createdDelivery();
    step(courierOrderId, "delivered");
    worker.advance(FIRST_TRACKING_LOOK_MS);
    const answers: unknown[] = [];
    const deps = {
      ...worker.deps,
      courierFor: async (name: string, environment: "sandbox" | "production") => {
        const real = (await worker.deps.courierFor(name, environment))!;
        return {
          ...real,
          track: async (orderId: string) => {
            // The merchant presses Cancel while the sync is looking at the parcel.
            answers.push(await cancelDelivery(shop, delivery.id, "cancelled by the merchant"));
            return real.track(orderId);
          },
        };
      },
    };
    expect(await runTrackingSync(deps)).toBe(1);

    expect(answers).toEqual([expect.objectContaining({ ok: true, state: "requested" })]);
    const done = await row();
    expect(done).toMatchObject({ state: "delivered", cancelRequestedAt: null, cancelReason: null });
    expect(done.events.find((e) => e.kind === "cancel_refused")?.message).toBe(
      "Not cancelled (cancelled by the merchant): the delivery became delivered before it could be cancelled.",
    );
    expect(sandbox().requestLog.filter((r) => r.endpoint === "cancel")).toHaveLength(0);
    // The page no longer says a cancellation is being carried out.
    expect((await deliveryPage(done.id)).cancelRequestedAt).toBeNull();
  });

  it("asks the courier once and writes nothing to Shopify when nothing changed", async () => {
    const { worker, writes, courierOrderId } = await createdDelivery();
    step(courierOrderId, "out_for_delivery");
    worker.advance(FIRST_TRACKING_LOOK_MS);
    await runTrackingSync(worker.deps);
    const after = writes.events.length;
    const first = await row();
    expect(first.state).toBe("out_for_delivery");
    // Out for delivery: looked at again within minutes.
    expect(first.syncAt!.getTime() - worker.clock.now.getTime()).toBe(5 * 60_000);

    worker.advance(5 * 60_000);
    const callsBefore = tracks();
    expect(await runTrackingSync(worker.deps)).toBe(1);
    expect(tracks()).toBe(callsBefore + 1);
    expect(writes.events).toHaveLength(after);
    expect((await row()).events.filter((e) => e.kind === "courier_status")).toHaveLength(
      first.events.filter((e) => e.kind === "courier_status").length,
    );
  });

  it("follows a failed attempt to delivery at the second and marks the cash-on-delivery order paid", async () => {
    // The marker in the address makes the sandbox fail the first attempt.
    const cod = { ...order, outstanding: "24.500", address2: "[sandbox:fail-once]" };
    const { worker, writes, courierOrderId, delivery } = await createdDelivery(cod);
    expect(JSON.parse(delivery.request!).paymentMethod).toBe("COD");
    await prisma.shopSettings.update({ where: { shop }, data: { markCodPaid: true } });
    step(courierOrderId, "out_for_delivery");
    worker.advance(FIRST_TRACKING_LOOK_MS);
    await runTrackingSync(worker.deps);
    step(courierOrderId, "delivery_failed");
    worker.advance(60 * 60_000);
    await runTrackingSync(worker.deps);
    const failed = await row();
    expect(failed.state).toBe("failed");
    // Failed deliveries need the merchant.
    const attention = await listDeliveryPage({ shop, tab: "attention", now: worker.clock.now });
    expect(attention.rows.map((d) => d.id)).toEqual([failed.id]);

    step(courierOrderId, "out_for_delivery");
    step(courierOrderId, "delivered");
    worker.advance(60 * 60_000);
    await runTrackingSync(worker.deps);
    expect(writes.events.map((e) => e.status)).toEqual([
      "CONFIRMED",
      "CARRIER_PICKED_UP",
      "IN_TRANSIT",
      "OUT_FOR_DELIVERY",
      "ATTEMPTED_DELIVERY",
      "OUT_FOR_DELIVERY",
      "DELIVERED",
    ]);
    const done = await row();
    expect(done.state).toBe("delivered");
    expect(done.paidMarkedAt).toBeInstanceOf(Date);
    expect(writes.paid).toEqual(["gid://shopify/Order/3001"]);
    expect(done.events.some((e) => e.kind === "paid")).toBe(true);
  });

  /** A delivered cash-on-delivery order, with Shopify refusing to mark it paid. */
  async function deliveredCod(financialStatus: () => string) {
    const cod = { ...order, outstanding: "24.500" };
    const setup = await createdDelivery(cod);
    await prisma.shopSettings.update({ where: { shop }, data: { markCodPaid: true } });
    let refuse = true;
    adminApi.on("DeliveryMarkPaid", (variables) => {
      const input = variables.input as { id: string };
      if (!refuse) setup.writes.paid.push(input.id);
      return {
        data: {
          orderMarkAsPaid: refuse
            ? {
                order: null,
                userErrors: [{ field: ["id"], message: "Order cannot be marked as paid." }],
              }
            : { order: { id: input.id, displayFinancialStatus: "PAID" }, userErrors: [] },
        },
      };
    });
    adminApi.on("DeliveryOrderFinancialStatus", (variables) => ({
      data: { order: { id: variables.id, displayFinancialStatus: financialStatus() } },
    }));
    step(setup.courierOrderId, "delivered");
    setup.worker.advance(FIRST_TRACKING_LOOK_MS);
    await runTrackingSync(setup.worker.deps);
    return { ...setup, accept: () => (refuse = false) };
  }

  it("cash on delivery already paid in Shopify counts as done, and is not asked again", async () => {
    const { worker } = await deliveredCod(() => "PAID");
    const done = await row();
    expect(done.state).toBe("delivered");
    expect(done.paidMarkedAt).toBeInstanceOf(Date);
    expect(done.events.find((e) => e.kind === "paid")?.message).toContain("already paid");
    expect(done.syncAt).toBeNull();
    expect(done.lastError).toBeNull();
    worker.advance(24 * 60 * 60_000);
    expect(await runTrackingSync(worker.deps)).toBe(0);
    expect(adminApi.callsTo("DeliveryMarkPaid")).toHaveLength(1);
  });

  it("tries again with backoff to mark an unpaid order paid until Shopify takes it", async () => {
    const { worker, writes, accept } = await deliveredCod(() => "PENDING");
    const refused = await row();
    expect(refused.paidMarkedAt).toBeNull();
    expect(refused.events.some((e) => e.kind === "paid")).toBe(false);
    expect(refused.lastError).toContain("did not mark the order paid");
    expect(refused.syncAt!.getTime() - worker.clock.now.getTime()).toBe(15 * 60_000);

    worker.advance(15 * 60_000);
    await runTrackingSync(worker.deps);
    expect(adminApi.callsTo("DeliveryMarkPaid")).toHaveLength(2);
    expect((await row()).syncAt!.getTime() - worker.clock.now.getTime()).toBe(30 * 60_000);

    accept();
    worker.advance(30 * 60_000);
    await runTrackingSync(worker.deps);
    const paid = await row();
    expect(paid.paidMarkedAt).toBeInstanceOf(Date);
    expect(writes.paid).toEqual(["gid://shopify/Order/3001"]);
    expect(paid.events.find((e) => e.kind === "paid")?.message).toContain("marked paid");
    expect(paid.syncAt).toBeNull();
    expect(paid.lastError).toBeNull();
  });

  it("a prepaid order is never marked paid", async () => {
    const { worker, writes, courierOrderId } = await createdDelivery();
    await prisma.shopSettings.update({ where: { shop }, data: { markCodPaid: true } });
    step(courierOrderId, "delivered");
    worker.advance(FIRST_TRACKING_LOOK_MS);
    await runTrackingSync(worker.deps);
    expect((await row()).state).toBe("delivered");
    expect(writes.paid).toEqual([]);
  });

  it("marks a cash-on-delivery order paid when its customer's data was erased before delivery", async () => {
    const cod = { ...order, outstanding: "24.500" };
    const { worker, writes, courierOrderId } = await createdDelivery(cod);
    await prisma.shopSettings.update({ where: { shop }, data: { markCodPaid: true } });
    await redactCustomer({ shop, webhookId: "redact-cod", orderIds: ["3001"] });
    const erased = requestColumn.decode((await row()).request!);
    expect(erased).toMatchObject({ erased: true, body: { paymentMethod: "COD" } });
    step(courierOrderId, "delivered");
    worker.advance(FIRST_TRACKING_LOOK_MS);
    await runTrackingSync(worker.deps);
    const done = await row();
    expect(done.state).toBe("delivered");
    expect(done.paidMarkedAt).toBeInstanceOf(Date);
    expect(writes.paid).toEqual(["gid://shopify/Order/3001"]);
  });

  it("waits out Shopify throttling instead of failing, then writes each event once", async () => {
    const { worker, writes, courierOrderId } = await createdDelivery();
    step(courierOrderId, "picked_up");
    worker.advance(FIRST_TRACKING_LOOK_MS);
    adminApi.throttleNext(1);
    expect(await runTrackingSync(worker.deps)).toBe(1);
    const paused = await row();
    // The first event (CONFIRMED) was throttled: nothing applied, the look comes back soon.
    expect(paused.state).toBe("created");
    expect(paused.lastError).toContain("slow down");
    expect(paused.syncAt!.getTime() - worker.clock.now.getTime()).toBe(10_000);
    expect(writes.events).toEqual([]);

    worker.advance(10_000);
    await runTrackingSync(worker.deps);
    expect(writes.events.map((e) => e.status)).toEqual(["CONFIRMED", "CARRIER_PICKED_UP"]);
    const after = await row();
    expect(after.state).toBe("picked_up");
    expect(after.lastError).toBeNull();
  });

  it("writes over a stored Shopify status that Shopify does not have", async () => {
    const { worker, writes, courierOrderId, delivery } = await createdDelivery();
    await prisma.delivery.update({
      where: { id: delivery.id },
      data: { shopifyEventStatus: "LOST" },
    });
    step(courierOrderId, "picked_up");
    worker.advance(FIRST_TRACKING_LOOK_MS);
    await runTrackingSync(worker.deps);
    expect(writes.events.map((e) => e.status)).toEqual(["CONFIRMED", "CARRIER_PICKED_UP"]);
    const after = await row();
    expect(after.state).toBe("picked_up");
    expect(after.shopifyEventStatus).toBe("CARRIER_PICKED_UP");
  });

  it("waits out an HTTP 429 from Shopify the same way", async () => {
    const { worker, writes, courierOrderId } = await createdDelivery();
    step(courierOrderId, "accepted");
    worker.advance(FIRST_TRACKING_LOOK_MS);
    adminApi.throttleNext(1, "http429");
    await runTrackingSync(worker.deps);
    expect(writes.events).toEqual([]);
    expect((await row()).lastError).toContain("slow down");
    worker.advance(10_000);
    await runTrackingSync(worker.deps);
    expect(writes.events.map((e) => e.status)).toEqual(["CONFIRMED"]);
    expect((await row()).shopifyEventStatus).toBe("CONFIRMED");
  });

  it("keeps tracking while Shopify refuses the shipment status, and writes the latest one once it is allowed", async () => {
    const { worker, writes, courierOrderId } = await createdDelivery();
    // An install from before write_fulfillments was added: Shopify refuses every event.
    let approved = false;
    const record = writes.events;
    adminApi.on("DeliveryFulfillmentEvent", (variables) => {
      if (!approved)
        return {
          errors: [
            {
              message:
                "Access denied for fulfillmentEventCreate field. Required access: `write_fulfillments` access scope.",
              extensions: {
                code: "ACCESS_DENIED",
                documentation: "https://shopify.dev/api/usage/access-scopes",
              },
            },
          ],
        };
      const input = variables.fulfillmentEvent as ShopifyEvent;
      record.push(input);
      return {
        data: {
          fulfillmentEventCreate: {
            fulfillmentEvent: {
              id: `gid://shopify/FulfillmentEvent/${record.length}`,
              status: input.status,
              happenedAt: null,
            },
            userErrors: [],
          },
        },
      };
    });
    const attempts = () => adminApi.callsTo("DeliveryFulfillmentEvent").length;

    step(courierOrderId, "picked_up");
    worker.advance(FIRST_TRACKING_LOOK_MS);
    expect(await runTrackingSync(worker.deps)).toBe(1);
    const refused = await row();
    expect(refused.state).toBe("picked_up");
    expect(refused.shopifyEventStatus).toBeNull();
    expect(refused.lastError).toContain("Access denied");
    expect(
      refused.events.some((e) => e.message.includes("Shopify did not take the shipment status")),
    ).toBe(true);
    // Refused once: the rest of that look's statuses wait instead of being sent to be refused.
    expect(attempts()).toBe(1);
    // The delivery page says what Shopify does not show yet, and when it is tried again.
    const owedPage = await deliveryPage(refused.id);
    expect(owedPage.shopifyOwed).toEqual({
      status: "CARRIER_PICKED_UP",
      retryAt: refused.shopifyRetryAt!.toISOString(),
    });

    // The courier moves on: the state follows, the new status is tried once.
    step(courierOrderId, "in_transit");
    worker.advance(15 * 60_000);
    await runTrackingSync(worker.deps);
    expect((await row()).state).toBe("in_transit");
    expect(attempts()).toBe(2);
    // Nothing new at the courier, the retry not due yet (backoff doubles): no Shopify call.
    worker.advance(15 * 60_000);
    await runTrackingSync(worker.deps);
    expect(attempts()).toBe(2);

    // The merchant approves the scope; at the retry, the latest status owed is written once.
    approved = true;
    worker.advance(15 * 60_000);
    await runTrackingSync(worker.deps);
    expect(writes.events.map((e) => e.status)).toEqual(["IN_TRANSIT"]);
    const caughtUp = await row();
    expect(caughtUp.shopifyEventStatus).toBe("IN_TRANSIT");
    expect((await deliveryPage(caughtUp.id)).shopifyOwed).toBeNull();
    expect(caughtUp.lastError).toBeNull();
    expect(
      caughtUp.events.some((e) => e.message.includes("Shopify took the shipment status")),
    ).toBe(true);
    // And nothing more is owed: later looks write only news.
    worker.advance(60 * 60_000);
    await runTrackingSync(worker.deps);
    expect(writes.events).toHaveLength(1);
  });

  it("does not let one delivery failing unexpectedly stop the sync of the others", async () => {
    const now = new Date();
    await prisma.shopSettings.create({ data: { shop } });
    for (const n of [1, 2, 3]) {
      await prisma.delivery.create({
        data: {
          shop,
          orderId: `gid://shopify/Order/${8100 + n}`,
          fulfillmentId: `gid://shopify/Fulfillment/${8100 + n}`,
          source: "webhook",
          state: "in_transit",
          environment: "sandbox",
          reference: `KCS-BROKEN-${n}`,
          courierOrderId: `C-BROKEN-${n}`,
          courierStatus: "in_transit",
          trackingPushedAt: new Date(now.getTime() - 60_000),
          syncAt: now,
        },
      });
    }
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const deps = {
      owner: "broken-test",
      now: () => now,
      adminFor: async () => {
        throw new Error("nothing changed: Shopify is not called");
      },
      courierFor: async () =>
        ({
          track: async (orderId: string) => {
            if (orderId === "C-BROKEN-2")
              throw new TypeError("Cannot read properties of undefined");
            return { orderId, status: "in_transit", events: [], raw: {} };
          },
        }) as never,
    };
    expect(await runTrackingSync(deps, { concurrency: 1 })).toBe(3);
    const rows = await prisma.delivery.findMany({ where: { shop }, orderBy: { reference: "asc" } });
    expect(rows.map((r) => [r.courierOrderId, r.leaseOwner, r.syncAt! > now])).toEqual([
      ["C-BROKEN-1", null, true],
      ["C-BROKEN-2", null, true],
      ["C-BROKEN-3", null, true],
    ]);
    expect(rows[1]!.lastError).toContain("Cannot read properties");
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0])).toContain(rows[1]!.id);
  });

  it("a courier rate limit puts the next sync off instead of failing", async () => {
    const { worker, courierOrderId } = await createdDelivery();
    step(courierOrderId, "picked_up");
    worker.advance(FIRST_TRACKING_LOOK_MS);
    sandbox().faults.add({ endpoint: "track", kind: "rateLimit", times: 5, retryAfter: 30 });
    await runTrackingSync(worker.deps);
    const limited = await row();
    expect(limited.state).toBe("created");
    expect(limited.syncAt!.getTime()).toBeGreaterThan(worker.clock.now.getTime());
    expect(limited.lastError).toMatch(/slow|limit|try again/i);
  });

  /** A delivery the courier has pushed a status the app has no meaning for. */
  async function heldAtCustoms() {
    const { writes, courierOrderId } = await createdDelivery();
    const credentials = await createPushCredentials(shop);
    const push = (eventId: string, status: string, minute: number) =>
      postPush(
        {
          eventId,
          event: "order.status_changed",
          occurredAt: `2026-11-22T10:${String(minute).padStart(2, "0")}:00`,
          order: { orderId: courierOrderId, status, previousStatus: null },
        },
        credentials,
      );
    expect((await push("e1", "held_at_customs", 10)).status).toBe(200);
    const mapping = () =>
      prisma.courierStatusMapping.findUniqueOrThrow({
        where: { shop_code: { shop, code: "held_at_customs" } },
      });
    return { writes, push, mapping };
  }

  it("an unmapped status is recorded and shown, not guessed", async () => {
    const { writes, mapping } = await heldAtCustoms();
    const held = await row();
    expect(held.state).toBe("created");
    expect(held.courierStatus).toBe("held_at_customs");
    expect(held.events.at(-1)).toMatchObject({ kind: "unmapped_status" });
    expect(writes.events).toEqual([]);
    expect(await mapping()).toMatchObject({ state: null, source: "unmapped" });
  });

  it("an unmapped status applies once the merchant maps it", async () => {
    const { writes, push, mapping } = await heldAtCustoms();
    await prisma.courierStatusMapping.update({
      where: { id: (await mapping()).id },
      data: { state: "unchanged", shopifyStatus: "DELAYED", source: "merchant" },
    });
    expect((await push("e2", "held_at_customs", 20)).status).toBe(200);
    expect(writes.events.map((e) => e.status)).toEqual(["DELAYED"]);
  });

  it("treats a status mapping it cannot read as unmapped and says why", async () => {
    const { writes, courierOrderId } = await createdDelivery();
    await prisma.courierStatusMapping.create({
      data: {
        shop,
        code: "held_at_customs",
        state: "teleported",
        shopifyStatus: "IN_TRANSIT",
        source: "merchant",
      },
    });
    const credentials = await createPushCredentials(shop);
    courierClock.now += 60_000;
    const pushed = await postPush(
      {
        eventId: "u1",
        occurredAt: new Date(courierClock.now).toISOString(),
        order: { orderId: courierOrderId, status: "held_at_customs" },
      },
      credentials,
    );
    expect(await pushed.json()).toEqual({ outcome: "applied" });
    const held = await row();
    expect(held).toMatchObject({ state: "created", courierStatus: "held_at_customs" });
    expect(held.events.at(-1)).toMatchObject({ kind: "unmapped_status" });
    expect(writes.events).toEqual([]);
    const mappings = await listStatusMappings(shop);
    expect(mappings.find((m) => m.code === "held_at_customs")).toMatchObject({
      state: null,
      shopifyStatus: null,
      source: "unmapped",
      problem: expect.stringContaining('"teleported"'),
    });
  });
});

describe("the merchant maps a status", () => {
  it("moves the deliveries already at that status to its new meaning at once", async () => {
    const { worker, writes, courierOrderId } = await createdDelivery();
    const credentials = await createPushCredentials(shop);
    courierClock.now += 60_000;
    const pushed = await postPush(
      {
        eventId: "m1",
        occurredAt: new Date(courierClock.now).toISOString(),
        order: { orderId: courierOrderId, status: "held_at_customs" },
      },
      credentials,
    );
    expect(await pushed.json()).toEqual({ outcome: "applied" });
    const held = await row();
    expect(held).toMatchObject({ state: "created", courierStatus: "held_at_customs" });
    // Not due for a while (30 minutes before pickup).
    expect(held.syncAt!.getTime()).toBeGreaterThan(worker.clock.now.getTime());

    const saved = await saveStatusMappings(
      shop,
      [{ code: "held_at_customs", state: "in_transit", shopifyStatus: "IN_TRANSIT" }],
      worker.clock.now,
    );
    expect(saved).toEqual({ statuses: 1, deliveries: 1 });
    expect(await runTrackingSync(worker.deps)).toBe(1);
    const moved = await row();
    expect(moved.state).toBe("in_transit");
    expect(moved.courierStatus).toBe("held_at_customs");
    expect(writes.events.map((e) => e.status)).toEqual(["IN_TRANSIT"]);
    expect(moved.events.map((e) => e.message)).toContain(
      "Courier status: held_at_customs, applied as it is now mapped.",
    );
  });
});

describe("the courier's status pushes", () => {
  async function pushSetup() {
    const setup = await createdDelivery();
    const credentials = await createPushCredentials(shop);
    const send = (body: object, secret = credentials.secret, token = credentials.token) =>
      postPush(body, { token, secret });
    const event = (eventId: string, status: string, minute: number) => ({
      eventId,
      event: "order.status_changed",
      occurredAt: `2026-11-22T10:${String(minute).padStart(2, "0")}:00`,
      order: { orderId: setup.courierOrderId, status, previousStatus: null },
    });
    return { ...setup, send, event, credentials };
  }

  it("a push that comes before the tracking number is on Shopify is caught up by the next sync", async () => {
    await readyShop(shop);
    const { trackingUpdates } = programShopify([order]);
    const writes = recordShopifyWrites();
    // Shopify does not take the tracking number yet.
    let takesTracking = false;
    adminApi.on("DeliveryTrackingUpdate", (variables) => {
      if (takesTracking) trackingUpdates.push(variables);
      return {
        data: {
          fulfillmentTrackingInfoUpdate: takesTracking
            ? { fulfillment: { id: variables.fulfillmentId }, userErrors: [] }
            : {
                fulfillment: null,
                userErrors: [
                  { field: ["fulfillmentId"], message: "Fulfillment is being processed." },
                ],
              },
        },
      };
    });
    await callRoute(
      fulfillmentsCreate,
      webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(order) }),
    );
    const worker = testWorker();
    await worker.drain();
    const waiting = await row();
    expect(waiting).toMatchObject({ state: "created", trackingPushedAt: null });
    const courierOrderId = waiting.courierOrderId!;

    // The courier picks the parcel up and says so at once.
    step(courierOrderId, "picked_up");
    const pushed = await postPush(
      {
        eventId: "early-1",
        occurredAt: new Date(courierClock.now).toISOString(),
        order: { orderId: courierOrderId, status: "picked_up" },
      },
      await createPushCredentials(shop),
    );
    expect(await pushed.json()).toEqual({ outcome: "queued" });
    const still = await row();
    expect(still).toMatchObject({ state: "created", trackingPushedAt: null, leaseOwner: null });
    expect(writes.events).toEqual([]);

    // Shopify takes the tracking number at the worker's next try; the sync follows from there.
    takesTracking = true;
    worker.advance(60_000);
    await worker.drain();
    expect(trackingUpdates).toHaveLength(1);
    expect((await row()).trackingPushedAt).toBeInstanceOf(Date);
    worker.advance(FIRST_TRACKING_LOOK_MS);
    expect(await runTrackingSync(worker.deps)).toBe(1);
    expect((await row()).state).toBe("picked_up");
    expect(writes.events.map((e) => e.status)).toEqual(["CONFIRMED", "CARRIER_PICKED_UP"]);
  });

  it("repeated and shuffled pushes write each change to Shopify once, in order, never backwards", async () => {
    const { send, event, writes } = await pushSetup();
    const life = [
      event("p1", "accepted", 1),
      event("p2", "picked_up", 2),
      event("p3", "in_transit", 3),
      event("p4", "out_for_delivery", 4),
      event("p5", "delivered", 5),
    ];
    // Out of order, with redeliveries.
    for (const body of [
      life[0],
      life[2],
      life[1],
      life[2],
      life[0],
      life[3],
      life[1],
      life[4],
      life[3],
    ])
      expect((await send(body!)).status).toBe(200);
    expect(writes.events.map((e) => e.status)).toEqual([
      "CONFIRMED",
      "IN_TRANSIT",
      "OUT_FOR_DELIVERY",
      "DELIVERED",
    ]);
    const done = await row();
    expect(done.state).toBe("delivered");
    expect(done.events.filter((e) => e.kind === "courier_status")).toHaveLength(4);
  });

  it("a push sent again, with the same event id or a new one, is applied once", async () => {
    const { send, event, writes } = await pushSetup();
    const first = await send(event("r1", "picked_up", 2));
    expect(await first.json()).toEqual({ outcome: "applied" });
    expect(await (await send(event("r1", "picked_up", 2))).json()).toEqual({
      outcome: "duplicate",
    });
    await send(event("r2", "picked_up", 2));
    expect(writes.events.map((e) => e.status)).toEqual(["CARRIER_PICKED_UP"]);
    expect((await row()).events.filter((e) => e.kind === "courier_status")).toHaveLength(1);
  });

  it("a signed push replayed with a made-up event id header is a duplicate, not a second entry", async () => {
    const { credentials, courierOrderId } = await pushSetup();
    // No event id in the signed body: the id is the body's own digest, whatever a header says.
    const raw = JSON.stringify({ order: { orderId: courierOrderId, status: "picked_up" } });
    const replay = (eventIdHeader: string) =>
      callRoute(
        courierWebhook,
        new Request(`https://app.example/courier/webhooks/${credentials.token}`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-courier-signature": signPush(raw, credentials.secret),
            "x-courier-event-id": eventIdHeader,
          },
          body: raw,
        }),
        { token: credentials.token },
      );
    expect(await (await replay("captured-1")).json()).toEqual({ outcome: "applied" });
    expect(await (await replay("forged-2")).json()).toEqual({ outcome: "duplicate" });
    expect(await (await replay("x".repeat(100_000))).json()).toEqual({ outcome: "duplicate" });
    expect((await row()).events.filter((e) => e.kind === "courier_status")).toHaveLength(1);
  });

  it("a push that could not be applied is not a duplicate when the courier sends it again", async () => {
    const { send, event, writes } = await pushSetup();
    adminApi.throttleNext(1);
    expect(await (await send(event("t1", "picked_up", 2))).json()).toEqual({ outcome: "queued" });
    expect(writes.events).toEqual([]);
    // The courier sends it again later, once Shopify's bucket has refilled (the app waits for
    // that after a THROTTLED reply): as if that time had passed.
    resetCostBudget();
    expect(await (await send(event("t1", "picked_up", 2))).json()).toEqual({ outcome: "applied" });
    expect(writes.events.map((e) => e.status)).toEqual(["CARRIER_PICKED_UP"]);
    expect(await (await send(event("t1", "picked_up", 2))).json()).toEqual({
      outcome: "duplicate",
    });
  });

  /** Nothing of a refused push is written: no Shopify event, no move, no processed webhook. */
  async function expectNothingWritten(writes: { events: ShopifyEvent[] }) {
    expect(writes.events).toEqual([]);
    expect((await row()).state).toBe("created");
    expect(await prisma.processedWebhook.count({ where: { shop, topic: "courier/status" } })).toBe(
      0,
    );
  }

  it("refuses a bad signature (401) and an unknown URL (404), writing nothing", async () => {
    const { send, event, writes } = await pushSetup();
    expect((await send(event("x1", "delivered", 9), "wrong-secret")).status).toBe(401);
    expect((await send(event("x2", "delivered", 9), undefined, "no-such-token")).status).toBe(404);
    await expectNothingWritten(writes);
  });

  it("answers a malformed body with what is wrong, writing nothing", async () => {
    const { send, writes, courierOrderId } = await pushSetup();
    const bad = await send({ eventId: "x3", order: { orderId: courierOrderId } });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("order.status");
    await expectNothingWritten(writes);
  });

  it("a body over 64 KiB is refused (413) unread, even sent in chunks without a length", async () => {
    const { writes, credentials, courierOrderId } = await pushSetup();
    const { token, secret } = credentials;
    const raw = Buffer.from(
      JSON.stringify({
        eventId: "big-1",
        order: { orderId: courierOrderId, status: "delivered" },
        padding: "x".repeat(200_000),
      }),
    );
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= raw.length) return controller.close();
        controller.enqueue(raw.subarray(pulled, pulled + 4096));
        pulled += 4096;
      },
    });
    const request = new Request(`https://app.example/courier/webhooks/${token}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-courier-signature": signPush(raw, secret) },
      body,
      duplex: "half",
    } as RequestInit);
    expect(request.headers.get("content-length")).toBeNull();
    const response = await callRoute(courierWebhook, request, { token });
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(80 * 1024);
    expect(writes.events).toEqual([]);
    expect((await row()).state).toBe("created");
  });

  it("a GET of the push URL answers 405 and says POST is allowed", async () => {
    // It answered "Unexpected Server Error" (issue 24): the route had no loader.
    const { credentials } = await pushSetup();
    const request = new Request(`https://app.example/courier/webhooks/${credentials.token}`);
    const response = await callRoute(courierWebhookLoader, request, { token: credentials.token });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  it("a push for an order the app did not send is acknowledged and ignored", async () => {
    const { send } = await pushSetup();
    const response = await send({
      eventId: "u1",
      occurredAt: "2026-11-22T10:00:00",
      order: { orderId: "not-ours", status: "delivered" },
    });
    expect(await response.json()).toEqual({ outcome: "unknown_order" });
  });
});

describe("needs attention", () => {
  it("lists a parcel the courier has not moved for three days, and not before", async () => {
    const { worker, courierOrderId } = await createdDelivery();
    step(courierOrderId, "in_transit");
    worker.advance(FIRST_TRACKING_LOOK_MS);
    await runTrackingSync(worker.deps);
    const moved = await row();
    expect(moved.lastMovedAt).toEqual(worker.clock.now);
    const inTwoDays = new Date(moved.lastMovedAt!.getTime() + 2 * 86_400_000);
    expect((await listDeliveryPage({ shop, tab: "attention", now: inTwoDays })).rows).toEqual([]);
    const inFourDays = new Date(moved.lastMovedAt!.getTime() + 4 * 86_400_000);
    const stuck = await listDeliveryPage({ shop, tab: "attention", now: inFourDays });
    expect(stuck.rows.map((d) => d.id)).toEqual([moved.id]);
  });
});

describe("a courier that gives no times", () => {
  it("a parcel it keeps moving is not stuck, and is synced as often as a moving parcel", async () => {
    const now = new Date();
    await installShop(shop);
    await prisma.shopSettings.create({ data: { shop } });
    const delivery = await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/8001",
        fulfillmentId: "gid://shopify/Fulfillment/8001",
        source: "webhook",
        state: "in_transit",
        environment: "sandbox",
        reference: "KCS-UNTIMED-1",
        courierOrderId: "C-UNTIMED-1",
        courierStatus: "in_transit",
        shopifyEventStatus: "IN_TRANSIT",
        // The tracking number went on Shopify four days ago; the courier never gave a time.
        trackingPushedAt: new Date(now.getTime() - 4 * 86_400_000),
        syncAt: now,
      },
    });
    const writes = recordShopifyWrites();
    const deps = {
      owner: "untimed-test",
      now: () => now,
      adminFor: async () => (await unauthenticated.admin(shop)).admin,
      courierFor: async () =>
        ({
          track: async (orderId: string) => ({
            orderId,
            status: "out_for_delivery",
            events: [],
            raw: {},
          }),
        }) as never,
    };
    expect(await runTrackingSync(deps)).toBe(1);
    const moved = await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(moved.state).toBe("out_for_delivery");
    expect(writes.events.map((e) => e.status)).toEqual(["OUT_FOR_DELIVERY"]);
    expect(moved.lastMovedAt).toEqual(now);
    // Out for delivery: looked at again within minutes, not at the pace of a parcel quiet for days.
    expect(moved.syncAt!.getTime() - now.getTime()).toBe(5 * 60_000);
    expect(isStuck(moved, now)).toBe(false);
    expect((await listDeliveryPage({ shop, tab: "attention", now })).rows).toEqual([]);
    const inFourDays = new Date(now.getTime() + 4 * 86_400_000);
    expect(isStuck(moved, inFourDays)).toBe(true);
    const later = await listDeliveryPage({ shop, tab: "attention", now: inFourDays });
    expect(later.rows.map((d) => d.id)).toEqual([delivery.id]);
  });
});

describe("bounded, fair sync runs", () => {
  /** Delivery rows due for a look, as many as asked per shop, without a courier behind them. */
  async function dueRows(perShop: Record<string, number>, now: Date) {
    let n = 0;
    for (const [name, count] of Object.entries(perShop)) {
      await prisma.shopSettings.create({ data: { shop: name } });
      for (let i = 0; i < count; i += 1, n += 1) {
        await prisma.delivery.create({
          data: {
            shop: name,
            orderId: `gid://shopify/Order/${9000 + n}`,
            fulfillmentId: `gid://shopify/Fulfillment/${9000 + n}`,
            source: "webhook",
            state: "in_transit",
            environment: "sandbox",
            reference: `KCS-FAIR-${n}`,
            courierOrderId: `C${n}`,
            courierStatus: "in_transit",
            trackingPushedAt: new Date(now.getTime() - 60_000),
            syncAt: new Date(now.getTime() - (count - i) * 1000),
          },
        });
      }
    }
  }

  it("a delivery another instance leased while it waited in the queue is not synced twice", async () => {
    const now = new Date();
    const name = shopDomain("taken");
    await dueRows({ [name]: 2 }, now);
    const [first, second] = await prisma.delivery.findMany({
      where: { shop: name },
      orderBy: { syncAt: "asc" },
    });
    const looked: string[] = [];
    const clock = { now };
    const deps = {
      owner: "queue-test",
      now: () => clock.now,
      adminFor: async () => {
        throw new Error("nothing changed: Shopify is not called");
      },
      courierFor: async () =>
        ({
          track: async (orderId: string) => {
            looked.push(orderId);
            if (orderId === first!.courierOrderId) {
              // The first look is so slow that the second row's lease lapses, and another
              // instance of the app leases it.
              clock.now = new Date(now.getTime() + SYNC_DEFAULTS.leaseMs + 1_000);
              await prisma.delivery.update({
                where: { id: second!.id },
                data: {
                  leaseOwner: "other-instance",
                  leaseExpiresAt: new Date(clock.now.getTime() + 60_000),
                },
              });
            }
            return { orderId, status: "in_transit", events: [], raw: {} };
          },
        }) as never,
    };
    expect(await runTrackingSync(deps, { concurrency: 1 })).toBe(2);
    expect(looked).toEqual([first!.courierOrderId]);
    const taken = await prisma.delivery.findUniqueOrThrow({ where: { id: second!.id } });
    expect(taken.leaseOwner).toBe("other-instance");
  });

  it("a busy shop does not fill a sync run, nor go over its share of calls in flight", async () => {
    const now = new Date();
    const busy = shopDomain("busy");
    const small = [shopDomain("small-a"), shopDomain("small-b")];
    await dueRows({ [busy]: 40, [small[0]!]: 3, [small[1]!]: 3 }, now);
    const inFlight = new Map<string, number>();
    const most = new Map<string, number>();
    let total = 0;
    let mostTotal = 0;
    const looked: string[] = [];
    const deps = {
      owner: "fair-test",
      now: () => now,
      adminFor: async () => {
        throw new Error("nothing changed: Shopify is not called");
      },
      courierFor: async (shopName: string) =>
        ({
          track: async (orderId: string) => {
            inFlight.set(shopName, (inFlight.get(shopName) ?? 0) + 1);
            most.set(shopName, Math.max(most.get(shopName) ?? 0, inFlight.get(shopName)!));
            mostTotal = Math.max(mostTotal, ++total);
            await new Promise((resolve) => setTimeout(resolve, 5));
            inFlight.set(shopName, inFlight.get(shopName)! - 1);
            total -= 1;
            looked.push(shopName);
            return { orderId, status: "in_transit", events: [], raw: {} };
          },
        }) as never,
    };
    expect(await runTrackingSync(deps, { batch: 12, concurrency: 6, perShop: 2 })).toBe(12);
    // Every shop is in the pass; the busy one gets what the others leave.
    expect(looked.filter((s) => s === small[0])).toHaveLength(3);
    expect(looked.filter((s) => s === small[1])).toHaveLength(3);
    expect(looked.filter((s) => s === busy)).toHaveLength(6);
    expect(Math.max(...most.values())).toBeLessThanOrEqual(2);
    expect(mostTotal).toBeLessThanOrEqual(6);
    // Looked at, unchanged: no news on the timeline, the next look later, the lease released.
    const after = await prisma.delivery.findMany({ where: { shop: small[0] } });
    expect(after.every((d) => d.syncAt! > now && d.leaseOwner === null)).toBe(true);
    expect(await prisma.deliveryEvent.count()).toBe(0);
  });
});
