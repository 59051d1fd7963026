import { seedCashRows } from "../support/cash-rows";
import { Prisma } from "@prisma/client";
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { ensureShopInstalled, isShopActive } from "../../app/models/shop.server";
import { action as appUninstalled } from "../../app/routes/webhooks.app.uninstalled";
import { action as scopesUpdate } from "../../app/routes/webhooks.app.scopes_update";
import { action as dataRequest } from "../../app/routes/webhooks.customers.data_request";
import { action as customersRedact } from "../../app/routes/webhooks.customers.redact";
import { loader as privacyLoader } from "../../app/routes/app.privacy";
import { loader as exportLoader } from "../../app/routes/app.privacy-export.$id";
import { action as shopRedact } from "../../app/routes/webhooks.shop.redact";
import {
  adminFetchRequest,
  APP_URL,
  callRoute,
  installShop,
  shopDomain,
  webhookRequest,
} from "../support/shopify";

const shop = shopDomain("redact-me");
const neighbour = shopDomain("neighbour");

const routes = {
  "app/uninstalled": appUninstalled,
  "app/scopes_update": scopesUpdate,
  "customers/data_request": dataRequest,
  "customers/redact": customersRedact,
  "shop/redact": shopRedact,
} as const;
type Topic = keyof typeof routes;

const payloads: Record<Topic, unknown> = {
  "app/uninstalled": { id: 1, name: "Redact me", domain: shop },
  "app/scopes_update": {
    id: 1,
    current: ["read_orders"],
    previous: ["read_orders", "read_locations"],
  },
  "customers/data_request": {
    shop_id: 1,
    shop_domain: shop,
    orders_requested: [299938, 280263],
    customer: { id: 191167, email: "john@example.com", phone: "555-625-1199" },
    data_request: { id: 9999 },
  },
  "customers/redact": {
    shop_id: 1,
    shop_domain: shop,
    customer: { id: 191167, email: "john@example.com", phone: "555-625-1199" },
    orders_to_redact: [299938, 280263],
  },
  "shop/redact": { shop_id: 1, shop_domain: shop },
};

function send(topic: Topic, overrides: Partial<Parameters<typeof webhookRequest>[0]> = {}) {
  const request = webhookRequest({ topic, shop, payload: payloads[topic], ...overrides });
  return callRoute(routes[topic], request);
}

/** Row counts of every table that has a `shop` column, read from the Prisma schema itself. */
async function rowsPerShopTable(forShop: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const model of Prisma.dmmf.datamodel.models) {
    if (!model.fields.some((f) => f.name === "shop")) continue;
    const delegate = (
      prisma as unknown as Record<string, { count: (args: object) => Promise<number> }>
    )[model.name.charAt(0).toLowerCase() + model.name.slice(1)];
    counts[model.name] = await delegate!.count({ where: { shop: forShop } });
  }
  return counts;
}

async function seedShop(name: string) {
  await installShop(name);
  await ensureShopInstalled(name);
  await prisma.complianceRequest.create({
    data: { shop: name, topic: "customers/data_request", webhookId: `seed-${name}` },
  });
  await prisma.courierMasterData.create({
    data: {
      shop: name,
      environment: "sandbox",
      governances: "[]",
      areas: "[]",
      fetchedAt: new Date(),
    },
  });
  await prisma.pickupLocation.create({
    data: {
      shop: name,
      locationId: "gid://shopify/Location/1",
      name: "Warehouse",
      governanceId: 59,
      areaId: 3624,
      block: "1",
      street: "2",
      contactName: "Store",
      contactPhone: "22223333",
      confirmedAt: new Date(),
    },
  });
  await prisma.areaOverride.create({
    data: { shop: name, spelling: "salmya", governorate: "KW-HA", area: "Salmiya" },
  });
  await prisma.courierStatusMapping.create({
    data: { shop: name, code: "held_at_customs", source: "unmapped" },
  });
  await prisma.processedWebhook.create({
    data: { shop: name, webhookId: `seed-${name}`, topic: "fulfillments/create" },
  });
  await prisma.courierCircuit.create({
    data: { shop: name, environment: "sandbox", circuit: "create", state: "open", failures: 5 },
  });
  await prisma.staffLanguage.create({ data: { shop: name, userId: "1", language: "ar" } });
  // Checkout rates (issue 28): settings, a price and a day's count.
  await prisma.checkoutRateSettings.create({
    data: { shop: name, callbackToken: `token-${name}` },
  });
  await prisma.areaPrice.create({
    data: {
      shop: name,
      environment: "sandbox",
      originAreaId: 1,
      areaId: 2,
      governanceId: 3,
      bandKg: 5,
      priceFils: 1_250,
      fetchedAt: new Date(),
    },
  });
  await prisma.rateRequestTally.create({
    data: { shop: name, day: "2026-11-29", area: "Salmiya", outcome: "priced", count: 3 },
  });
  await prisma.fulfillmentCheck.create({
    data: {
      shop: name,
      checkedUntil: new Date(),
      recoverFrom: new Date(),
      nextCheckAt: new Date(),
    },
  });
  await seedCashRows(prisma, name);
  await prisma.delivery.create({
    data: {
      shop: name,
      orderId: "gid://shopify/Order/299938",
      fulfillmentId: "gid://shopify/Fulfillment/1",
      source: "webhook",
      state: "created",
      environment: "sandbox",
      reference: `SHPFY-${name}-1`,
      courierOrderId: "C-1",
      request: JSON.stringify({
        deliveryAddress: { contactName: "John Doe", contactPhone: "55512345" },
      }),
      addressMatch: JSON.stringify({ city: "Salmiya" }),
      events: {
        create: { shop: name, kind: "created", message: "Created", data: '{"phone":"55512345"}' },
      },
    },
  });
}

beforeEach(async () => {
  await seedShop(shop);
  await seedShop(neighbour);
});

describe.each(Object.keys(routes) as Topic[])("webhook %s", (topic) => {
  it("answers 401 to a forged signature and writes nothing", async () => {
    const before = await rowsPerShopTable(shop);
    const settingsBefore = await prisma.shopSettings.findUnique({ where: { shop } });
    const response = await send(topic, { secret: "not-the-app-secret" });
    expect(response.status).toBe(401);
    expect(await rowsPerShopTable(shop)).toEqual(before);
    expect(await prisma.shopSettings.findUnique({ where: { shop } })).toEqual(settingsBefore);
  });

  it("answers 400 when Shopify's headers are missing and writes nothing", async () => {
    const before = await rowsPerShopTable(shop);
    const response = await send(topic, { omit: ["X-Shopify-Topic", "X-Shopify-Shop-Domain"] });
    expect(response.status).toBe(400);
    expect(await rowsPerShopTable(shop)).toEqual(before);
  });

  it("answers 400 when the signature header is missing and writes nothing", async () => {
    const before = await rowsPerShopTable(shop);
    const response = await send(topic, { omit: ["X-Shopify-Hmac-Sha256"] });
    expect(response.status).toBe(400);
    expect(await rowsPerShopTable(shop)).toEqual(before);
    expect(await isShopActive(shop)).toBe(true);
  });

  it("accepts a correctly signed delivery with 200", async () => {
    const response = await send(topic);
    expect(response.status).toBe(200);
  });
});

describe("app/uninstalled", () => {
  it("deletes the shop's sessions, marks it uninstalled and leaves other shops alone", async () => {
    expect(await isShopActive(shop)).toBe(true);
    expect((await send("app/uninstalled")).status).toBe(200);

    expect(await prisma.session.count({ where: { shop } })).toBe(0);
    expect(await isShopActive(shop)).toBe(false);
    expect(await isShopActive(neighbour)).toBe(true);
    expect(await prisma.session.count({ where: { shop: neighbour } })).toBe(1);
  });

  it("is harmless when Shopify delivers it twice", async () => {
    await send("app/uninstalled");
    const first = await prisma.shopSettings.findUniqueOrThrow({ where: { shop } });
    expect((await send("app/uninstalled")).status).toBe(200);
    const second = await prisma.shopSettings.findUniqueOrThrow({ where: { shop } });
    expect(second.uninstalledAt).toEqual(first.uninstalledAt);
  });

  it("is undone by a reinstall", async () => {
    await send("app/uninstalled");
    await ensureShopInstalled(shop, "read_orders");
    expect(await isShopActive(shop)).toBe(true);
  });
});

describe("app/scopes_update", () => {
  it("records the scopes now granted on the sessions and the settings", async () => {
    await send("app/scopes_update");
    const session = await prisma.session.findFirstOrThrow({ where: { shop } });
    expect(session.scope).toBe("read_orders");
    expect((await prisma.shopSettings.findUniqueOrThrow({ where: { shop } })).scopes).toBe(
      "read_orders",
    );
    const other = await prisma.session.findFirstOrThrow({ where: { shop: neighbour } });
    expect(other.scope).not.toBe("read_orders");
  });

  it("rejects a body without the current scopes with 422 and changes nothing", async () => {
    const response = await send("app/scopes_update", { payload: { previous: [] } });
    expect(response.status).toBe(422);
    expect(await response.text()).toContain("current");
    const session = await prisma.session.findFirstOrThrow({ where: { shop } });
    expect(session.scope).not.toBe("read_orders");
  });
});

describe("customers/data_request and customers/redact", () => {
  it("remember the request by Shopify ids only, once per webhook id", async () => {
    await send("customers/data_request", { webhookId: "wh-1" });
    await send("customers/data_request", { webhookId: "wh-1" });
    const requests = await prisma.complianceRequest.findMany({
      where: { shop, topic: "customers/data_request", webhookId: "wh-1" },
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ customerId: "191167", orderIds: '["299938","280263"]' });
    expect(requests[0]?.completedAt).toBeInstanceOf(Date);
    expect(JSON.stringify(requests)).not.toContain("john@example.com");
    expect(JSON.stringify(requests)).not.toContain("555-625-1199");
  });

  it("erases the personal data of the named orders' deliveries and keeps their record", async () => {
    await prisma.delivery.updateMany({
      where: { shop },
      data: {
        stateReason: "The courier refused the phone “+965 5551 2345”.",
        lastError: "contactPhone 55512345 is not valid",
        request: JSON.stringify(courierRequest("John Doe", "55512345")),
      },
    });
    const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    await prisma.deliveryEvent.create({
      data: {
        shop,
        deliveryId: delivery.id,
        kind: "needs_attention",
        message: "Phone “+965 5551 2345” is too short",
      },
    });

    await send("customers/redact", { webhookId: "wh-3" });

    const after = await prisma.delivery.findFirstOrThrow({
      where: { id: delivery.id },
      include: { events: true },
    });
    const request = JSON.parse(after.request!);
    // The customer's contact and address are gone; the courier's area ids and the parcel stay.
    expect(request.deliveryAddress).toEqual({
      governanceId: 59,
      areaId: 3624,
      contactCountryCode: "+965",
      contactName: "",
      contactPhone: "",
      block: "",
      street: "",
      house: "",
      building: "",
      floor: "",
      avenue: "",
      office: "",
      notes: "",
    });
    expect(request.pickupAddress.contactName).toBe("Store");
    expect(request.notes).toBe("SHPFY-1 · Shopify order #1001");
    expect(after.addressMatch).toBeNull();
    expect(after.lastError).toBeNull();
    expect(after.state).toBe("created");
    expect(after.courierOrderId).toBe("C-1");
    const stored = JSON.stringify(after);
    for (const personal of ["John", "5551", "55512345", "Salmiya", "29.33"]) {
      expect(stored).not.toContain(personal);
    }
    // The timeline keeps its shape; texts that may quote the customer are erased.
    expect(after.events.map((e) => [e.kind, e.message]).sort()).toEqual([
      ["created", "Created"],
      ["needs_attention", "Erased at the customer's request."],
    ]);
    expect(after.events.every((e) => e.data === null)).toBe(true);

    const untouched = await prisma.delivery.findFirstOrThrow({ where: { shop: neighbour } });
    expect(untouched.request).toContain("John Doe");
    const compliance = await prisma.complianceRequest.findFirstOrThrow({
      where: { shop, webhookId: "wh-3" },
    });
    expect(compliance.outcome).toBe("Personal data erased from 1 delivery.");
  });

  it("leaves the shop's other customers' deliveries as they were", async () => {
    await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/777",
        fulfillmentId: "gid://shopify/Fulfillment/777",
        source: "webhook",
        state: "needs_address",
        stateReason: "Where is “Slmya”?",
        environment: "sandbox",
        reference: "SHPFY-777",
        request: JSON.stringify(courierRequest("Fatima", "99887766")),
        addressMatch: '{"city":"Slmya"}',
        events: { create: { shop, kind: "needs_address", message: "Where is “Slmya”?" } },
      },
    });
    const before = await prisma.delivery.findFirstOrThrow({
      where: { shop, orderId: "gid://shopify/Order/777" },
      include: { events: true },
    });
    await send("customers/redact", { webhookId: "wh-5" });
    const after = await prisma.delivery.findFirstOrThrow({
      where: { id: before.id },
      include: { events: true },
    });
    expect(after).toEqual(before);
  });

  it("cancels the named orders' deliveries that were never sent", async () => {
    await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/280263",
        fulfillmentId: "gid://shopify/Fulfillment/2",
        source: "webhook",
        state: "ready",
        environment: "sandbox",
        reference: "SHPFY-2",
        nextAttemptAt: new Date(),
        request: JSON.stringify(courierRequest("John Doe", "55512345")),
      },
    });
    await send("customers/redact", { webhookId: "wh-6" });
    const unsent = await prisma.delivery.findFirstOrThrow({
      where: { shop, reference: "SHPFY-2" },
      include: { events: true },
    });
    expect(unsent.state).toBe("cancelled");
    expect(unsent.nextAttemptAt).toBeNull();
    expect(unsent.stateReason).toMatch(/erased at their request/);
    expect(unsent.events.map((e) => e.kind)).toEqual(["cancelled"]);
    expect(unsent.request).not.toContain("John");
    // The delivery already at the courier keeps its state.
    const sent = await prisma.delivery.findFirstOrThrow({
      where: { shop, reference: { not: "SHPFY-2" } },
    });
    expect(sent.state).toBe("created");
    const compliance = await prisma.complianceRequest.findFirstOrThrow({
      where: { shop, webhookId: "wh-6" },
    });
    expect(compliance.outcome).toBe(
      "Personal data erased from 2 deliveries (1 not yet sent, cancelled).",
    );
  });

  it("never sends a named order's delivery held for the merchant, and asks the courier about one of uncertain outcome", async () => {
    const base = {
      shop,
      source: "webhook",
      environment: "sandbox",
      request: JSON.stringify(courierRequest("John Doe", "55512345")),
    };
    await prisma.delivery.createMany({
      data: [
        {
          ...base,
          orderId: "gid://shopify/Order/280263",
          fulfillmentId: "gid://shopify/Fulfillment/3",
          reference: "SHPFY-3",
          state: "needs_attention",
          stateReason: "The order is in USD.",
        },
        {
          ...base,
          orderId: "gid://shopify/Order/280263",
          fulfillmentId: "gid://shopify/Fulfillment/4",
          reference: "SHPFY-4",
          state: "needs_review",
        },
      ],
    });
    await prisma.delivery.updateMany({
      where: { shop, reference: "SHPFY-redact-me.myshopify.com-1" },
      data: {
        shopifyPending: JSON.stringify({
          status: "DELIVERED",
          happenedAt: null,
          message: "Handed to John Doe at the door",
        }),
        shopifyAttempts: 2,
        shopifyRetryAt: new Date(),
      },
    });

    await send("customers/redact", { webhookId: "wh-8" });

    const rows = await prisma.delivery.findMany({ where: { shop }, orderBy: { reference: "asc" } });
    const byRef = Object.fromEntries(rows.map((r) => [r.reference, r]));
    // Held for the merchant (never at the courier): cancelled, not sent on "Try again".
    expect(byRef["SHPFY-3"]!.state).toBe("cancelled");
    // Maybe at the courier: its cancellation is requested, for the worker to carry out.
    expect(byRef["SHPFY-4"]!.state).toBe("needs_review");
    expect(byRef["SHPFY-4"]!.cancelRequestedAt).toBeInstanceOf(Date);
    // The status owed to Shopify, whose note quoted the courier, is dropped.
    const created = byRef["SHPFY-redact-me.myshopify.com-1"]!;
    expect(created.state).toBe("created");
    expect(created.shopifyPending).toBeNull();
    expect(created.shopifyRetryAt).toBeNull();
    expect(JSON.stringify(rows)).not.toContain("John");
    const compliance = await prisma.complianceRequest.findFirstOrThrow({
      where: { shop, webhookId: "wh-8" },
    });
    expect(compliance.outcome).toBe(
      "Personal data erased from 3 deliveries (1 not yet sent, cancelled) (1 of uncertain outcome at the courier, being cancelled).",
    );
  });

  it("counts the deliveries held for a data request", async () => {
    await send("customers/data_request", { webhookId: "wh-4" });
    const request = await prisma.complianceRequest.findFirstOrThrow({
      where: { shop, webhookId: "wh-4" },
    });
    expect(request.outcome).toBe("1 delivery held for these orders; download them here.");
  });

  it("records a customer redaction as completed", async () => {
    await send("customers/redact", { webhookId: "wh-2" });
    const request = await prisma.complianceRequest.findFirstOrThrow({
      where: { shop, webhookId: "wh-2" },
    });
    expect(request.topic).toBe("customers/redact");
    expect(request.completedAt).toBeInstanceOf(Date);
  });
});

describe("the merchant's privacy requests page", () => {
  it("lists the shop's requests and exports what the app holds on the customer's orders", async () => {
    await send("customers/data_request", { webhookId: "wh-7" });
    await prisma.complianceRequest.create({
      data: { shop: neighbour, topic: "customers/data_request", webhookId: "wh-other" },
    });
    const page = await callRoute(privacyLoader, await adminFetchRequest(shop, "/app/privacy"));
    const { requests } = (await page.json()) as { requests: { id: string; topic: string }[] };
    const own = await prisma.complianceRequest.findMany({ where: { shop } });
    expect(requests.map((r) => r.id).sort()).toEqual(own.map((r) => r.id).sort());

    const id = own.find((r) => r.webhookId === "wh-7")!.id;
    const response = await callRoute(
      exportLoader,
      await adminFetchRequest(shop, `/app/privacy-export/${id}`),
      { id },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain("attachment");
    const data = (await response.json()) as {
      customerId: string;
      deliveries: { order: string; courierRequest: unknown; timeline: unknown[] }[];
    };
    expect(data.customerId).toBe("191167");
    expect(data.deliveries.map((d) => d.order)).toEqual(["gid://shopify/Order/299938"]);
    expect(JSON.stringify(data.deliveries[0]!.courierRequest)).toContain("John Doe");
    expect(data.deliveries[0]!.timeline).toHaveLength(1);
  });

  it("does not export another shop's request", async () => {
    const other = await prisma.complianceRequest.findFirstOrThrow({ where: { shop: neighbour } });
    const response = await callRoute(
      exportLoader,
      await adminFetchRequest(shop, `/app/privacy-export/${other.id}`),
      { id: other.id },
    );
    expect(response.status).toBe(404);
  });

  it("refuses an export without a session token", async () => {
    const own = await prisma.complianceRequest.findFirstOrThrow({ where: { shop } });
    const response = await callRoute(
      exportLoader,
      new Request(new URL(`/app/privacy-export/${own.id}`, APP_URL), {
        headers: { Authorization: "Bearer not.a.jwt" },
      }),
      { id: own.id },
    );
    expect(response.status).toBe(401);
  });
});

/** A stored courier request as the worker writes it, with a customer's contact and address. */
function courierRequest(name: string, phone: string) {
  return {
    pickupAddress: {
      governanceId: 59,
      areaId: 3624,
      contactName: "Store",
      contactPhone: "22223333",
    },
    pickupDate: "2026-11-24T12:00:00",
    paymentMethod: "COD",
    deliveryAddress: {
      governanceId: 59,
      areaId: 3624,
      contactCountryCode: "+965",
      contactName: name,
      contactPhone: phone,
      block: "10",
      street: "5",
      house: "12",
      building: "",
      floor: "2",
      avenue: "",
      office: "",
      latitude: 29.331234,
      longitude: 48.071234,
      notes: "Apartment 4 · Salmiya",
    },
    packageDetails: { weight: 1, description: "1 × Abaya", value: 24.5 },
    notes: "SHPFY-1 · Shopify order #1001",
  };
}

describe("shop/redact", () => {
  it("deletes every row of the shop in every table that has a shop column", async () => {
    const before = await rowsPerShopTable(shop);
    expect(Object.values(before).every((n) => n > 0)).toBe(true);

    expect((await send("shop/redact")).status).toBe(200);

    const after = await rowsPerShopTable(shop);
    expect(Object.values(after).every((n) => n === 0)).toBe(true);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
  });

  it("leaves every other shop's rows in place", async () => {
    const before = await rowsPerShopTable(neighbour);
    await send("shop/redact");
    expect(await rowsPerShopTable(neighbour)).toEqual(before);
  });
});
