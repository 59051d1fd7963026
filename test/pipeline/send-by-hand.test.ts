import { getGlobalDispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { receiveFulfillment } from "../../app/pipeline/intake.server";
import { INTENT_GRACE_MS, intentReference } from "../../app/actions/send.server";
import { MAX_STEP_FAILURES } from "../../app/domain/lease-policy";
import { action as sendAction, loader as sendLoader } from "../../app/routes/app.send";
import { loader as statusLoader } from "../../app/routes/app.send.status";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import {
  gid,
  routeShopifyToStandIn,
  type ShopifyStandIn,
  type StandInOrder,
} from "../../sandbox/shopify";
import { startTestStandIn } from "../shopify-standin/support";
import { adminApi } from "../support/admin-api";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import {
  fulfillmentPayload,
  PICKUP_LOCATION_ID,
  programShopify,
  readyShop,
  testWorker,
  type FakeOrder,
} from "../support/pipeline";
import { adminFetchRequest, callRoute, shopDomain, webhookRequest } from "../support/shopify";

const shop = shopDomain("by-hand");
const sandbox = setUpCourierSandbox();

const order: FakeOrder = {
  fulfillmentNumber: 8001,
  orderNumber: 4001,
  city: "Salmiya",
  address1: "Block 10 Street 5 House 12",
  provinceCode: "KW-HA",
};
const orderId = `gid://shopify/Order/${order.orderNumber}`;
const FULFILLMENT_ORDER_ID = "gid://shopify/FulfillmentOrder/9001";
const FULFILLMENT_ID = `gid://shopify/Fulfillment/${order.fulfillmentNumber}`;

/**
 * What Shopify does with fulfillmentCreate: fulfils and answers ("ok"), refuses with a user
 * error ("refuse"), or fulfils and the answer never arrives ("lose").
 */
type FulfilBehaviour = "ok" | "refuse" | "lose";

function programSendable(
  options: {
    duringFulfil?: () => void;
    fulfil?: (attempt: number) => FulfilBehaviour;
    /** Shopify answers the question what became of the fulfillment order (default), or not. */
    outcomeAnswered?: boolean;
    /** The shop's currency and the one the customer paid in (default KWD for both). */
    currencies?: { shop: string; paidIn: string };
  } = {},
) {
  const fulfilled: string[] = [];
  const attempts: string[] = [];
  const orderNode = () => ({
    id: orderId,
    name: `#${order.orderNumber}`,
    createdAt: "2026-11-22T08:00:00Z",
    displayFinancialStatus: "PAID",
    currencyCode: options.currencies?.shop ?? "KWD",
    presentmentCurrencyCode: options.currencies?.paidIn ?? "KWD",
    totalPriceSet: {
      shopMoney: { amount: "24.500", currencyCode: options.currencies?.shop ?? "KWD" },
    },
    shippingAddress: {
      address1: order.address1,
      address2: null,
      city: order.city,
      zip: null,
      provinceCode: "KW-HA",
      countryCodeV2: "KW",
    },
    fulfillmentOrders: {
      nodes: [
        {
          id: FULFILLMENT_ORDER_ID,
          status: fulfilled.length ? "CLOSED" : "OPEN",
          assignedLocation: { location: { id: PICKUP_LOCATION_ID } },
        },
      ],
    },
  });
  adminApi.on("SendableOrderPage", () => ({
    data: {
      orders: {
        nodes: [orderNode()],
        pageInfo: { hasNextPage: false, endCursor: "cursor-of-4001" },
      },
    },
  }));
  adminApi.on("SendOrdersById", (variables) => ({
    data: {
      nodes: (variables.ids as string[]).map((id) => (id === orderId ? orderNode() : null)),
    },
  }));
  adminApi.on("SendFulfillment", (variables) => {
    attempts.push(JSON.stringify(variables));
    const behaviour = options.fulfil?.(attempts.length) ?? "ok";
    if (behaviour === "refuse") {
      return {
        data: {
          fulfillmentCreate: {
            fulfillment: null,
            userErrors: [{ field: ["fulfillment"], message: "The location is not active." }],
          },
        },
      };
    }
    fulfilled.push(JSON.stringify(variables));
    options.duringFulfil?.();
    // The connection drops after Shopify did the work: the app never hears of it.
    if (behaviour === "lose") throw new Error("socket hang up");
    return {
      data: {
        fulfillmentCreate: {
          fulfillment: { id: FULFILLMENT_ID, status: "SUCCESS" },
          userErrors: [],
        },
      },
    };
  });
  adminApi.on("SendFulfillmentOrderOutcome", () => {
    if (options.outcomeAnswered === false) throw new Error("socket hang up");
    return {
      data: {
        fulfillmentOrder: {
          status: fulfilled.length ? "CLOSED" : "OPEN",
          fulfillments: {
            nodes: fulfilled.length ? [{ id: FULFILLMENT_ID, status: "SUCCESS" }] : [],
          },
        },
      },
    };
  });
  return { fulfilled, attempts };
}

async function post(shopDomainName: string, form: URLSearchParams) {
  const request = await adminFetchRequest(shopDomainName, "/app/send", { method: "POST" });
  const withBody = new Request(request.url, {
    method: "POST",
    headers: request.headers,
    body: form,
  });
  return callRoute(sendAction, withBody);
}

async function send(orderIds: string[], options: { shop?: string; selected?: number } = {}) {
  const form = new URLSearchParams({ intent: "send" });
  if (options.selected !== undefined) form.set("selected", String(options.selected));
  for (const id of orderIds) form.append("orderIds", id);
  return (await post(options.shop ?? shop, form)).json();
}

async function webhookFor(fake: FakeOrder) {
  return callRoute(
    fulfillmentsCreate,
    webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(fake) }),
  );
}

describe("Send to courier, by hand", () => {
  it("fulfils the order in Shopify, and the webhook that follows does not make a second delivery", async () => {
    await readyShop(shop);
    programShopify([order]);
    const { fulfilled } = programSendable();
    const page = await (
      await callRoute(sendLoader, await adminFetchRequest(shop, "/app/send"))
    ).json();
    expect(page.orders.map((o: { name: string }) => o.name)).toEqual(["#4001"]);
    expect(page.nextCursor).toBeNull();

    const result = await send([orderId]);
    expect(result.outcomes).toMatchObject([{ ok: true, orderName: "#4001" }]);
    expect(fulfilled).toHaveLength(1);

    const webhook = await webhookFor(order);
    expect(webhook.status).toBe(200);
    await testWorker().drain();
    const deliveries = await prisma.delivery.findMany({ where: { shop } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      source: "manual",
      state: "created",
      fulfillmentId: FULFILLMENT_ID,
    });
    expect(sandbox().orders.size).toBe(1);
  });

  it("makes one delivery when the webhook overtakes the app's own bookkeeping", async () => {
    await readyShop(shop);
    programShopify([order]);
    let early: Promise<unknown> | undefined;
    programSendable({
      duringFulfil: () => {
        early = receiveFulfillment(shop, {
          id: String(order.fulfillmentNumber),
          admin_graphql_api_id: FULFILLMENT_ID,
          order_id: String(order.orderNumber),
          location_id: PICKUP_LOCATION_ID.split("/").pop()!,
          name: "#4001.1",
          status: "success",
          destination: { country_code: "KW" },
        });
      },
    });
    await send([orderId]);
    await early;
    await testWorker().drain();
    expect(await prisma.delivery.count({ where: { shop } })).toBe(1);
    expect(sandbox().orders.size).toBe(1);
  });

  it("refuses to send the same order twice", async () => {
    await readyShop(shop);
    programShopify([order]);
    programSendable();
    await send([orderId]);
    const again = await send([orderId]);
    expect(again.outcomes[0]).toMatchObject({ ok: false });
    expect(await prisma.delivery.count({ where: { shop } })).toBe(1);
  });

  it("says why an order cannot be sent and fulfils nothing", async () => {
    await readyShop(shop);
    await prisma.pickupLocation.deleteMany({ where: { shop } });
    const { fulfilled } = programSendable();
    const result = await send([orderId]);
    expect(result.outcomes[0].error).toEqual({ code: "no_pickup_address", params: {} });
    expect(fulfilled).toHaveLength(0);
  });

  it("refuses an order the courier cannot take for its currency before fulfilling it, as the worker would say", async () => {
    await readyShop(shop);
    const { fulfilled } = programSendable({ currencies: { shop: "USD", paidIn: "USD" } });
    const result = await send([orderId]);
    expect(result.outcomes).toEqual([
      {
        orderId,
        orderName: "#4001",
        ok: false,
        error: { code: "not_kwd", params: { currency: "USD" } },
        deliveryId: null,
      },
    ]);
    expect(fulfilled).toHaveLength(0);
    expect(await prisma.delivery.count({ where: { shop } })).toBe(0);
  });

  it("sends an order paid in KWD from a shop whose books are in another currency", async () => {
    await readyShop(shop);
    const { fulfilled } = programSendable({ currencies: { shop: "USD", paidIn: "KWD" } });
    expect((await send([orderId])).outcomes[0]).toMatchObject({ ok: true });
    expect(fulfilled).toHaveLength(1);
  });

  it("lets the merchant send an order again after Shopify refused to fulfil it", async () => {
    await readyShop(shop);
    programShopify([order]);
    const { fulfilled } = programSendable({ fulfil: (n) => (n === 1 ? "refuse" : "ok") });

    const refused = await send([orderId]);
    expect(refused.outcomes[0]).toMatchObject({
      ok: false,
      error: {
        code: "shopify_said",
        params: { detail: expect.stringContaining("The location is not active.") },
      },
    });
    const given = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(given).toMatchObject({ state: "skipped", fulfillmentId: null });
    expect(given.stateReason).toContain("The location is not active.");

    const again = await send([orderId]);
    expect(again.outcomes[0]).toMatchObject({ ok: true });
    expect(fulfilled).toHaveLength(1);
    await testWorker().drain();
    const sent = await prisma.delivery.findFirstOrThrow({
      where: { shop, id: again.outcomes[0].deliveryId },
    });
    expect(sent).toMatchObject({ state: "created", fulfillmentId: FULFILLMENT_ID });
    expect(sent.reference).toBe(`${intentReference(shop, FULFILLMENT_ORDER_ID)}-r2`);
    expect(sandbox().orders.size).toBe(1);
  });

  it("goes on when Shopify fulfilled the order but its answer was lost", async () => {
    await readyShop(shop);
    programShopify([order]);
    const { fulfilled } = programSendable({ fulfil: () => "lose" });
    const result = await send([orderId]);
    expect(result.outcomes[0]).toMatchObject({ ok: true });
    expect(fulfilled).toHaveLength(1);
    // No webhook needed: the fulfillment order named the fulfillment.
    await testWorker().drain();
    const delivery = await prisma.delivery.findFirstOrThrow({
      where: { shop },
      include: { events: true },
    });
    expect(delivery).toMatchObject({ state: "created", fulfillmentId: FULFILLMENT_ID });
    expect(delivery.events.map((e) => e.message).join("\n")).toMatch(/answer was lost/);
    expect(sandbox().orders.size).toBe(1);
  });

  it("keeps the intent when Shopify does not answer, and its webhook attaches to it with automatic sending off", async () => {
    await readyShop(shop);
    await prisma.shopSettings.update({ where: { shop }, data: { autoSend: false } });
    programShopify([order]);
    programSendable({ fulfil: () => "lose", outcomeAnswered: false });
    const result = await send([orderId]);
    expect(result.outcomes[0]).toMatchObject({ ok: true });
    const waiting = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(waiting).toMatchObject({ state: "pending", fulfillmentId: null });

    expect((await webhookFor(order)).status).toBe(200);
    await testWorker().drain();
    const deliveries = await prisma.delivery.findMany({ where: { shop } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      id: waiting.id,
      state: "created",
      fulfillmentId: FULFILLMENT_ID,
    });
    expect(sandbox().orders.size).toBe(1);
  });

  it("sends an order again whose intent a stopped app left behind, once Shopify shows it still open", async () => {
    await readyShop(shop);
    programShopify([order]);
    const { fulfilled } = programSendable();
    const orphan = await prisma.delivery.create({
      data: {
        shop,
        orderId,
        orderName: "#4001",
        locationId: PICKUP_LOCATION_ID,
        source: "manual",
        state: "pending",
        environment: "sandbox",
        reference: intentReference(shop, FULFILLMENT_ORDER_ID),
      },
    });

    // A moment ago it may still be on its way to Shopify: the order is being sent.
    const busy = await send([orderId]);
    expect(busy.outcomes[0]).toMatchObject({
      ok: false,
      error: { code: "already_being_sent", params: {} },
    });
    expect(fulfilled).toHaveLength(0);

    // Minutes later (written then), the worker has kept looking for its fulfillment meanwhile:
    // each try touches the row, and the intent is still orphaned.
    await prisma.delivery.update({
      where: { id: orphan.id },
      data: { createdAt: new Date(Date.now() - INTENT_GRACE_MS - 1_000) },
    });
    await testWorker().drain();
    expect(await prisma.delivery.findUniqueOrThrow({ where: { id: orphan.id } })).toMatchObject({
      state: "pending",
      failures: 1,
      updatedAt: expect.toSatisfy((at: Date) => at.getTime() > Date.now() - 10_000),
    });
    const result = await send([orderId]);
    expect(result.outcomes[0]).toMatchObject({ ok: true });
    expect(fulfilled).toHaveLength(1);
    expect(await prisma.delivery.findUniqueOrThrow({ where: { id: orphan.id } })).toMatchObject({
      state: "skipped",
      stateReason: expect.stringContaining("app stopped"),
    });
    await testWorker().drain();
    expect(sandbox().orders.size).toBe(1);
  });

  it("closes a cancellation still asked for on an orphaned intent it takes over, saying so", async () => {
    await readyShop(shop);
    programShopify([order]);
    programSendable();
    const long = new Date(Date.now() - INTENT_GRACE_MS - 60_000);
    const orphan = await prisma.delivery.create({
      data: {
        shop,
        orderId,
        orderName: "#4001",
        locationId: PICKUP_LOCATION_ID,
        source: "manual",
        state: "pending",
        environment: "sandbox",
        reference: intentReference(shop, FULFILLMENT_ORDER_ID),
        // Asked for, not yet carried out by the worker.
        cancelRequestedAt: new Date(),
        cancelReason: "cancelled by the merchant in the app",
        createdAt: long,
        updatedAt: long,
      },
    });
    expect((await send([orderId])).outcomes[0]).toMatchObject({ ok: true });
    const given = await prisma.delivery.findUniqueOrThrow({
      where: { id: orphan.id },
      include: { events: true },
    });
    expect(given).toMatchObject({ state: "skipped", cancelRequestedAt: null, cancelReason: null });
    expect(given.events.map((e) => e.message)).toContain(
      "Not cancelled (cancelled by the merchant in the app): the delivery became skipped before it could be cancelled.",
    );
  });

  it("tells the page where the shop's own deliveries stand, and nothing of another shop's", async () => {
    await readyShop(shop);
    programShopify([order]);
    programSendable();
    const sent = await send([orderId]);
    const other = await prisma.delivery.create({
      data: {
        shop: shopDomain("someone-else"),
        orderId,
        fulfillmentId: FULFILLMENT_ID,
        source: "manual",
        state: "created",
        courierOrderNumber: "KW999999",
        environment: "sandbox",
        reference: "SHPFY-someone-else-FO9001",
      },
    });
    const ask = async (ids: string[]) =>
      (
        await callRoute(
          statusLoader,
          await adminFetchRequest(shop, `/app/send/status?ids=${ids.join(",")}`),
        )
      ).json();
    const before = await ask([sent.outcomes[0].deliveryId, other.id]);
    expect(before.statuses).toEqual([
      expect.objectContaining({
        deliveryId: sent.outcomes[0].deliveryId,
        settled: false,
        message: "Preparing the courier request",
      }),
    ]);
    await testWorker().drain();
    const after = await ask([sent.outcomes[0].deliveryId]);
    expect(after.statuses[0]).toMatchObject({
      settled: true,
      progress: "created",
      message: expect.stringMatching(/^Created at the courier as KW\d+$/),
    });
  });

  it("tells the page that a delivery stopped for the merchant's attention, and why", async () => {
    await readyShop(shop);
    // Shopify keeps failing to give the order to the worker.
    programShopify([
      { ...order, shopifyError: "Internal error. Looks like something went wrong." },
    ]);
    programSendable();
    const sent = await send([orderId]);
    const deliveryId: string = sent.outcomes[0].deliveryId;
    const worker = testWorker();
    for (let round = 0; round <= MAX_STEP_FAILURES; round += 1) {
      worker.advance(60 * 60_000);
      await worker.drain();
    }
    const response = await callRoute(
      statusLoader,
      await adminFetchRequest(shop, `/app/send/status?ids=${deliveryId}`),
    );
    const { statuses } = await response.json();
    expect(statuses).toEqual([
      {
        deliveryId,
        orderId,
        settled: true,
        progress: "needs_attention",
        message: expect.stringMatching(
          /^Needs your attention: Stopped after 10 failed tries in a row while loading the order from Shopify: Internal error/,
        ),
        // What the page words itself from, in the merchant's language.
        state: "needs_attention",
        fulfilled: true,
        courierOrderNumber: null,
        reason: expect.stringMatching(/^Stopped after 10 failed tries in a row/),
      },
    ]);
  });

  it("refuses a selection over the limit and a request over the batch size, saying so", async () => {
    await readyShop(shop);
    const { fulfilled } = programSendable();
    const tooMany = await post(
      shop,
      new URLSearchParams([
        ["intent", "send"],
        ["selected", "251"],
        ["orderIds", orderId],
      ]),
    );
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).error).toEqual({
      code: "select_too_many",
      params: { count: 250 },
    });

    const form = new URLSearchParams({ intent: "send" });
    for (let i = 0; i < 11; i += 1) form.append("orderIds", `gid://shopify/Order/${5000 + i}`);
    const tooBig = await post(shop, form);
    expect(tooBig.status).toBe(400);
    expect((await tooBig.json()).error).toEqual({
      code: "send_batch_too_large",
      params: { count: 10 },
    });
    expect(fulfilled).toHaveLength(0);
  });
});

describe("Send to courier in bulk, against the Shopify stand-in store", () => {
  const bulkShop = shopDomain("send-bulk");
  let standIn: ShopifyStandIn;
  let uninstall: () => Promise<void>;

  beforeAll(async () => {
    standIn = await startTestStandIn({ shop: bulkShop });
    uninstall = routeShopifyToStandIn(standIn.url, {
      shops: /^send-bulk\.myshopify\.com$/,
      fallback: getGlobalDispatcher(),
    });
  });
  afterAll(async () => {
    await uninstall();
    await standIn.close();
  });

  /** The stand-in's shop, ready to send from a Salmiya store mapped to the courier. */
  async function readyStandInShop() {
    await readyShop(bulkShop);
    standIn.auth.issueAccessToken({ token: `offline-token-${bulkShop}` });
    const salmiya =
      standIn.store.locations().find((l) => l.name === "Salmiya store") ??
      standIn.store.addLocation({
        name: "Salmiya store",
        address: { city: "Salmiya", provinceCode: "KW-HA", address1: "Block 10" },
      });
    await prisma.pickupLocation.updateMany({
      where: { shop: bulkShop },
      data: { locationId: gid("Location", salmiya.id) },
    });
    return { salmiya };
  }

  async function loadPage(after?: string) {
    const path = after ? `/app/send?after=${encodeURIComponent(after)}` : "/app/send";
    return (
      await callRoute(sendLoader, await adminFetchRequest(bulkShop, path))
    ).json() as Promise<{
      orders: { id: string; name: string }[];
      nextCursor: string | null;
      waitingForCustomers: number;
    }>;
  }

  async function statuses(deliveryIds: string[]) {
    const request = await adminFetchRequest(
      bulkShop,
      `/app/send/status?ids=${deliveryIds.join(",")}`,
    );
    return (await callRoute(statusLoader, request)).json() as Promise<{
      statuses: { deliveryId: string; orderId: string; settled: boolean; message: string }[];
    }>;
  }

  /** Hands the app the fulfillments/create webhooks the stand-in sent since `from`. */
  async function deliverWebhooks(from: number) {
    const sent = standIn.webhooks.deliveries
      .slice(from)
      .filter((d) => d.topic === "fulfillments/create");
    for (const webhook of sent) {
      const response = await callRoute(
        fulfillmentsCreate,
        new Request("https://app.example/webhooks/fulfillments/create", {
          method: "POST",
          headers: webhook.headers,
          body: webhook.body,
        }),
      );
      expect(response.status).toBe(200);
    }
    return sent.length;
  }

  it("pages the unfulfilled orders with Shopify's cursor, each page within the query cost limit", async () => {
    await readyStandInShop();
    const added: StandInOrder[] = [];
    for (let i = 0; i < 55; i += 1) {
      added.push(
        standIn.store.addOrder({
          createdAt: new Date(Date.parse("2026-11-20T08:00:00Z") + i * 60_000),
        }),
      );
    }
    const first = await loadPage();
    expect(first.orders).toHaveLength(50);
    expect(first.orders[0]!.name).toBe(added.at(-1)!.name);
    expect(first.nextCursor).toEqual(expect.any(String));

    // Sending the last order of the page first does not lose the next page's place.
    const last = first.orders.at(-1)!;
    const result = await send([last.id], { shop: bulkShop });
    expect(result.outcomes[0]).toMatchObject({ ok: true });
    const second = await loadPage(first.nextCursor!);
    expect(second.orders.map((o) => o.name)).toEqual(
      added
        .slice(0, 5)
        .map((o) => o.name)
        .reverse(),
    );
    expect(second.nextCursor).toBeNull();

    const pages = standIn.store.graphqlLog.filter((c) => c.operationName === "SendableOrderPage");
    expect(pages).toHaveLength(2);
    for (const call of pages) {
      expect(call.outcome).toBe("ok");
      expect(call.requestedQueryCost).toBeLessThanOrEqual(1_000);
    }
  });

  it("says how many orders Shopify holds for their customers' answers, this shop's only", async () => {
    await readyStandInShop();
    const ask = (shop: string, n: number, state: string) =>
      prisma.shopperAsk.create({
        data: {
          shop,
          orderId: `gid://shopify/Order/${77_000 + n}`,
          token: `${n}`.padStart(32, "a"),
          state,
          linkExpiresAt: new Date(Date.now() + 86_400_000),
        },
      });
    expect((await loadPage()).waitingForCustomers).toBe(0);
    await ask(bulkShop, 1, "asked");
    await ask(bulkShop, 2, "asked");
    await ask(bulkShop, 3, "answered");
    await ask(shopDomain("send-bulk-other"), 4, "asked");
    expect((await loadPage()).waitingForCustomers).toBe(2);
    await prisma.shopperAsk.deleteMany({
      where: { orderId: { startsWith: "gid://shopify/Order/770" } },
    });
  });

  it("finds orders by number, by customer and by the days they were placed, payment in words", async () => {
    await readyStandInShop();
    const placed = (iso: string, firstName: string, payment: "paid" | "cod") =>
      standIn.store.addOrder({
        createdAt: iso,
        payment,
        shippingAddress: { firstName, lastName: "Al-Ajmi" },
      });
    // 23:30 on the 20th in Kuwait is still the 20th there (20:30 UTC).
    const late = placed("2026-11-20T20:30:00Z", "Hessa", "cod");
    const next = placed("2026-11-21T06:00:00Z", "Dalal", "paid");
    const later = placed("2026-11-23T09:00:00Z", "Hessa", "paid");
    const page = async (query: string) =>
      (
        (await (
          await callRoute(sendLoader, await adminFetchRequest(bulkShop, `/app/send?${query}`))
        ).json()) as {
          orders: { id: string; name: string; customer: string | null; payment: string | null }[];
          params: { q: string; from: string; to: string };
        }
      ).orders;
    const names = (orders: { name: string }[]) => orders.map((o) => o.name).sort();

    expect(names(await page(`q=${encodeURIComponent(next.name)}`))).toEqual([next.name]);
    expect(names(await page(`q=${next.name.replace("#", "")}`))).toEqual([next.name]);
    expect(names(await page("q=hessa"))).toEqual(names([late, later]));
    expect(names(await page("q=Al-Ajmi&from=2026-11-20&to=2026-11-20"))).toEqual([late.name]);
    expect(names(await page("q=Al-Ajmi&from=2026-11-21&to=2026-11-22"))).toEqual([next.name]);
    expect(names(await page("q=Hessa&from=2026-11-22"))).toEqual([later.name]);
    // A date that is not one is left out rather than refused.
    expect(names(await page("q=Dalal&from=yesterday"))).toEqual([next.name]);

    const [cod] = await page(`q=${encodeURIComponent(late.name)}`);
    expect(cod).toMatchObject({ customer: "Hessa Al-Ajmi", payment: "cod" });
    const [paid] = await page(`q=${encodeURIComponent(next.name)}`);
    expect(paid).toMatchObject({ payment: "paid" });
  });

  it("refuses an order in another currency before fulfilling it, with what the stand-in says of its currency", async () => {
    await readyStandInShop();
    const dollars = standIn.store.addOrder({ currencyCode: "USD" });
    const callsBefore = standIn.store.graphqlLog.length;
    const { outcomes } = await send([gid("Order", dollars.id)], { shop: bulkShop });
    expect(outcomes).toEqual([
      expect.objectContaining({
        ok: false,
        error: { code: "not_kwd", params: { currency: "USD" } },
      }),
    ]);
    expect(
      standIn.store.graphqlLog
        .slice(callsBefore)
        .filter((c) => c.operationName === "SendFulfillment"),
    ).toHaveLength(0);
    expect(await prisma.delivery.count({ where: { shop: bulkShop } })).toBe(0);
  });

  it("sends a selection in batches through create-bulk, and follows each order to the courier's answer", async () => {
    await readyStandInShop();
    const good = Array.from({ length: 10 }, (_, i) =>
      standIn.store.addOrder({
        shippingAddress: { address1: `Block ${i + 1}, Street 2, House 3` },
      }),
    );
    const unplaceable = standIn.store.addOrder({
      shippingAddress: { city: "Kuwait", provinceCode: null, address1: "near the big mosque" },
    });
    const spoilt = standIn.store.addOrder();
    const abroad = standIn.store.addOrder({
      shippingAddress: { city: "Riyadh", countryCode: "SA", provinceCode: null },
    });
    const selection = [...good, unplaceable, spoilt, abroad].map((o) => gid("Order", o.id));
    const webhooksBefore = standIn.webhooks.deliveries.length;
    const callsBefore = standIn.store.graphqlLog.length;

    // The page's batches: 10, then 3.
    const outcomes = [
      ...(await send(selection.slice(0, 10), { shop: bulkShop, selected: selection.length }))
        .outcomes,
      ...(await send(selection.slice(10), { shop: bulkShop, selected: selection.length })).outcomes,
    ];
    expect(outcomes).toHaveLength(13);
    expect(outcomes.at(-1)).toMatchObject({
      ok: false,
      error: { code: "not_kuwait", params: {} },
    });
    const sent = outcomes.filter((o: { ok: boolean }) => o.ok);
    expect(sent).toHaveLength(12);
    expect(await deliverWebhooks(webhooksBefore)).toBe(12);
    expect(await prisma.delivery.count({ where: { shop: bulkShop } })).toBe(12);
    expect(
      await prisma.delivery.count({
        where: { shop: bulkShop, source: "bulk", fulfillmentId: { not: null } },
      }),
    ).toBe(12);

    // One worker pass prepares them; a request the courier will refuse, then the rest of the run.
    const worker = testWorker();
    await worker.drain(1);
    const spoiltRow = await prisma.delivery.findFirstOrThrow({
      where: { shop: bulkShop, orderId: gid("Order", spoilt.id) },
    });
    const body = JSON.parse(spoiltRow.request!);
    body.deliveryAddress.areaId = 999_999;
    await prisma.delivery.update({
      where: { id: spoiltRow.id },
      data: { request: JSON.stringify(body) },
    });
    await worker.drain();

    const reply = await statuses(sent.map((o: { deliveryId: string }) => o.deliveryId));
    const byOrder = new Map(reply.statuses.map((s) => [s.orderId, s]));
    for (const o of good) {
      expect(byOrder.get(gid("Order", o.id))).toMatchObject({
        settled: true,
        message: expect.stringMatching(/^Created at the courier as KW\d+$/),
      });
    }
    expect(byOrder.get(gid("Order", unplaceable.id))).toMatchObject({
      settled: true,
      message: expect.stringMatching(/^Address needs review: /),
    });
    expect(byOrder.get(gid("Order", spoilt.id))).toMatchObject({
      settled: true,
      message: expect.stringMatching(/^Rejected by the courier: .*areaId/i),
    });
    const log = sandbox().requestLog;
    expect(log.filter((r) => r.endpoint === "createBulk")).toHaveLength(1);
    expect(log.filter((r) => r.endpoint === "createOrder")).toHaveLength(0);
    expect(sandbox().orders.size).toBe(10);
    expect(
      standIn.store.graphqlLog
        .slice(callsBefore)
        .filter((c) => c.operationName === "SendFulfillment"),
    ).toHaveLength(12);
  });

  it("quotes the weight of the parcel sending would create, from the mapped pickup location", async () => {
    const { salmiya } = await readyStandInShop();
    const warehouse = standIn.store.addLocation({ name: "Unmapped warehouse" });
    // The first fulfillment order ships from a location without a pickup mapping; the second,
    // from the mapped store, carries 2 × 3.5 kg.
    const mixed = standIn.store.addOrder({
      shippingAddress: {
        city: "Khaitan",
        provinceCode: "KW-FA",
        address1: "Block 1, Street 2, House 3",
      },
      lineItems: [
        {
          title: "Rug",
          quantity: 1,
          weight: { value: 20, unit: "KILOGRAMS" },
          locationId: warehouse.id,
        },
        {
          title: "Dates Crate",
          quantity: 2,
          weight: { value: 3.5, unit: "KILOGRAMS" },
          locationId: salmiya.id,
        },
      ],
    });
    const request = await adminFetchRequest(bulkShop, "/app/send", {
      form: { intent: "quote", orderId: gid("Order", mixed.id) },
    });
    const { quote } = await (await callRoute(sendAction, request)).json();
    expect(quote).toMatchObject({
      ok: true,
      currency: "KWD",
      basis: {
        weightKg: 7,
        weightKnown: true,
        from: expect.stringMatching(/^Salmiya store \(/),
        to: expect.stringMatching(/^Khaitan \(/),
      },
    });
    // The sandbox's tariff: 1.750 across governances, 0.250 for each started kg above 5.
    expect(quote.price).toBe(2.25);
    expect(sandbox().orders.size).toBe(0);

    // Sending it creates the delivery the quote was for.
    const result = await send([gid("Order", mixed.id)], { shop: bulkShop });
    expect(result.outcomes[0]).toMatchObject({ ok: true });
    await testWorker().drain();
    const delivery = await prisma.delivery.findUniqueOrThrow({
      where: { id: result.outcomes[0].deliveryId },
    });
    expect(delivery.state).toBe("created");
    const sentBody = JSON.parse(delivery.request!);
    expect(sentBody.packageDetails.weight).toBe(quote.basis.weightKg);
    // The same money rule: the value quoted is the value declared (or collected).
    expect(sentBody.packageDetails.value).toBe(quote.basis.value);
    expect(sentBody.paymentMethod).toBe(quote.basis.cashOnDelivery ? "COD" : "PREPAID");
    expect(sentBody.pickupAddress.areaId).toBe(
      (await prisma.pickupLocation.findFirstOrThrow({ where: { shop: bulkShop } })).areaId,
    );
  });
});
