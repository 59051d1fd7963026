import { beforeEach, describe, expect, it } from "vitest";
import {
  cancelResponse,
  orderDeliveriesResponse,
  sendResponse,
  sendStatusResponse,
} from "../../app/api-contract";
import prisma from "../../app/db.server";
import { action as cancelAction } from "../../app/routes/api.deliveries.$id.cancel";
import { loader as labelsLoader } from "../../app/routes/api.labels";
import {
  action as orderPreflight,
  loader as orderLoader,
} from "../../app/routes/api.orders.$orderId";
import { action as sendAction } from "../../app/routes/api.send";
import { loader as sendStatusLoader } from "../../app/routes/api.send.status";
import { CREATED_DELIVERY_COLUMNS, createdDelivery } from "../labels/fixtures";
import { adminApi } from "../support/admin-api";
import { adminFetchRequest, APP_URL, callRoute, installShop, shopDomain } from "../support/shopify";

const shopA = shopDomain("extension-shop-a");
const shopB = shopDomain("extension-shop-b");
const ORDER_A = "gid://shopify/Order/7001";
const ORDER_B = "gid://shopify/Order/8001";
/** Where the admin runs extensions: another origin than the app. */
const EXTENSION_ORIGIN = "https://extensions.shopifycdn.com";

/** Each shop's Shopify knows its own order only (the stand-in answers by the token's shop). */
function shopifyKnowsEachShopsOrder() {
  const ordersOf: Record<string, string> = { [shopA]: ORDER_A, [shopB]: ORDER_B };
  adminApi.on("SendOrdersById", (variables, call) => ({
    data: {
      nodes: (variables.ids as string[]).map((id) =>
        id === ordersOf[call.shop]
          ? {
              id,
              name: "#1042",
              createdAt: "2026-11-22T08:00:00Z",
              displayFinancialStatus: "PENDING",
              currencyCode: "KWD",
              presentmentCurrencyCode: "KWD",
              totalPriceSet: { shopMoney: { amount: "12.500", currencyCode: "KWD" } },
              shippingAddress: {
                address1: "Block 4",
                address2: null,
                city: "Hawalli",
                zip: null,
                provinceCode: "KW-HA",
                countryCodeV2: "KW",
              },
              fulfillmentOrders: {
                nodes: [
                  {
                    id: "gid://shopify/FulfillmentOrder/1",
                    status: "OPEN",
                    assignedLocation: { location: { id: "gid://shopify/Location/1" } },
                  },
                ],
              },
            }
          : null,
      ),
    },
  }));
  adminApi.on("LabelShopName", (_variables, call) => ({
    data: { shop: { name: call.shop === shopA ? "Dar Al Abaya" : "Other Store" } },
  }));
}

async function deliveryOf(shop: string, orderId: string, state: string, suffix: string) {
  const fixture = createdDelivery();
  const { id: _id, request: _request, addressMatch: _match, ...fields } = fixture;
  return prisma.delivery.create({
    data: {
      ...fields,
      ...CREATED_DELIVERY_COLUMNS,
      shop,
      orderId,
      source: "webhook",
      state,
      environment: "sandbox",
      fulfillmentId: `gid://shopify/Fulfillment/${suffix}`,
      reference: `SHPFY-${suffix}`,
      ...(state === "needs_address" || state === "ready"
        ? {
            courierOrderId: null,
            courierOrderNumber: null,
            stateReason: "The area could not be recognised.",
          }
        : {}),
    },
  });
}

async function call(
  fn: Parameters<typeof callRoute>[0],
  shop: string,
  path: string,
  init: { method?: string; json?: unknown } = {},
  params: Record<string, string> = {},
) {
  const signed = await adminFetchRequest(shop, path, init);
  const request = new Request(signed, { headers: new Headers(signed.headers) });
  request.headers.set("Origin", EXTENSION_ORIGIN);
  return callRoute(fn, request, params);
}

beforeEach(async () => {
  await installShop(shopA);
  await installShop(shopB);
  shopifyKnowsEachShopsOrder();
});

describe("the order's deliveries", () => {
  it("lists the order's deliveries with what each button can do, readable from the admin's origin", async () => {
    const created = await deliveryOf(shopA, ORDER_A, "created", "a1");
    const waiting = await deliveryOf(shopA, ORDER_A, "needs_address", "a2");
    const response = await call(orderLoader, shopA, "/api/orders/7001", {}, { orderId: "7001" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const body = orderDeliveriesResponse.parse(await response.json());
    expect(body.orderName).toBe("#1042");
    expect(body.send).toEqual({ possible: true, reason: null });
    const byId = new Map(body.deliveries.map((d) => [d.id, d]));
    expect(byId.get(created.id)).toMatchObject({
      stateLabel: "Created at the courier",
      courierOrderNumber: "KW0088123",
      cashToCollect: "12.500 KWD",
      problem: null,
      actions: { cancel: true, fixAddress: false, printLabel: true },
    });
    expect(byId.get(waiting.id)).toMatchObject({
      problem: "The area could not be recognised.",
      actions: { cancel: true, fixAddress: true, printLabel: false },
      fixAddressPath: "/app/address-review",
    });
  });

  it("answers 404 to shop B for shop A's order", async () => {
    await deliveryOf(shopA, ORDER_A, "created", "a1");
    const response = await call(orderLoader, shopB, "/api/orders/7001", {}, { orderId: "7001" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "No such order in this shop." });
  });

  it("says what to fix for an id that is not an order number", async () => {
    const response = await call(orderLoader, shopA, "/api/orders/abc", {}, { orderId: "abc" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Name the order by its numeric Shopify id." });
  });

  it("answers the extension's CORS preflight as the library does", async () => {
    const request = new Request(new URL("/api/orders/7001", APP_URL), {
      method: "OPTIONS",
      headers: { Origin: EXTENSION_ORIGIN, "Access-Control-Request-Headers": "authorization" },
    });
    const response = await callRoute(orderPreflight, request, { orderId: "7001" });
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
  });

  it("gives nothing to a request without a session token", async () => {
    const request = new Request(new URL("/api/orders/7001", APP_URL), {
      headers: { Origin: EXTENSION_ORIGIN },
    });
    const response = await callRoute(orderLoader, request, { orderId: "7001" });
    expect(response.status).not.toBe(200);
    expect(response.headers.get("content-type") ?? "").not.toContain("json");
  });
});

describe("cancel", () => {
  it("cancels shop A's delivery that never reached the courier", async () => {
    const delivery = await deliveryOf(shopA, ORDER_A, "needs_address", "a2");
    const response = await call(
      cancelAction,
      shopA,
      `/api/deliveries/${delivery.id}/cancel`,
      { method: "POST" },
      { id: delivery.id },
    );
    expect(response.status).toBe(200);
    expect(cancelResponse.parse(await response.json())).toEqual({ ok: true, state: "cancelled" });
    expect((await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).state).toBe(
      "cancelled",
    );
  });

  it("takes the merchant's choice for the Shopify fulfillment, and refuses one it does not know", async () => {
    const delivery = await deliveryOf(shopA, ORDER_A, "needs_address", "a2");
    const refused = await call(
      cancelAction,
      shopA,
      `/api/deliveries/${delivery.id}/cancel`,
      { method: "POST", json: { fulfillment: "maybe" } },
      { id: delivery.id },
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: 'Send {"fulfillment": "cancel"} or {"fulfillment": "keep"}.',
    });
    expect((await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).state).toBe(
      "needs_address",
    );
    const response = await call(
      cancelAction,
      shopA,
      `/api/deliveries/${delivery.id}/cancel`,
      { method: "POST", json: { fulfillment: "cancel" } },
      { id: delivery.id },
    );
    expect(response.status).toBe(200);
    const row = await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(row).toMatchObject({ state: "cancelled", cancelFulfillment: true });
  });

  it("answers 404 to shop B and leaves shop A's delivery alone", async () => {
    const delivery = await deliveryOf(shopA, ORDER_A, "needs_address", "a2");
    const response = await call(
      cancelAction,
      shopB,
      `/api/deliveries/${delivery.id}/cancel`,
      { method: "POST" },
      { id: delivery.id },
    );
    expect(response.status).toBe(404);
    const row = await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(row.state).toBe("needs_address");
    expect(row.cancelRequestedAt).toBeNull();
  });
});

describe("send", () => {
  it("refuses a body that does not name orders, saying how to name them", async () => {
    const response = await call(sendAction, shopA, "/api/send", {
      method: "POST",
      json: { orderIds: ["7001"] },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "Name orders by their Shopify id (gid://shopify/Order/…).",
    });
  });

  it("answers each order with the app's own send outcome", async () => {
    const response = await call(sendAction, shopA, "/api/send", {
      method: "POST",
      json: { orderIds: [ORDER_A] },
    });
    expect(response.status).toBe(200);
    expect(sendResponse.parse(await response.json()).outcomes).toEqual([
      {
        orderId: ORDER_A,
        orderName: null,
        ok: false,
        error: "Connect the courier in Settings first.",
        deliveryId: null,
      },
    ]);
  });

  it("tells shop A where its deliveries stand and answers 404 to shop B", async () => {
    const delivery = await deliveryOf(shopA, ORDER_A, "created", "a1");
    const path = `/api/send/status?ids=${delivery.id}`;
    const own = await call(sendStatusLoader, shopA, path);
    expect(own.status).toBe(200);
    expect(sendStatusResponse.parse(await own.json()).statuses).toEqual([
      expect.objectContaining({ deliveryId: delivery.id, progress: "created", settled: true }),
    ]);
    expect((await call(sendStatusLoader, shopB, path)).status).toBe(404);
  });
});

describe("labels", () => {
  it("prints one label per created delivery of the orders named, as HTML", async () => {
    await deliveryOf(shopA, ORDER_A, "created", "a1");
    await deliveryOf(shopA, ORDER_A, "in_transit", "a3");
    await deliveryOf(shopA, ORDER_A, "needs_address", "a2");
    const response = await call(
      labelsLoader,
      shopA,
      `/api/labels?orderIds=${encodeURIComponent(ORDER_A)}&size=4x6`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Content-Security-Policy")).toContain(
      `frame-ancestors https://${shopA} https://admin.shopify.com`,
    );
    const html = await response.text();
    expect(html.match(/<section class="label"/g)).toHaveLength(2);
    expect(html).toContain("Dar Al Abaya");
    expect(html).toContain("@page { size: 4in 6in;");
  });

  it("answers 404 to shop B, even with one of its own ids beside shop A's", async () => {
    const a = await deliveryOf(shopA, ORDER_A, "created", "a1");
    const b = await deliveryOf(shopB, ORDER_B, "created", "b1");
    const onlyA = await call(labelsLoader, shopB, `/api/labels?deliveryIds=${a.id}`);
    expect(onlyA.status).toBe(404);
    const mixed = await call(labelsLoader, shopB, `/api/labels?deliveryIds=${b.id},${a.id}`);
    expect(mixed.status).toBe(404);
    const byOrder = await call(
      labelsLoader,
      shopB,
      `/api/labels?orderIds=${encodeURIComponent(ORDER_A)}`,
    );
    expect(byOrder.status).toBe(404);
  });

  it("leaves out an order of the shop never sent to the courier, selected beside sent ones", async () => {
    // Order 7002 went to the courier; ORDER_A, which Shopify shows shop A, never did.
    await deliveryOf(shopA, "gid://shopify/Order/7002", "created", "a1");
    const response = await call(
      labelsLoader,
      shopA,
      `/api/labels?orderIds=${encodeURIComponent(`gid://shopify/Order/7002,${ORDER_A}`)}`,
    );
    expect(response.status).toBe(200);
    expect((await response.text()).match(/<section class="label"/g)).toHaveLength(1);
  });

  it("answers 404 to an order of another shop beside the shop's own", async () => {
    await deliveryOf(shopA, "gid://shopify/Order/7002", "created", "a1");
    const response = await call(
      labelsLoader,
      shopA,
      `/api/labels?orderIds=${encodeURIComponent(`gid://shopify/Order/7002,${ORDER_B}`)}`,
    );
    expect(response.status).toBe(404);
  });

  it("says why when none of the deliveries has a label yet", async () => {
    const waiting = await deliveryOf(shopA, ORDER_A, "needs_address", "a2");
    const response = await call(labelsLoader, shopA, `/api/labels?deliveryIds=${waiting.id}`);
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /once the courier has created/,
    );
  });

  it("says a delivered parcel needs no label, rather than that the courier has not created it", async () => {
    const delivered = await deliveryOf(shopA, ORDER_A, "delivered", "a3");
    const response = await call(labelsLoader, shopA, `/api/labels?deliveryIds=${delivered.id}`);
    expect(response.status).toBe(409);
    const body = (await response.json()) as { error: string };
    expect(body.error).toMatch(/delivered, returned or cancelled/);
    expect(body.error).not.toMatch(/once the courier has created/);
  });

  it("refuses a size it does not print", async () => {
    const a = await deliveryOf(shopA, ORDER_A, "created", "a1");
    const response = await call(labelsLoader, shopA, `/api/labels?deliveryIds=${a.id}&size=A4`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Choose the label size A6 or 4x6." });
  });
});
