import { API_KEY, API_SECRET_KEY, getJwt } from "@shopify/shopify-api/test-helpers";
import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { recordOrderToCheck, type OrderSnapshot } from "../../app/models/shopper-asks.server";
import { action, loader } from "../../app/routes/api.shopper.orders.$orderId";
import { receiveOrder } from "../../app/shopper/order-intake.server";
import { ordersCreatePayload } from "../../app/shopify/webhook-payloads";
import { APP_URL, callRoute, shopDomain } from "../support/shopify";

// The shopper's blocks' endpoint, with session tokens signed by the app's secret as Shopify signs
// a checkout's or a customer account's: the shop comes from the token, the order must be that
// shop's, and its confirmation number proves the caller is its shopper.

const shop = shopDomain("dar-al-abaya");
const otherShop = shopDomain("other-boutique");
const ORDER = "gid://shopify/Order/7001";
const CONFIRMATION = "F3KQ7ZP1X";
const DAY = 24 * 3_600_000;

const snapshot = (confirmationNumber: string | null): OrderSnapshot => ({
  address: {
    firstName: "Hessa",
    lastName: "Al-Ajmi",
    address1: "Block 4, Street 12, House 7",
    address2: null,
    city: "Salwa",
    provinceCode: "KW-HA",
    zip: null,
    countryCode: "KW",
    phone: "+96599001234",
  },
  phone: null,
  items: [{ title: "Abaya", quantity: 1 }],
  cashToCollectFils: 24_500,
  currency: "KWD",
  confirmationNumber,
});

/** An order of `forShop` whose address the app asked its shopper about. */
async function askedOrder(forShop: string, confirmation: string | null = CONFIRMATION) {
  const at = new Date();
  await recordOrderToCheck({
    shop: forShop,
    orderId: ORDER,
    orderName: "#1001",
    customerLanguage: "ar",
    snapshot: snapshot(confirmation),
    at,
    linkExpiresAt: new Date(at.getTime() + 30 * DAY),
  });
  return prisma.shopperAsk.update({
    where: { shop_orderId: { shop: forShop, orderId: ORDER } },
    data: {
      state: "asked",
      questions: JSON.stringify(["address"]),
      reasons: JSON.stringify(["area_not_sure"]),
    },
  });
}

/** A session token as Shopify gives a checkout extension: `dest` is the shop's domain. */
async function tokenFor(forShop: string, secret = API_SECRET_KEY) {
  const { token } = await getJwt(forShop, API_KEY, secret, { dest: forShop, sub: undefined });
  return token;
}

async function ask(
  token: string | null,
  { order = "7001", confirmation = CONFIRMATION, surface = "thank-you" } = {},
) {
  const url = new URL(`/api/shopper/orders/${order}`, APP_URL);
  url.search = new URLSearchParams({ confirmation, surface }).toString();
  const headers: Record<string, string> = { Origin: "https://checkout.shopify.com" };
  if (token) headers.Authorization = `Bearer ${token}`;
  return callRoute(loader, new Request(url, { headers }), { orderId: order });
}

describe("GET /api/shopper/orders/:orderId", () => {
  it("gives the order's shopper the open question and their link", async () => {
    const row = await askedOrder(shop);
    const response = await ask(await tokenFor(shop));
    expect(response.status).toBe(200);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(await response.json()).toEqual({
      ask: {
        checking: false,
        open: true,
        questions: ["address"],
        link: `${APP_URL}/tracking/${row.token}`,
      },
      delivery: null,
    });
  });

  it("gives the order status page the delivery's status and tracking link", async () => {
    await askedOrder(shop);
    await prisma.shopperAsk.update({
      where: { shop_orderId: { shop, orderId: ORDER } },
      data: { state: "answered" },
    });
    const delivery = await prisma.delivery.create({
      data: {
        shop,
        orderId: ORDER,
        orderName: "#1001",
        source: "webhook",
        state: "in_transit",
        environment: "sandbox",
        reference: "SHPFY-dar-al-abaya-1001",
        courierOrderNumber: "KW000001001",
      },
    });
    const response = await ask(await tokenFor(shop), { surface: "order-status" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ask: { checking: false, open: false, questions: [], link: null },
      delivery: {
        status: "in_transit",
        expectedDay: null,
        trackingLink: `${APP_URL}/tracking/${delivery.trackingToken}`,
      },
    });
  });

  it("gives another shop's token nothing of this shop's order", async () => {
    await askedOrder(shop);
    const response = await ask(await tokenFor(otherShop));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ask: null, delivery: null });
  });

  it("answers the other shop's own order with its own link only", async () => {
    await askedOrder(shop);
    const theirs = await askedOrder(otherShop);
    const body = (await (await ask(await tokenFor(otherShop))).json()) as {
      ask: { link: string };
    };
    expect(body.ask.link).toBe(`${APP_URL}/tracking/${theirs.token}`);
  });

  it("gives nothing without the order's confirmation number", async () => {
    await askedOrder(shop);
    const response = await ask(await tokenFor(shop), { confirmation: "WRONG1234" });
    expect(await response.json()).toEqual({ ask: null, delivery: null });
  });

  it("gives nothing for an order kept before confirmation numbers were", async () => {
    await askedOrder(shop, null);
    const response = await ask(await tokenFor(shop));
    expect(await response.json()).toEqual({ ask: null, delivery: null });
  });

  it("answers an unknown order with nothing to show", async () => {
    await askedOrder(shop);
    const response = await ask(await tokenFor(shop), { order: "9999" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ask: null, delivery: null });
  });

  it("says the app is still checking an order it has just received", async () => {
    await recordOrderToCheck({
      shop,
      orderId: ORDER,
      orderName: "#1001",
      customerLanguage: "en",
      snapshot: snapshot(CONFIRMATION),
      at: new Date(),
      linkExpiresAt: new Date(Date.now() + DAY),
    });
    const body = (await (await ask(await tokenFor(shop))).json()) as { ask: unknown };
    expect(body.ask).toEqual({ checking: true, open: false, questions: [], link: null });
  });

  it("knows the order by the confirmation number orders/create brought", async () => {
    const payload = ordersCreatePayload.parse({
      admin_graphql_api_id: ORDER,
      name: "#1001",
      confirmation_number: CONFIRMATION,
      currency: "KWD",
      shipping_address: { address1: "Block 4, Street 12", city: "Salwa", country_code: "KW" },
      line_items: [{ title: "Abaya", quantity: 1 }],
    });
    expect(await receiveOrder(shop, payload)).toBe(true);
    const body = (await (await ask(await tokenFor(shop))).json()) as { ask: { checking: boolean } };
    expect(body.ask.checking).toBe(true);
  });

  it("refuses a request without a session token with 401", async () => {
    await askedOrder(shop);
    const response = await ask(null);
    expect(response.status).toBe(401);
  });

  it("refuses a session token signed with another secret with 401", async () => {
    await askedOrder(shop);
    const response = await ask(await tokenFor(shop, "not-the-app-secret"));
    expect(response.status).toBe(401);
  });

  it("refuses a correctly signed token whose dest is not a shop with 401", async () => {
    const { token } = await getJwt(shop, API_KEY, API_SECRET_KEY, {
      dest: "https://evil.example",
    });
    expect((await ask(token)).status).toBe(401);
  });

  it("refuses an order named other than by its numeric id", async () => {
    const response = await ask(await tokenFor(shop), { order: "gid:7001" });
    expect(response.status).toBe(400);
  });

  it("answers the CORS preflight without a token", async () => {
    const request = new Request(new URL("/api/shopper/orders/7001", APP_URL), {
      method: "OPTIONS",
      headers: { Origin: "null", "Access-Control-Request-Headers": "authorization" },
    });
    const response = await callRoute(action, request, { orderId: "7001" });
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
  });
});
