import { describe, expect, it } from "vitest";
import { parseKuwaitDateTime } from "../../app/courier";
import prisma from "../../app/db.server";
import { MAX_STEP_FAILURES } from "../../app/domain/lease-policy";
import {
  action as reviewAction,
  loader as reviewLoader,
} from "../../app/routes/app.address-review";
import {
  action as deliveryAction,
  loader as deliveryLoader,
} from "../../app/routes/app.deliveries.$id";
import { loader as listLoader } from "../../app/routes/app.deliveries._index";
import { loader as trackingLoader } from "../../app/routes/tracking.$token";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { SANDBOX_KEY, setUpCourierSandbox } from "../support/courier-sandbox";
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
  installShop,
  shopDomain,
  webhookRequest,
} from "../support/shopify";

const shop = shopDomain("review");
const sandbox = setUpCourierSandbox();

const unclear: FakeOrder = {
  fulfillmentNumber: 7001,
  orderNumber: 3001,
  city: "Kuwait",
  address1: "Mshairf blk 3 st 5 house 9",
};

async function receive(order: FakeOrder) {
  await callRoute(
    fulfillmentsCreate,
    webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(order) }),
  );
}

/** An order the matcher places with confidence (Salmiya, Hawalli). */
const placeable: FakeOrder = {
  ...unclear,
  city: "Salmiya",
  address1: "Block 1 Street 2 House 3",
  provinceCode: "KW-HA",
};

/** A ready shop whose one delivery went through the worker, with its row. */
async function workedDelivery() {
  await readyShop(shop);
  programShopify([placeable]);
  await receive(placeable);
  await testWorker().drain();
  return prisma.delivery.findFirstOrThrow({ where: { shop } });
}

/** A delivery the courier refused (a validation error on create). */
async function rejectedDelivery() {
  sandbox().faults.add({ endpoint: "createOrder", kind: "error", status: 400 });
  const rejected = await workedDelivery();
  expect(rejected.state).toBe("rejected");
  return rejected;
}

/** The delivery page's action, as the merchant's browser posts it. */
const post = async (id: string, form: Record<string, string> = { intent: "retry" }) =>
  callRoute(deliveryAction, await adminFetchRequest(shop, `/app/deliveries/${id}`, { form }), {
    id,
  });

describe("the address review queue", () => {
  it("sends an address the merchant placed, and the next one spelt the same way without asking", async () => {
    const { directory } = await readyShop(shop);
    const again = { ...unclear, fulfillmentNumber: 7002, orderNumber: 3002 };
    programShopify([unclear, again]);
    await receive(unclear);
    await testWorker().drain();
    expect((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state).toBe(
      "needs_address",
    );

    const page = await (
      await callRoute(reviewLoader, await adminFetchRequest(shop, "/app/address-review"))
    ).json();
    expect(page.queue).toHaveLength(1);
    expect(page.queue[0].typed).toContain("Mshairf blk 3 st 5 house 9");
    expect(page.governances.length).toBe(6);

    const mishref = directory.areas.find(
      (a) => a.name.includes("مشرف") && !a.name.includes("مبارك"),
    )!;
    const response = await callRoute(
      reviewAction,
      await adminFetchRequest(shop, "/app/address-review", {
        form: {
          deliveryId: page.queue[0].id,
          governanceId: String(mishref.governanceId),
          areaId: String(mishref.id),
          block: "3",
          street: "5",
          house: "9",
          remember: "on",
        },
      }),
    );
    expect(response.status).toBe(200);
    await testWorker().drain();
    const fixed = await prisma.delivery.findFirstOrThrow({
      where: { shop, orderId: "gid://shopify/Order/3001" },
    });
    expect(fixed.state).toBe("created");
    expect(JSON.parse(fixed.request!).deliveryAddress).toMatchObject({
      areaId: mishref.id,
      block: "3",
      house: "9",
    });
    expect(await prisma.areaOverride.count({ where: { shop } })).toBe(1);

    // The same spelling again: placed by the remembered answer, no question asked.
    await receive(again);
    await testWorker().drain();
    const second = await prisma.delivery.findFirstOrThrow({
      where: { shop, orderId: "gid://shopify/Order/3002" },
    });
    expect(second.state).toBe("created");
    expect(JSON.parse(second.addressMatch!).reasons.join(" ")).toMatch(/remembered/i);
  });

  it("remembers an area that the courier spells its own way", async () => {
    const { directory } = await readyShop(shop);
    programShopify([unclear]);
    await receive(unclear);
    await testWorker().drain();
    const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    // The sandbox courier writes Jabriya «جابريه», without the article and with ه for ة.
    const jabriya = directory.areas.find((a) => a.name === "جابريه")!;
    const response = await callRoute(
      reviewAction,
      await adminFetchRequest(shop, "/app/address-review", {
        form: {
          deliveryId: delivery.id,
          governanceId: String(jabriya.governanceId),
          areaId: String(jabriya.id),
          // The parts the page fills in from the address (blk 3 st 5 house 9).
          block: "3",
          street: "5",
          house: "9",
          remember: "on",
        },
      }),
    );
    expect(response.status).toBe(200);
    expect((await response.json()).notRemembered).toBeUndefined();
    expect(await prisma.areaOverride.findMany({ where: { shop } })).toMatchObject([
      { area: "Jabriya", governorate: "KW-HA" },
    ]);
  });

  it("says why an answer is not remembered, and sends the delivery anyway", async () => {
    const { directory } = await readyShop(shop);
    const landmarkOnly = { ...unclear, address1: "near the big mosque blk 3 st 5 house 9" };
    programShopify([landmarkOnly]);
    await receive(landmarkOnly);
    await testWorker().drain();
    const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    const salmiya = directory.areas.find((a) => a.name === "السالميه")!;
    const response = await callRoute(
      reviewAction,
      await adminFetchRequest(shop, "/app/address-review", {
        form: {
          deliveryId: delivery.id,
          governanceId: String(salmiya.governanceId),
          areaId: String(salmiya.id),
          block: "3",
          street: "5",
          house: "9",
          remember: "on",
        },
      }),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.ok).toBe(true);
    expect(body.notRemembered).toEqual({ code: "not_remembered_no_place_name", params: {} });
    expect(await prisma.areaOverride.count({ where: { shop } })).toBe(0);
    await testWorker().drain();
    expect((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state).toBe("created");
  });

  it("refuses an area outside the chosen governance and keeps the delivery waiting", async () => {
    const { directory } = await readyShop(shop);
    programShopify([unclear]);
    await receive(unclear);
    await testWorker().drain();
    const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    const [first, second] = directory.governances;
    const wrongArea = directory.areas.find((a) => a.governanceId === second!.id)!;
    const response = await callRoute(
      reviewAction,
      await adminFetchRequest(shop, "/app/address-review", {
        form: {
          deliveryId: delivery.id,
          governanceId: String(first!.id),
          areaId: String(wrongArea.id),
          block: "3",
          street: "5",
          house: "9",
        },
      }),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error).toEqual({
      code: "choose_area_of_governorate",
      params: {},
    });
    expect((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state).toBe(
      "needs_address",
    );
  });
});

describe("the deliveries pages", () => {
  it("list the newest first, show a tab and search by order", async () => {
    await readyShop(shop);
    const good = {
      ...unclear,
      fulfillmentNumber: 7010,
      orderNumber: 3010,
      city: "Salmiya",
      address1: "Block 1 Street 2 House 3",
      provinceCode: "KW-HA",
    };
    programShopify([unclear, good]);
    await receive(good);
    await receive(unclear);
    await testWorker().drain();
    const list = await (
      await callRoute(listLoader, await adminFetchRequest(shop, "/app/deliveries"))
    ).json();
    // Received last, listed first.
    expect(list.rows.map((d: { state: string }) => d.state)).toEqual(["needs_address", "created"]);
    const attention = await (
      await callRoute(listLoader, await adminFetchRequest(shop, "/app/deliveries?tab=attention"))
    ).json();
    expect(attention.rows.map((d: { state: string }) => d.state)).toEqual(["needs_address"]);
    const searched = await (
      await callRoute(listLoader, await adminFetchRequest(shop, "/app/deliveries?q=3010"))
    ).json();
    expect(searched.rows.map((d: { orderName: string }) => d.orderName)).toEqual(["#3010"]);
  });

  it("show a delivery's timeline to its shop only", async () => {
    const delivery = await workedDelivery();
    const page = await (
      await callRoute(
        deliveryLoader,
        await adminFetchRequest(shop, `/app/deliveries/${delivery.id}`),
        { id: delivery.id },
      )
    ).json();
    expect(page.courier.number).toBe(delivery.courierOrderNumber);
    expect(page.events.map((e: { kind: string }) => e.kind)).toContain("tracking");
    expect(page.events.find((e: { kind: string }) => e.kind === "created").courier).toMatchObject({
      orderId: delivery.courierOrderId,
      orderNumber: delivery.courierOrderNumber,
    });

    const other = shopDomain("someone-else");
    await installShop(other);
    const foreign = await callRoute(
      deliveryLoader,
      await adminFetchRequest(other, `/app/deliveries/${delivery.id}`),
      { id: delivery.id },
    );
    expect(foreign.status).toBe(404);
  });

  it("send a rejected delivery again once the merchant fixed the cause", async () => {
    const rejected = await rejectedDelivery();
    const response = await post(rejected.id);
    expect(response.status).toBe(200);
    await testWorker().drain();
    expect((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state).toBe("created");
    expect(sandbox().orders.size).toBe(1);
  });

  it("answer ten simultaneous Send again clicks in words, with one courier order", async () => {
    const rejected = await rejectedDelivery();
    const responses = await Promise.all(Array.from({ length: 10 }, () => post(rejected.id)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 400)).toBe(true);
    const refused = await responses.find((r) => r.status === 400)!.json();
    expect(refused.error.code).toBe("delivery_changed");
    await testWorker().drain();
    expect(sandbox().orders.size).toBe(1);
  });

  it("show the courier's answers on the timeline, without the API key", async () => {
    const rejected = await rejectedDelivery();
    await post(rejected.id);
    // Sent again; this time the reply is lost and the order is found in history.
    sandbox().faults.add({ endpoint: "createOrder", kind: "commitThenHang", hangMs: 2_000 });
    await testWorker({ timeoutMs: 300 }).drain();

    const page = await (
      await callRoute(
        deliveryLoader,
        await adminFetchRequest(shop, `/app/deliveries/${rejected.id}`),
        { id: rejected.id },
      )
    ).json();
    const answers = Object.fromEntries(
      page.events
        .filter((e: { courier: unknown }) => e.courier)
        .map((e: { kind: string; courier: unknown }) => [e.kind, e.courier]),
    );
    const [order] = [...sandbox().orders.values()];
    expect(answers).toMatchObject({
      rejected: { error: "CourierValidationError", outcome: "rejected", status: 400 },
      unknown: { error: "CourierTimeoutError", outcome: "unknown" },
      reconciled: {
        searched: rejected.reference,
        found: { orderId: order!.orderId, orderNumber: order!.orderNumber },
      },
    });
    expect(JSON.stringify(page)).not.toContain(SANDBOX_KEY);
  });

  it("send a rejected delivery again days later with a pickup time ahead of now", async () => {
    const rejected = await rejectedDelivery();
    // The merchant comes back to it two days after the fulfillment.
    await prisma.delivery.updateMany({
      where: { shop },
      data: { createdAt: new Date(Date.now() - 2 * 24 * 3_600_000) },
    });
    await post(rejected.id);
    await testWorker().drain();
    expect((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state).toBe("created");
    const [order] = [...sandbox().orders.values()];
    expect(parseKuwaitDateTime(order!.request.pickupDate)!.getTime()).toBeGreaterThan(Date.now());
  });

  it("the public tracking page shows the parcel and where it goes, never the customer's name or phone", async () => {
    const delivery = await workedDelivery();
    const response = await callRoute(
      trackingLoader,
      new Request(new URL(`/tracking/${delivery.trackingToken}`, APP_URL)),
      { token: delivery.trackingToken },
    );
    const text = JSON.stringify(await response.json());
    expect(text).toContain(delivery.courierOrderNumber!);
    // The address as the courier has it (the shopper checks it), the phone masked.
    expect(text).toContain("Salmiya");
    expect(text).not.toMatch(/Fatima|9999 ?1234/);
    const missing = await callRoute(
      trackingLoader,
      new Request(new URL("/tracking/nope", APP_URL)),
      { token: "nope" },
    );
    expect(missing.status).toBe(404);
  });

  it("opens the tracking page in the language the customer shopped in, unless they switch", async () => {
    await readyShop(shop);
    programShopify([{ ...placeable, customerLocale: "ar-KW" }]);
    await receive(placeable);
    await testWorker().drain();
    const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(delivery.customerLanguage).toBe("ar");
    const open = async (query: string, headers: Record<string, string> = {}) => {
      const url = new URL(`/tracking/${delivery.trackingToken}${query}`, APP_URL);
      const response = await callRoute(trackingLoader, new Request(url, { headers }), {
        token: delivery.trackingToken,
      });
      return ((await response.json()) as { locale: string }).locale;
    };
    // The customer's browser says English; the order says Arabic, and the order wins.
    expect(await open("", { "Accept-Language": "en-US,en;q=0.9" })).toBe("ar");
    expect(await open("?lang=en", { "Accept-Language": "ar" })).toBe("en");
  });

  it("opens the tracking page in the browser's language when the order's is neither", async () => {
    await readyShop(shop);
    programShopify([{ ...placeable, customerLocale: "fr" }]);
    await receive(placeable);
    await testWorker().drain();
    const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(delivery.customerLanguage).toBeNull();
    const response = await callRoute(
      trackingLoader,
      new Request(new URL(`/tracking/${delivery.trackingToken}`, APP_URL), {
        headers: { "Accept-Language": "ar" },
      }),
      { token: delivery.trackingToken },
    );
    expect(((await response.json()) as { locale: string }).locale).toBe("ar");
  });

  it("puts a link with the delivery's random token on the fulfillment, never its id", async () => {
    const delivery = await workedDelivery();
    expect(delivery.trackingToken).toMatch(/^[0-9a-f]{32}$/);
    expect(delivery.trackingUrl).toBe(`https://app.example/tracking/${delivery.trackingToken}`);
    const byId = await callRoute(
      trackingLoader,
      new Request(new URL(`/tracking/${delivery.id}`, APP_URL)),
      { token: delivery.id },
    );
    expect(byId.status).toBe(404);
  });

  it("still opens a link sent before tracking tokens, which named the delivery's id", async () => {
    const delivery = await workedDelivery();
    await prisma.delivery.update({
      where: { id: delivery.id },
      data: { trackingUrl: `https://app.example/tracking/${delivery.id}` },
    });
    const response = await callRoute(
      trackingLoader,
      new Request(new URL(`/tracking/${delivery.id}`, APP_URL)),
      { token: delivery.id },
    );
    expect(response.status).toBe(200);
  });
});

describe("a delivery whose outcome nobody could confirm", () => {
  /** The create's reply is lost (`created`: after the courier made the order, or before), and
   * the courier's history answers nothing readable until the delivery waits for the merchant. */
  async function waitingForDecision(created: boolean) {
    await readyShop(shop);
    programShopify([placeable]);
    sandbox().faults.add(
      created
        ? { endpoint: "createOrder", kind: "commitThenHang", hangMs: 2_000 }
        : { endpoint: "createOrder", kind: "closeConnection" },
    );
    sandbox().faults.add({ endpoint: "history", kind: "malformedJson", times: 1_000 });
    await receive(placeable);
    const worker = testWorker({ timeoutMs: 300 });
    for (let round = 0; round < 2 * MAX_STEP_FAILURES; round += 1) {
      await worker.drain();
      if ((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state === "needs_review")
        break;
      worker.advance(5 * 60_000);
    }
    sandbox().faults.clear();
    const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(delivery.state).toBe("needs_review");
    return delivery;
  }

  const creates = () => sandbox().requestLog.filter((r) => r.endpoint === "createOrder");

  it("is not created twice by Send again when the courier has it after all", async () => {
    const waiting = await waitingForDecision(true);
    const response = await post(waiting.id, { intent: "retry" });
    expect(response.status).toBe(200);
    expect((await response.json()).message).toMatchObject({ code: "found_in_history" });
    await testWorker().drain();
    const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(delivery.state).toBe("created");
    expect(delivery.courierOrderId).toBe([...sandbox().orders.keys()][0]);
    expect(delivery.trackingPushedAt).toBeInstanceOf(Date);
    expect(creates()).toHaveLength(1);
    expect(sandbox().orders.size).toBe(1);
  });

  it("is sent by Send again when the courier's history shows it was not created", async () => {
    const waiting = await waitingForDecision(false);
    expect((await post(waiting.id, { intent: "retry" })).status).toBe(200);
    await testWorker().drain();
    expect((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state).toBe("created");
    expect(sandbox().orders.size).toBe(1);
  });

  it("refuses Send again while the courier's history cannot be read, sending nothing", async () => {
    const waiting = await waitingForDecision(false);
    sandbox().faults.add({ endpoint: "history", kind: "error", status: 503, times: 10 });
    const response = await post(waiting.id, { intent: "retry" });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toEqual({ code: "history_unreadable", params: {} });
    await testWorker().drain();
    expect((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state).toBe(
      "needs_review",
    );
    expect(creates()).toHaveLength(1);
  });

  it("is marked created with the courier order number the merchant found, checked with the courier", async () => {
    const waiting = await waitingForDecision(true);
    const [order] = [...sandbox().orders.values()];
    const page = await (
      await callRoute(
        deliveryLoader,
        await adminFetchRequest(shop, `/app/deliveries/${waiting.id}`),
        {
          id: waiting.id,
        },
      )
    ).json();
    // The page says why in a catalog sentence; the service's own words stay in the details.
    expect(page.reason.sentence.key).toBe("timeline.kind.needs_review");
    expect(page.technical.stateReason).toMatch(/Mark created/);

    const response = await post(waiting.id, {
      intent: "mark_created",
      courierOrder: order!.orderNumber,
    });
    expect(response.status).toBe(200);
    expect(sandbox().requestLog.map((r) => r.endpoint)).toContain("getOrder");
    await testWorker().drain();
    const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(delivery).toMatchObject({
      state: "created",
      courierOrderId: order!.orderId,
      courierOrderNumber: order!.orderNumber,
    });
    expect(delivery.trackingPushedAt).toBeInstanceOf(Date);
    expect(creates()).toHaveLength(1);
  });

  it("is not marked created with a number the courier does not know", async () => {
    const waiting = await waitingForDecision(false);
    const response = await post(waiting.id, { intent: "mark_created", courierOrder: "999999" });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toEqual({
      code: "courier_has_no_order",
      params: { number: "999999" },
    });
    expect((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state).toBe(
      "needs_review",
    );
  });
});
