import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { receiveFulfillment } from "../../app/deliveries/intake.server";
import { deliveryReference } from "../../app/deliveries/domain/request";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import {
  fulfillmentPayload,
  PICKUP_LOCATION_ID,
  readyShop,
  type FakeOrder,
} from "../support/pipeline";
import { callRoute, shopDomain, webhookRequest } from "../support/shopify";

const shop = shopDomain("pg-intake");
// readyShop tests the courier key against it.
setUpCourierSandbox();

const order = (n: number): FakeOrder => ({
  fulfillmentNumber: 8000 + n,
  orderNumber: 4000 + n,
  city: "Salmiya",
  address1: "Block 10, Street 5, House 12",
  provinceCode: "KW-HA",
});

function send(o: FakeOrder, webhookId?: string) {
  return callRoute(
    fulfillmentsCreate,
    webhookRequest({
      topic: "fulfillments/create",
      shop,
      payload: fulfillmentPayload(o),
      webhookId,
    }),
  );
}

describe("webhook intake on PostgreSQL", () => {
  it("records the same webhook sent five times at once as one delivery with one event", async () => {
    await readyShop(shop);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => send(order(1), "webhook-8001")),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const deliveries = await prisma.delivery.findMany({
      where: { shop },
      include: { events: true },
    });
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    expect(delivery).toMatchObject({
      fulfillmentId: "gid://shopify/Fulfillment/8001",
      source: "webhook",
      state: "pending",
      locationId: PICKUP_LOCATION_ID,
      reference: deliveryReference(shop, "gid://shopify/Fulfillment/8001"),
      attempts: 0,
    });
    expect(delivery!.id).toMatch(/^c[0-9a-z]{24}$/);
    expect(delivery!.events.map((e) => e.kind)).toEqual(["received"]);
  });

  it("records thirty concurrent webhooks and their redeliveries (new webhook ids) once each, times in UTC", async () => {
    await readyShop(shop);
    const before = Date.now();
    const orders = Array.from({ length: 30 }, (_, i) => order(10 + i));
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
    for (const delivery of deliveries) {
      expect(delivery.events).toHaveLength(1);
      // Written by raw SQL, read back by Prisma: the instant it was written, not shifted by a
      // time zone.
      expect(delivery.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(delivery.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      expect(delivery.nextAttemptAt).toEqual(delivery.createdAt);
    }
  });

  it("records a skip with its reason, and ignores a shop that is not installed", async () => {
    await readyShop(shop);
    const payload = fulfillmentPayload(order(50)) as { location_id: number };
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
    expect(skipped).toMatchObject({ state: "skipped", nextAttemptAt: null });
    expect(skipped.stateReason).toMatch(/no confirmed pickup address/);
    expect(skipped.events.map((e) => e.kind)).toEqual(["skipped"]);

    const stranger = shopDomain("pg-never-installed");
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

  it("attaches a fulfillment to a Send-to-courier intent of its order only from the intent's location", async () => {
    await readyShop(shop);
    const intent = await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/4010",
        locationId: "gid://shopify/Location/702",
        source: "manual",
        state: "pending",
        environment: "sandbox",
        reference: "SHPFY-pg-intake-FO1",
      },
    });
    expect((await send(order(10))).status).toBe(200);
    expect(
      (await prisma.delivery.findUniqueOrThrow({ where: { id: intent.id } })).fulfillmentId,
    ).toBeNull();
    const outcome = await receiveFulfillment(shop, {
      id: "8011",
      admin_graphql_api_id: "gid://shopify/Fulfillment/8011",
      order_id: "4010",
      location_id: "702",
      destination: { country_code: "KW" },
    });
    expect(outcome).toEqual({ state: "pending", duplicate: true });
    expect(
      (await prisma.delivery.findUniqueOrThrow({ where: { id: intent.id } })).fulfillmentId,
    ).toBe("gid://shopify/Fulfillment/8011");
  });

  it("gives each of two intents of one order at one location its own fulfillment, oldest first", async () => {
    await readyShop(shop);
    const intents = [];
    for (const suffix of ["a", "b"]) {
      intents.push(
        await prisma.delivery.create({
          data: {
            shop,
            orderId: "gid://shopify/Order/4020",
            locationId: PICKUP_LOCATION_ID,
            source: "manual",
            state: "pending",
            environment: "sandbox",
            reference: `SHPFY-pg-intake-FO2${suffix}`,
            createdAt: new Date(Date.now() - (suffix === "a" ? 2_000 : 1_000)),
          },
        }),
      );
    }
    expect((await send(order(20))).status).toBe(200);
    expect((await send({ ...order(20), fulfillmentNumber: 8120 })).status).toBe(200);
    const rows = await prisma.delivery.findMany({
      where: { shop, orderId: "gid://shopify/Order/4020" },
      orderBy: { reference: "asc" },
    });
    expect(rows.map((r) => [r.id, r.fulfillmentId])).toEqual([
      [intents[0]!.id, "gid://shopify/Fulfillment/8020"],
      [intents[1]!.id, "gid://shopify/Fulfillment/8120"],
    ]);
  });

  it("attaches a late fulfillment to an intent parked for want of it, which goes on with its tries counted afresh", async () => {
    await readyShop(shop);
    await prisma.shopSettings.update({ where: { shop }, data: { autoSend: false } });
    const parked = await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/4030",
        locationId: PICKUP_LOCATION_ID,
        source: "manual",
        state: "needs_attention",
        stateReason: 'Shopify\'s fulfillment for this "Send to courier" never arrived.',
        lastError: 'Shopify\'s fulfillment for this "Send to courier" never arrived.',
        failures: 10,
        environment: "sandbox",
        reference: "SHPFY-pg-intake-FO30",
      },
    });
    // A waiting intent of the same order elsewhere is not the one.
    await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/4030",
        locationId: "gid://shopify/Location/702",
        source: "manual",
        state: "pending",
        environment: "sandbox",
        reference: "SHPFY-pg-intake-FO31",
      },
    });
    expect((await send(order(30))).status).toBe(200);

    const rows = await prisma.delivery.findMany({
      where: { shop, orderId: "gid://shopify/Order/4030" },
      include: { events: true },
      orderBy: { reference: "asc" },
    });
    expect(rows.map((r) => r.fulfillmentId)).toEqual(["gid://shopify/Fulfillment/8030", null]);
    expect(rows[0]).toMatchObject({
      id: parked.id,
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
});
