import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { receiveFulfillment } from "../../app/pipeline/intake.server";
import { deliveryReference } from "../../app/domain/request";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import {
  fulfillmentPayload,
  PICKUP_LOCATION_ID,
  readyShop,
  type FakeOrder,
} from "../support/pipeline";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import { testDatabase, testDatabaseName } from "../support/database";
import { callRoute, shopDomain, webhookRequest } from "../support/shopify";

const dialect = testDatabase();
/** A behaviour only one database has is not defined on the other (never counted as skipped). */
const itOnTheOtherDatabase = (..._args: Parameters<typeof it>) => undefined;
const shop = shopDomain("intake");
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

// On SQLite the webhooks waiting at one moment are written in one durable transaction (group
// commit, ADR 0007); on PostgreSQL each is a transaction of its own (ADR 0009).
describe(`webhook intake (${testDatabaseName()})`, () => {
  it("records the same webhook sent five times at once as one delivery with one event", async () => {
    await readyShop(shop);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => send(order(1), "webhook-7001")),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const deliveries = await prisma.delivery.findMany({
      where: { shop },
      include: { events: true },
    });
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    expect(delivery).toMatchObject({
      fulfillmentId: "gid://shopify/Fulfillment/7001",
      source: "webhook",
      state: "pending",
      locationId: PICKUP_LOCATION_ID,
      reference: deliveryReference(shop, "gid://shopify/Fulfillment/7001"),
      attempts: 0,
    });
    expect(delivery!.id).toMatch(/^c[0-9a-z]{24}$/);
    expect(delivery!.events.map((e) => e.kind)).toEqual(["received"]);
  });

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
    // SQLite's shared commits: a transaction stamps all of its rows with one time.
    if (dialect === "sqlite") {
      expect(new Set(deliveries.map((d) => d.createdAt.getTime())).size).toBeLessThan(40);
    }
    expect(new Set(deliveries.map((d) => d.id)).size).toBe(40);
  });

  it("records once each fulfillment that Shopify retries under a new webhook id", async () => {
    await readyShop(shop);
    const orders = Array.from({ length: 30 }, (_, i) => order(100 + i));
    const responses = await Promise.all([
      ...orders.map((o) => send(o)),
      // Shopify's retries of the same fulfillment can come with another webhook id.
      ...orders.slice(0, 10).map((o) => send(o)),
    ]);
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const deliveries = await prisma.delivery.findMany({
      where: { shop },
      include: { events: true },
      orderBy: { fulfillmentId: "asc" },
    });
    expect(deliveries.map((d) => d.fulfillmentId)).toEqual(
      orders.map((o) => `gid://shopify/Fulfillment/${o.fulfillmentNumber}`).sort(),
    );
    for (const delivery of deliveries) expect(delivery.events).toHaveLength(1);
  });

  it("stores the moment a webhook was recorded, not shifted by a time zone", async () => {
    await readyShop(shop);
    const before = Date.now();
    await Promise.all([order(140), order(141), order(142)].map((o) => send(o)));
    const deliveries = await prisma.delivery.findMany({ where: { shop } });
    expect(deliveries).toHaveLength(3);
    for (const delivery of deliveries) {
      // Written by raw SQL, read back by Prisma: the instant it was written.
      expect(delivery.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(delivery.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      expect(delivery.nextAttemptAt).toEqual(delivery.createdAt);
    }
  });

  it("answers 401 to a forged webhook among good ones, writing nothing for it", async () => {
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

  it("records why it skips a fulfillment from a location without a pickup address", async () => {
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
  });

  it("ignores a fulfillment of a shop that never installed the app", async () => {
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

  // SQLite only: there intake shares Prisma's one connection and goes before the transactions
  // that start after it began waiting (ADR 0016). PostgreSQL's connections promise no order.
  (dialect === "sqlite" ? it : itOnTheOtherDatabase)(
    "commits before a Prisma transaction that starts after it began waiting",
    async () => {
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
    },
  );

  it("keeps the other webhooks' rows when one intake fails", async () => {
    await readyShop(shop);
    // The database refuses the row of one of them.
    const dropTrigger = await refuseOrder("gid://shopify/Order/3005");
    try {
      const [failed, good] = await Promise.allSettled([send(order(5)), send(order(6))]);
      expect(failed).toMatchObject({
        status: "rejected",
        reason: { message: /refused for the test/ },
      });
      expect(good).toMatchObject({ status: "fulfilled", value: { status: 200 } });
    } finally {
      await dropTrigger();
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
        reference: "SHPFY-intake-FO1",
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

  it("gives a late fulfillment to the intent held for want of it, its tries counted afresh", async () => {
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
        reference: "SHPFY-intake-FO12",
      },
    });
    // A waiting intent of the same order elsewhere is not the one.
    await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/3012",
        locationId: "gid://shopify/Location/702",
        source: "manual",
        state: "pending",
        environment: "sandbox",
        reference: "SHPFY-intake-FO12b",
      },
    });
    expect((await send(order(12))).status).toBe(200);

    const rows = await prisma.delivery.findMany({
      where: { shop },
      include: { events: true },
      orderBy: { reference: "asc" },
    });
    expect(rows.map((r) => r.fulfillmentId)).toEqual(["gid://shopify/Fulfillment/7012", null]);
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

  it("gives a fulfillment to an intent still waiting before one held at its location", async () => {
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
    const parked = await intent("needs_attention", "SHPFY-intake-FO13a");
    const waiting = await intent("pending", "SHPFY-intake-FO13b");
    const elsewhere = await intent(
      "needs_attention",
      "SHPFY-intake-FO13c",
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

  // The SQLite connection's own settings (app/db/sqlite-connection.ts).
  (dialect === "sqlite" ? it : itOnTheOtherDatabase)(
    "runs SQLite in WAL mode with normal sync between durable commits",
    async () => {
      await readyShop(shop);
      await send(order(7));
      const [journal] =
        await prisma.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
      const [sync] =
        await prisma.$queryRawUnsafe<{ synchronous: bigint | number }[]>("PRAGMA synchronous");
      expect(journal?.journal_mode).toBe("wal");
      // 1 = NORMAL (2 = FULL is only held for the intake's commits).
      expect(Number(sync?.synchronous)).toBe(1);
    },
  );
});

/** A trigger that makes the database refuse a Delivery row of `orderId`; resolves its removal. */
async function refuseOrder(orderId: string): Promise<() => Promise<unknown>> {
  if (dialect === "sqlite") {
    await prisma.$executeRawUnsafe(`
      CREATE TRIGGER "test_refuse" BEFORE INSERT ON "Delivery"
      WHEN NEW."orderId" = '${orderId}'
      BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`);
    return () => prisma.$executeRawUnsafe(`DROP TRIGGER "test_refuse"`);
  }
  await prisma.$executeRawUnsafe(`
    CREATE FUNCTION "test_refuse"() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'refused for the test'; END $$`);
  await prisma.$executeRawUnsafe(`
    CREATE TRIGGER "test_refuse" BEFORE INSERT ON "Delivery" FOR EACH ROW
    WHEN (NEW."orderId" = '${orderId}') EXECUTE FUNCTION "test_refuse"()`);
  return () => prisma.$executeRawUnsafe(`DROP FUNCTION "test_refuse"() CASCADE`);
}
