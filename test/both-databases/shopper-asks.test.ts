import { describe, expect, it } from "vitest";
import { answerOnShopperPage, releaseShopperAsk } from "../../app/actions/shopper-answer.server";
import { redactCustomer } from "../../app/models/privacy.server";
import { shopperPage } from "../../app/shopper/page.server";
import { normalizeArabic } from "../../app/addresses";
import prisma from "../../app/db.server";
import { loadCourierDirectory } from "../../app/services/courier-directory.server";
import { unauthenticated } from "../../app/shopify.server";
import { runDueAsks } from "../../app/shopper/ask-loop.server";
import { receiveOrder } from "../../app/shopper/order-intake.server";
import { ordersCreatePayload } from "../../app/shopify/webhook-payloads";
import { adminApi, type AdminCall } from "../support/admin-api";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import { readyShop } from "../support/pipeline";
import { shopDomain } from "../support/shopify";

/**
 * Asking the shopper (issue 26), from the order's arrival to the answer carried out in Shopify,
 * on both databases. Shopify's side is the Admin API stand-in: its calls are the record of what
 * the app asked Shopify to do.
 */
const shop = shopDomain("shopper-asks");
setUpCourierSandbox();

const ORDER = "gid://shopify/Order/4401";
const FULFILLMENT_ORDERS = [
  "gid://shopify/FulfillmentOrder/91",
  "gid://shopify/FulfillmentOrder/92",
];

function order(
  address: { address1: string; city: string; province_code?: string },
  extra: Record<string, unknown> = {},
) {
  return ordersCreatePayload.parse({
    admin_graphql_api_id: ORDER,
    name: "#4401",
    phone: "+96599001234",
    customer_locale: "ar",
    currency: "KWD",
    financial_status: "paid",
    total_outstanding: "0.000",
    shipping_address: {
      first_name: "Fatima",
      last_name: "Al-Sabah",
      address2: null,
      zip: null,
      country_code: "KW",
      phone: "+96599001234",
      province_code: "KW-HA",
      ...address,
    },
    line_items: [{ title: "Abaya", quantity: 1 }],
    ...extra,
  });
}

const SURE = { address1: "Block 10, Street 5, House 12", city: "Salmiya" };
const NO_BLOCK = { address1: "near the co-op, behind the mosque", city: "Salmiya" };

/** Shopify's side: the order's fulfillment orders, holds placed and released, the order written. */
function programShopify({ refuseHolds = false } = {}) {
  let holdCount = 0;
  adminApi
    .on("ShopperAskShopName", () => ({ data: { shop: { name: "Dar Al Abaya" } } }))
    .on("ShopperAskFulfillmentOrders", () => ({
      data: {
        order: {
          id: ORDER,
          fulfillmentOrders: {
            nodes: FULFILLMENT_ORDERS.map((id) => ({ id, status: "OPEN", fulfillmentHolds: [] })),
          },
        },
      },
    }))
    .on("ShopperAskHold", () =>
      refuseHolds
        ? {
            data: {
              fulfillmentOrderHold: {
                fulfillmentHold: null,
                userErrors: [
                  { field: ["id"], message: "Fulfillment order is not in an open state." },
                ],
              },
            },
          }
        : {
            data: {
              fulfillmentOrderHold: {
                fulfillmentHold: {
                  id: `gid://shopify/FulfillmentHold/${(holdCount += 1)}`,
                  handle: "courier-shopper-ask",
                },
                userErrors: [],
              },
            },
          },
    )
    .on("ShopperAskRelease", (variables) => ({
      data: {
        fulfillmentOrderReleaseHold: {
          fulfillmentOrder: { id: variables.id, status: "OPEN" },
          userErrors: [],
        },
      },
    }))
    .on("ShopperAskOrderUpdate", () => ({
      data: { orderUpdate: { order: { id: ORDER }, userErrors: [] } },
    }));
}

const calls = (name: string): AdminCall[] => adminApi.callsTo(name);

function loop(now = new Date()) {
  return runDueAsks({
    owner: "test-loop",
    adminFor: async (s) => (await unauthenticated.admin(s)).admin,
    now: () => now,
  });
}

async function theAsk() {
  return prisma.shopperAsk.findUniqueOrThrow({ where: { shop_orderId: { shop, orderId: ORDER } } });
}

async function askedOrder(address = NO_BLOCK) {
  await readyShop(shop);
  programShopify();
  await receiveOrder(shop, order(address));
  await loop();
  return theAsk();
}

/** The area the page offers for Salmiya, as the shopper picks it. */
async function salmiya() {
  const directory = (await loadCourierDirectory(shop, "sandbox"))!;
  const area = directory.areas.find(
    (a) => normalizeArabic(a.name) === normalizeArabic("السالمية"),
  )!;
  return { areaId: area.id, governanceId: area.governanceId };
}

describe("asking the shopper about a new order", () => {
  it("asks nothing when the address is placed surely and has what the courier needs", async () => {
    await readyShop(shop);
    programShopify();
    await receiveOrder(shop, order(SURE));
    await loop();
    expect((await theAsk()).state).toBe("not_needed");
    expect(calls("ShopperAskHold")).toHaveLength(0);
  });

  it("holds every open fulfillment order of an address without a block, as an incorrect address", async () => {
    const ask = await askedOrder();
    expect(ask.state).toBe("asked");
    const holds = calls("ShopperAskHold");
    expect(holds.map((c) => c.variables.id)).toEqual(FULFILLMENT_ORDERS);
    expect(holds[0]!.variables.fulfillmentHold).toMatchObject({
      reason: "INCORRECT_ADDRESS",
      handle: "courier-shopper-ask",
      notifyMerchant: false,
      // Staff read on the order what is missing, not only that the app waits.
      reasonNotes: expect.stringContaining(
        "the block and the street, house or building number are missing",
      ),
    });
    expect(JSON.parse(ask.reasons!)).toEqual(["block_and_street_or_house"]);
    expect(ask.answerBy!.getTime() - ask.askedAt!.getTime()).toBe(24 * 3_600_000);
  });

  it("records an order once however often Shopify sends it", async () => {
    await readyShop(shop);
    expect(await receiveOrder(shop, order(NO_BLOCK))).toBe(true);
    expect(await receiveOrder(shop, order(NO_BLOCK))).toBe(false);
    expect(await prisma.shopperAsk.count({ where: { shop } })).toBe(1);
  });

  it("asks a cash-on-delivery customer to confirm when the merchant wants it, with a note for staff", async () => {
    await readyShop(shop);
    await prisma.shopSettings.update({ where: { shop }, data: { askCashConfirmation: true } });
    programShopify();
    await receiveOrder(
      shop,
      order(SURE, { financial_status: "pending", total_outstanding: "36.500" }),
    );
    await loop();
    const ask = await theAsk();
    expect(ask.state).toBe("asked");
    expect(JSON.parse(ask.questions!)).toEqual(["cash"]);
    expect(calls("ShopperAskHold")[0]!.variables.fulfillmentHold).toMatchObject({
      reason: "OTHER",
      reasonNotes: expect.stringMatching(/cash on delivery/),
    });
  });

  it("asks nothing when the merchant turned asking off", async () => {
    await readyShop(shop);
    await prisma.shopSettings.update({ where: { shop }, data: { askShoppers: false } });
    programShopify();
    await receiveOrder(shop, order(NO_BLOCK));
    await loop();
    expect((await theAsk()).state).toBe("not_needed");
  });

  it("goes today's way when Shopify refuses the hold", async () => {
    await readyShop(shop);
    programShopify({ refuseHolds: true });
    await receiveOrder(shop, order(NO_BLOCK));
    await loop();
    const ask = await theAsk();
    expect(ask.state).toBe("not_held");
    expect(ask.lastError).toMatch(/not in an open state/);
  });
});

describe("the shopper's answer", () => {
  it("writes the corrected address and its parts to the order, then releases the holds", async () => {
    const ask = await askedOrder();
    const area = await salmiya();
    const outcome = await answerOnShopperPage(ask.token, {
      intent: "fix",
      areaId: String(area.areaId),
      block: "3",
      street: "12",
      house: "7",
      notes: "Green door",
    });
    expect(outcome).toEqual({ ok: true });
    await loop();
    const update = calls("ShopperAskOrderUpdate")[0]!.variables.input as {
      shippingAddress: { address1: string; city: string; provinceCode: string };
      metafields: { key: string; value: string }[];
    };
    expect(update.shippingAddress).toMatchObject({
      address1: "Block 3, Street 12, House 7",
      city: "Salmiya",
      provinceCode: "KW-HA",
    });
    expect(update.metafields).toContainEqual(
      expect.objectContaining({ namespace: "courier", key: "block", value: "3" }),
    );
    expect(
      calls("ShopperAskRelease")
        .map((c) => c.variables.id)
        .sort(),
    ).toEqual(FULFILLMENT_ORDERS);
    const after = await theAsk();
    expect(after.state).toBe("answered");
    expect(JSON.parse(after.pendingWork!)).toEqual([]);
  });

  it("writes the order before releasing its holds, so staff fulfil with the answer on it", async () => {
    const ask = await askedOrder();
    const area = await salmiya();
    await answerOnShopperPage(ask.token, {
      intent: "fix",
      areaId: String(area.areaId),
      block: "3",
      street: "12",
    });
    await loop();
    const order = adminApi.calls.map((c) => c.operationName);
    expect(order.indexOf("ShopperAskOrderUpdate")).toBeLessThan(order.indexOf("ShopperAskRelease"));
  });

  it("refuses a fix without a block, saying which field, and writes nothing", async () => {
    const ask = await askedOrder();
    const area = await salmiya();
    const outcome = await answerOnShopperPage(ask.token, {
      intent: "fix",
      areaId: String(area.areaId),
      street: "12",
    });
    expect(outcome).toEqual({ ok: false, errors: { block: "block_missing" } });
    expect((await theAsk()).state).toBe("asked");
  });

  it("remembers the shopper's area for the spelling they had typed", async () => {
    const ask = await askedOrder({ address1: "Blk 3 st 12 house 7", city: "Slmeya" });
    const area = await salmiya();
    await answerOnShopperPage(ask.token, {
      intent: "fix",
      areaId: String(area.areaId),
      block: "3",
      street: "12",
    });
    await loop();
    const remembered = await prisma.areaOverride.findMany({ where: { shop } });
    expect(remembered.map((r) => r.area)).toEqual(["Salmiya"]);
  });

  it("is refused once a parcel of the order was picked up", async () => {
    const ask = await askedOrder();
    await prisma.delivery.create({
      data: {
        shop,
        orderId: ORDER,
        fulfillmentId: "gid://shopify/Fulfillment/1",
        source: "webhook",
        state: "picked_up",
        environment: "sandbox",
        reference: "SHPFY-ask-1",
      },
    });
    const outcome = await answerOnShopperPage(ask.token, { intent: "cash", cashConfirmed: "on" });
    expect(outcome).toEqual({ ok: false, refusal: "picked_up" });
  });

  it("cannot be given through a link that names no order", async () => {
    await askedOrder();
    const outcome = await answerOnShopperPage("0".repeat(32), {
      intent: "cash",
      cashConfirmed: "on",
    });
    expect(outcome).toEqual({ ok: false, refusal: "not_found" });
  });
});

describe("an order nobody answers for", () => {
  it("is released when the merchant's window ends", async () => {
    const ask = await askedOrder();
    await loop(new Date(ask.answerBy!.getTime() + 1_000));
    expect((await theAsk()).state).toBe("expired");
    expect(calls("ShopperAskRelease")).toHaveLength(FULFILLMENT_ORDERS.length);
  });

  it("is released at once when the merchant lets it go", async () => {
    const ask = await askedOrder();
    expect(await releaseShopperAsk(shop, ask.id)).toBe(true);
    await loop();
    expect((await theAsk()).state).toBe("released");
    expect(calls("ShopperAskRelease")).toHaveLength(FULFILLMENT_ORDERS.length);
  });
});

describe("the customer's data on an ask", () => {
  it("is erased by customers/redact: what the order said and what the customer answered", async () => {
    const ask = await askedOrder();
    const area = await salmiya();
    await answerOnShopperPage(ask.token, {
      intent: "fix",
      areaId: String(area.areaId),
      block: "3",
      street: "12",
      notes: "Green door",
    });
    await redactCustomer({ shop, webhookId: "redact-1", orderIds: ["4401"] });
    const erased = await theAsk();
    expect(erased.orderSnapshot).toBeNull();
    expect(erased.answer).toBeNull();
    // The customer's link (sent by message or Flow) no longer opens a page or takes an answer.
    expect(await shopperPage(ask.token)).toBeNull();
    expect(await answerOnShopperPage(ask.token, { intent: "confirm" })).toMatchObject({
      ok: false,
    });
  });
});
