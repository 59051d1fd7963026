import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { receiveFulfillment } from "../../app/deliveries/intake.server";
import { deliveryReference } from "../../app/deliveries/request";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import {
  fulfillmentPayload,
  PICKUP_LOCATION_ID,
  readyShop,
  type FakeOrder,
} from "../support/pipeline";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import { callRoute, shopDomain, webhookRequest } from "../support/shopify";

const shop = shopDomain("group-commit");
// readyShop tests the courier key against it.
setUpCourierSandbox();

const order = (n: number, extra: Partial<FakeOrder> = {}): FakeOrder => ({
  fulfillmentNumber: 7000 + n,
  orderNumber: 3000 + n,
  city: "Salmiya",
  address1: "Block 10, Street 5, House 12",
  provinceCode: "KW-HA",
  ...extra,
});

function send(o: FakeOrder, webhookId?: string, secret?: string) {
  return callRoute(
    fulfillmentsCreate,
    webhookRequest({
      topic: "fulfillments/create",
      shop,
      payload: fulfillmentPayload(o),
      webhookId,
      secret,
    }),
  );
}

describe("webhook intake, group-committed", () => {
  it("records forty concurrent webhooks and their redeliveries as one delivery and one event each", async () => {
    await readyShop(shop);
    const orders = Array.from({ length: 40 }, (_, i) => order(i));
    const responses = await Promise.all([
      ...orders.map((o) => send(o, `webhook-${o.fulfillmentNumber}`)),
      // Redeliveries of ten of them, in flight at the same time as the originals.
      ...orders.slice(0, 10).map((o) => send(o, `webhook-${o.fulfillmentNumber}`)),
    ]);
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));

    const deliveries = await prisma.delivery.findMany({
      where: { shop },
      include: { events: true },
      orderBy: { fulfillmentId: "asc" },
    });
    expect(deliveries.map((d) => d.fulfillmentId)).toEqual(
      orders.map((o) => `gid://shopify/Fulfillment/${o.fulfillmentNumber}`).sort(),
    );
    for (const delivery of deliveries) {
      // Read back through Prisma exactly as rows it wrote itself.
      expect(delivery).toMatchObject({
        source: "webhook",
        state: "pending",
        environment: "sandbox",
        locationId: PICKUP_LOCATION_ID,
        reference: deliveryReference(shop, delivery.fulfillmentId!),
        attempts: 0,
      });
      expect(delivery.orderName).toMatch(/^#\d+$/);
      expect(delivery.id).toMatch(/^c[0-9a-z]{24}$/);
      expect(delivery.createdAt).toBeInstanceOf(Date);
      expect(delivery.nextAttemptAt?.getTime()).toBe(delivery.createdAt.getTime());
      expect(delivery.events.map((e) => [e.kind, e.message])).toEqual([
        ["received", "Fulfillment received from Shopify (webhook)."],
      ]);
    }
    // Shared commits: a transaction stamps all of its rows with one time.
    expect(new Set(deliveries.map((d) => d.createdAt.getTime())).size).toBeLessThan(40);
    expect(new Set(deliveries.map((d) => d.id)).size).toBe(40);
  });

  it("answers 401 to a forged webhook among good ones and writes nothing for it", async () => {
    await readyShop(shop);
    const [forged, good] = await Promise.all([
      send(order(1), undefined, "not-the-app-secret"),
      send(order(2)),
    ]);
    expect(forged.status).toBe(401);
    expect(good.status).toBe(200);
    const rows = await prisma.delivery.findMany({ where: { shop } });
    expect(rows.map((r) => r.fulfillmentId)).toEqual([`gid://shopify/Fulfillment/${7002}`]);
  });

  it("records the skip reason, and ignores shops that are not installed", async () => {
    await readyShop(shop);
    const elsewhere = order(3, {});
    const payload = fulfillmentPayload(elsewhere) as { location_id: number };
    payload.location_id = 999;
    const response = await callRoute(
      fulfillmentsCreate,
      webhookRequest({ topic: "fulfillments/create", shop, payload }),
    );
    expect(response.status).toBe(200);
    const skipped = await prisma.delivery.findFirstOrThrow({
      where: { shop },
      include: { events: true },
    });
    expect(skipped).toMatchObject({
      state: "skipped",
      stateReason: "The location it ships from has no confirmed pickup address (Pickup locations).",
      nextAttemptAt: null,
    });
    expect(skipped.events.map((e) => e.kind)).toEqual(["skipped"]);

    const stranger = shopDomain("never-installed");
    const outcome = await receiveFulfillment(stranger, {
      id: "1",
      admin_graphql_api_id: "gid://shopify/Fulfillment/1",
      order_id: "1",
      location_id: "701",
      name: "#1.1",
      status: "success",
      destination: { country_code: "KW" },
    });
    expect(outcome).toEqual({ state: "ignored", reason: "shop not installed", duplicate: false });
    expect(await prisma.delivery.count({ where: { shop: stranger } })).toBe(0);
  });

  it("does not write into, nor roll back with, a Prisma transaction open at the time", async () => {
    await readyShop(shop);
    let webhook: Promise<Response> | undefined;
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.shopSettings.update({ where: { shop }, data: { preparationMinutes: 5 } });
        webhook = send(order(4));
        await new Promise((resolve) => setTimeout(resolve, 30));
        throw new Error("the merchant's save failed");
      }),
    ).rejects.toThrow("the merchant's save failed");
    expect((await webhook!).status).toBe(200);
    expect(await prisma.delivery.count({ where: { shop } })).toBe(1);
    const settings = await prisma.shopSettings.findUniqueOrThrow({ where: { shop } });
    expect(settings.preparationMinutes).not.toBe(5);
  });

  it("commits before a Prisma transaction that starts after it began waiting", async () => {
    await readyShop(shop);
    let webhook: Promise<Response> | undefined;
    // The worker, one transaction after another: the webhook arrives during the first.
    await prisma.$transaction(async (tx) => {
      await tx.shopSettings.findUniqueOrThrow({ where: { shop } });
      webhook = send(order(7));
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    const seenBySecond = await prisma.$transaction(async (tx) =>
      tx.delivery.count({ where: { shop } }),
    );
    expect(seenBySecond).toBe(1);
    expect((await webhook!).status).toBe(200);
  });

  it("keeps the others of a commit when one intake fails", async () => {
    await readyShop(shop);
    // The database refuses the row of one of them.
    await prisma.$executeRawUnsafe(`
      CREATE TRIGGER "test_refuse_3005" BEFORE INSERT ON "Delivery"
      WHEN NEW."orderId" = 'gid://shopify/Order/3005'
      BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`);
    try {
      const [failed, good] = await Promise.allSettled([send(order(5)), send(order(6))]);
      expect(failed).toMatchObject({
        status: "rejected",
        reason: { message: /refused for the test/ },
      });
      expect(good).toMatchObject({ status: "fulfilled", value: { status: 200 } });
    } finally {
      await prisma.$executeRawUnsafe(`DROP TRIGGER "test_refuse_3005"`);
    }
    const rows = await prisma.delivery.findMany({ where: { shop }, include: { events: true } });
    expect(rows.map((r) => [r.fulfillmentId, r.events.length])).toEqual([
      [`gid://shopify/Fulfillment/${7006}`, 1],
    ]);
  });

  it("gives each of two intents of one order at one location its own fulfillment, oldest first", async () => {
    await readyShop(shop);
    // Two fulfillment orders of the order at the same location, both sent by hand.
    const intents = [];
    for (const suffix of ["a", "b"]) {
      intents.push(
        await prisma.delivery.create({
          data: {
            shop,
            orderId: `gid://shopify/Order/${3005}`,
            locationId: PICKUP_LOCATION_ID,
            source: "manual",
            state: "pending",
            environment: "sandbox",
            reference: `SHPFY-intent-${suffix}`,
            createdAt: new Date(Date.now() - (suffix === "a" ? 2_000 : 1_000)),
          },
        }),
      );
    }
    expect((await send(order(5))).status).toBe(200);
    expect((await send(order(5, { fulfillmentNumber: 7105 }))).status).toBe(200);
    const rows = await prisma.delivery.findMany({ where: { shop }, orderBy: { reference: "asc" } });
    expect(rows.map((r) => [r.id, r.fulfillmentId])).toEqual([
      [intents[0]!.id, "gid://shopify/Fulfillment/7005"],
      [intents[1]!.id, "gid://shopify/Fulfillment/7105"],
    ]);
  });

  it("attaches a fulfillment to a Send-to-courier intent of its order only from the intent's location", async () => {
    await readyShop(shop);
    const intent = await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/3010",
        locationId: "gid://shopify/Location/702",
        source: "manual",
        state: "pending",
        environment: "sandbox",
        reference: "SHPFY-group-commit-FO1",
      },
    });
    // Another fulfillment of the same order, made in Shopify from another location, arrives first.
    expect((await send(order(10))).status).toBe(200);
    expect(
      (await prisma.delivery.findUniqueOrThrow({ where: { id: intent.id } })).fulfillmentId,
    ).toBeNull();
    const own = await prisma.delivery.findFirstOrThrow({
      where: { shop, fulfillmentId: "gid://shopify/Fulfillment/7010" },
    });
    expect(own.id).not.toBe(intent.id);
    expect(own.source).toBe("webhook");

    // The intent's own fulfillment, from its location, takes its row.
    await prisma.pickupLocation.create({
      data: {
        shop,
        locationId: "gid://shopify/Location/702",
        name: "Warehouse",
        governanceId: 1,
        areaId: 1,
        block: "1",
        street: "1",
        contactName: "Warehouse",
        contactPhone: "22223333",
        confirmedAt: new Date(),
      },
    });
    const outcome = await receiveFulfillment(shop, {
      id: "7011",
      admin_graphql_api_id: "gid://shopify/Fulfillment/7011",
      order_id: "3010",
      location_id: "702",
      destination: { country_code: "KW" },
    });
    expect(outcome).toEqual({ state: "pending", duplicate: true });
    expect(
      (await prisma.delivery.findUniqueOrThrow({ where: { id: intent.id } })).fulfillmentId,
    ).toBe("gid://shopify/Fulfillment/7011");
  });

  it("attaches a late fulfillment to an intent parked for want of it, which goes on with its tries counted afresh", async () => {
    await readyShop(shop);
    // Automatic sending off: the merchant's explicit send must not be lost to a skipped row.
    await prisma.shopSettings.update({ where: { shop }, data: { autoSend: false } });
    const parked = await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/3012",
        locationId: PICKUP_LOCATION_ID,
        source: "bulk",
        state: "needs_attention",
        stateReason: 'Shopify\'s fulfillment for this "Send to courier" never arrived.',
        lastError: 'Shopify\'s fulfillment for this "Send to courier" never arrived.',
        failures: 10,
        environment: "sandbox",
        reference: "SHPFY-group-commit-FO12",
      },
    });
    expect((await send(order(12))).status).toBe(200);

    const rows = await prisma.delivery.findMany({ where: { shop }, include: { events: true } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: parked.id,
      fulfillmentId: "gid://shopify/Fulfillment/7012",
      state: "pending",
      failures: 0,
      stateReason: null,
      lastError: null,
      nextAttemptAt: expect.any(Date),
    });
    expect(rows[0]!.events.map((e) => [e.kind, e.message])).toEqual([
      [
        "received",
        'Shopify\'s fulfillment for this "Send to courier" arrived after all: the delivery goes on.',
      ],
    ]);
  });

  it("prefers an intent still waiting to one parked, and leaves parked intents of other locations alone", async () => {
    await readyShop(shop);
    const intent = (state: string, reference: string, locationId = PICKUP_LOCATION_ID) =>
      prisma.delivery.create({
        data: {
          shop,
          orderId: "gid://shopify/Order/3013",
          locationId,
          source: "manual",
          state,
          environment: "sandbox",
          reference,
          createdAt: new Date(Date.now() - (state === "needs_attention" ? 60_000 : 1_000)),
        },
      });
    const parked = await intent("needs_attention", "SHPFY-group-commit-FO13a");
    const waiting = await intent("pending", "SHPFY-group-commit-FO13b");
    const elsewhere = await intent(
      "needs_attention",
      "SHPFY-group-commit-FO13c",
      "gid://shopify/Location/702",
    );
    expect((await send(order(13))).status).toBe(200);
    const fulfillmentOf = async (id: string) =>
      (await prisma.delivery.findUniqueOrThrow({ where: { id } })).fulfillmentId;
    expect(await fulfillmentOf(waiting.id)).toBe("gid://shopify/Fulfillment/7013");
    expect(await fulfillmentOf(parked.id)).toBeNull();
    expect(await fulfillmentOf(elsewhere.id)).toBeNull();
    // The next fulfillment of the order at that location goes to the parked one.
    expect((await send(order(13, { fulfillmentNumber: 7113 }))).status).toBe(200);
    expect(await fulfillmentOf(parked.id)).toBe("gid://shopify/Fulfillment/7113");
    expect(await prisma.delivery.count({ where: { shop } })).toBe(3);
  });

  it("runs SQLite in WAL mode with normal sync between durable commits", async () => {
    await readyShop(shop);
    await send(order(7));
    const [journal] =
      await prisma.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
    const [sync] =
      await prisma.$queryRawUnsafe<{ synchronous: bigint | number }[]>("PRAGMA synchronous");
    expect(journal?.journal_mode).toBe("wal");
    // 1 = NORMAL (2 = FULL is only held for the intake's commits).
    expect(Number(sync?.synchronous)).toBe(1);
  });
});
