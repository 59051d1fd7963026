import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import type { ShopperAnswer } from "../../app/domain/shopper-ask";
import type { OrderSnapshot } from "../../app/models/shopper-asks.server";
import { loader as homeLoader } from "../../app/routes/app._index";
import {
  action as answersAction,
  loader as answersLoader,
} from "../../app/routes/app.customer-answers";
import { loader as deliveryLoader } from "../../app/routes/app.deliveries.$id";
import { adminFetchRequest, APP_URL, callRoute, installShop, shopDomain } from "../support/shopify";

/**
 * Customer answers (issue 26), the merchant's side of asking the shopper: the page's tabs, the
 * customer's link, "Release now" (only this shop's asks, only while they wait), Home's figures
 * and the delivery page's card.
 */
const shop = shopDomain("customer-answers");
const other = shopDomain("someone-else");
const HOUR = 3_600_000;

const FIXED: ShopperAnswer = {
  kind: "fixed",
  governanceId: 3,
  areaId: 512,
  areaName: { en: "Salmiya", ar: "السالمية" },
  provinceCode: "KW-HA",
  parts: {
    block: "4",
    street: "12",
    avenue: null,
    house: "7",
    building: null,
    floor: null,
    apartment: null,
    paci: null,
  },
  notes: "Green door",
  phone: "+96599001234",
  latitude: 29.33,
  longitude: 48.08,
  cashConfirmed: false,
};

/** What the order said, with the customer's phone. */
const snapshotWithPhone = (phone: string): OrderSnapshot => ({
  address: {
    firstName: null,
    lastName: null,
    address1: "behind the mosque",
    address2: null,
    city: "Salmiya",
    provinceCode: "KW-HA",
    zip: null,
    countryCode: "KW",
    phone,
  },
  phone: null,
  items: [],
  cashToCollectFils: null,
  currency: "KWD",
});

let orderNumber = 5000;
/** One ask as the shopper loop leaves it. */
async function ask(
  state: string,
  extra: {
    shop?: string;
    answer?: ShopperAnswer;
    reasons?: string[];
    createdAt?: Date;
    phone?: string;
    language?: string;
  } = {},
) {
  orderNumber += 1;
  const now = Date.now();
  return prisma.shopperAsk.create({
    data: {
      shop: extra.shop ?? shop,
      orderId: `gid://shopify/Order/${orderNumber}`,
      orderName: `#${orderNumber}`,
      token: `${orderNumber}`.padStart(32, "a"),
      state,
      questions: JSON.stringify(["address"]),
      reasons: JSON.stringify(extra.reasons ?? ["block", "area_not_sure"]),
      holds: JSON.stringify([
        { fulfillmentOrderId: "gid://shopify/FulfillmentOrder/1", holdId: "h1" },
      ]),
      askedAt: state === "not_needed" ? null : new Date(now - HOUR),
      answerBy: state === "not_needed" ? null : new Date(now + 23 * HOUR),
      linkExpiresAt: new Date(now + 30 * 24 * HOUR),
      answer: extra.answer ? JSON.stringify(extra.answer) : null,
      answerSource: extra.answer ? "shopper" : null,
      answeredAt: extra.answer ? new Date(now - HOUR / 2) : null,
      createdAt: extra.createdAt ?? new Date(now - HOUR),
      customerLanguage: extra.language ?? null,
      orderSnapshot: extra.phone ? JSON.stringify(snapshotWithPhone(extra.phone)) : null,
    },
  });
}

async function page(query = "", forShop = shop) {
  const response = await callRoute(
    answersLoader,
    await adminFetchRequest(forShop, `/app/customer-answers${query}`),
  );
  expect(response.status).toBe(200);
  return response.json();
}

async function release(askId: string, forShop = shop) {
  const response = await callRoute(
    answersAction,
    await adminFetchRequest(forShop, "/app/customer-answers", {
      form: { intent: "release", askId },
    }),
  );
  return { status: response.status, body: await response.json() };
}

describe("the customer answers page", () => {
  it("lists the orders waiting for their customer first, with the link to send them", async () => {
    await installShop(shop);
    const waiting = await ask("asked");
    await ask("answered", { answer: FIXED });
    const data = await page();
    expect(data.tab).toBe("waiting");
    expect(data.rows).toHaveLength(1);
    expect(data.rows[0]).toMatchObject({
      id: waiting.id,
      orderName: waiting.orderName,
      state: "asked",
      reasons: ["block", "area_not_sure"],
      link: `${APP_URL.replace(/\/$/, "")}/tracking/${waiting.token}`,
      customer: null,
      answer: null,
    });
    expect(data.counts).toEqual({ waiting: 1, answered: 1, all: 2, notNeeded: 0 });
  });

  it("offers to send the link on WhatsApp in the customer's language while the order waits", async () => {
    await installShop(shop);
    const waiting = await ask("asked", { phone: "+965 5012 3456", language: "ar" });
    const [row] = (await page()).rows;
    const chat = new URL(row.whatsappChat);
    expect(`${chat.origin}${chat.pathname}`).toBe("https://wa.me/96550123456");
    const text = chat.searchParams.get("text")!;
    expect(text).toContain(`بخصوص طلبك ${waiting.orderName}`);
    expect(text).toContain(`/tracking/${waiting.token}`);
  });

  it("offers no WhatsApp for a landline, or once the customer answered", async () => {
    await installShop(shop);
    await ask("asked", { phone: "22223333" });
    await ask("answered", { answer: FIXED, phone: "+96550123456" });
    const rows = (await page("?tab=all")).rows;
    expect(rows).toHaveLength(2);
    expect(rows.map((row: { whatsappChat: string | null }) => row.whatsappChat)).toEqual([
      null,
      null,
    ]);
  });

  it("shows what the customer answered, the phone masked, the pin as a map link", async () => {
    await installShop(shop);
    await ask("answered", { answer: FIXED });
    const [row] = (await page("?tab=answered")).rows;
    expect(row.answer).toEqual({
      kind: "fixed",
      area: { en: "Salmiya", ar: "السالمية" },
      parts: [
        { part: "block", value: "4" },
        { part: "street", value: "12" },
        { part: "house", value: "7" },
      ],
      notes: "Green door",
      phone: "•••• •234",
      pin: "https://www.google.com/maps/search/?api=1&query=29.33,48.08",
      cashConfirmed: false,
    });
    expect(JSON.stringify(row)).not.toContain("99001234");
    expect(row.source).toBe("customer");
  });

  it("links an order to its delivery once it has one", async () => {
    await installShop(shop);
    const answered = await ask("answered", { answer: FIXED });
    const delivery = await prisma.delivery.create({
      data: {
        shop,
        orderId: answered.orderId,
        orderName: answered.orderName,
        fulfillmentId: "gid://shopify/Fulfillment/1",
        source: "webhook",
        state: "pending",
        environment: "sandbox",
        reference: "SHPFY-answers-1",
      },
    });
    const [row] = (await page("?tab=answered")).rows;
    expect(row.deliveryId).toBe(delivery.id);
  });

  it("hides orders that needed no question until the merchant asks for them", async () => {
    await installShop(shop);
    await ask("expired");
    await ask("not_needed", { reasons: [] });
    const all = await page("?tab=all");
    expect(all.rows.map((r: { state: string }) => r.state)).toEqual(["expired"]);
    expect(all.counts.notNeeded).toBe(1);
    const everything = await page("?tab=all&quiet=1");
    expect(everything.rows).toHaveLength(2);
  });

  it("never lists another shop's asks", async () => {
    await installShop(shop);
    await ask("asked", { shop: other });
    const data = await page("?tab=all");
    expect(data.rows).toEqual([]);
    expect(data.counts).toEqual({ waiting: 0, answered: 0, all: 0, notNeeded: 0 });
  });

  it("pages through a long list fifty at a time", async () => {
    await installShop(shop);
    for (let i = 0; i < 52; i += 1)
      await ask("asked", { createdAt: new Date(Date.now() - (i + 1) * 60_000) });
    const first = await page();
    expect(first.rows).toHaveLength(50);
    expect(first.hasNext).toBe(true);
    const second = await page("?page=2");
    expect(second.rows).toHaveLength(2);
    expect(second.hasNext).toBe(false);
  });
});

describe("releasing an order from the customer answers page", () => {
  it("lets a waiting order go: the holds are left for the shopper loop to release", async () => {
    await installShop(shop);
    const waiting = await ask("asked");
    const { status, body } = await release(waiting.id);
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, askId: waiting.id, orderName: waiting.orderName });
    const row = await prisma.shopperAsk.findUniqueOrThrow({ where: { id: waiting.id } });
    expect(row.state).toBe("released");
    expect(JSON.parse(row.pendingWork ?? "[]")).toEqual(["release_holds"]);
  });

  it("answers not found for another shop's ask, and leaves it waiting", async () => {
    await installShop(shop);
    const theirs = await ask("asked", { shop: other });
    const { status, body } = await release(theirs.id);
    expect(status).toBe(404);
    expect(body).toEqual({ ok: false, askId: theirs.id, error: "not_found" });
    expect((await prisma.shopperAsk.findUniqueOrThrow({ where: { id: theirs.id } })).state).toBe(
      "asked",
    );
  });

  it("says an order no longer waits when it was answered meanwhile", async () => {
    await installShop(shop);
    const answered = await ask("answered", { answer: FIXED });
    const { status, body } = await release(answered.id);
    expect(status).toBe(409);
    expect(body.error).toBe("not_waiting");
    expect((await prisma.shopperAsk.findUniqueOrThrow({ where: { id: answered.id } })).state).toBe(
      "answered",
    );
  });

  it("refuses a form that names no ask", async () => {
    await installShop(shop);
    const response = await callRoute(
      answersAction,
      await adminFetchRequest(shop, "/app/customer-answers", { form: { intent: "release" } }),
    );
    expect(response.status).toBe(400);
  });

  it("needs a session token", async () => {
    const waiting = await ask("asked");
    const response = await callRoute(
      answersAction,
      new Request(new URL("/app/customer-answers", APP_URL), {
        method: "POST",
        body: new URLSearchParams({ intent: "release", askId: waiting.id }),
      }),
    );
    expect(response.status).toBe(302);
    expect((await prisma.shopperAsk.findUniqueOrThrow({ where: { id: waiting.id } })).state).toBe(
      "asked",
    );
  });
});

describe("customer answers elsewhere in the admin", () => {
  it("counts on Home the orders waiting, answered and not answered in the last 30 days", async () => {
    await installShop(shop);
    // Asking about doubtful addresses is on by default.
    await prisma.shopSettings.create({ data: { shop } });
    await ask("asked");
    await ask("asked");
    await ask("answered", { answer: FIXED });
    await ask("expired");
    await ask("asked", { shop: other });
    const old = await ask("answered", { answer: FIXED });
    await prisma.shopperAsk.update({
      where: { id: old.id },
      data: { answeredAt: new Date(Date.now() - 40 * 24 * HOUR) },
    });
    const home = await (await callRoute(homeLoader, await adminFetchRequest(shop, "/app"))).json();
    expect(home.customerAnswers).toEqual({ waiting: 2, answered: 1, noAnswer: 1, asking: true });
  });

  it("shows the customer's answer and link on the order's delivery page", async () => {
    await installShop(shop);
    const answered = await ask("answered", { answer: FIXED });
    const delivery = await prisma.delivery.create({
      data: {
        shop,
        orderId: answered.orderId,
        orderName: answered.orderName,
        fulfillmentId: "gid://shopify/Fulfillment/2",
        source: "webhook",
        state: "pending",
        environment: "sandbox",
        reference: "SHPFY-answers-2",
      },
    });
    const response = await callRoute(
      deliveryLoader,
      await adminFetchRequest(shop, `/app/deliveries/${delivery.id}`),
      { id: delivery.id },
    );
    const data = await response.json();
    expect(data.customerAnswer).toMatchObject({
      state: "answered",
      link: expect.stringContaining(`/tracking/${answered.token}`),
      answer: { kind: "fixed", notes: "Green door", phone: "•••• •234" },
    });
  });

  it("shows no card on a delivery whose order needed no question", async () => {
    await installShop(shop);
    const quiet = await ask("not_needed", { reasons: [] });
    const delivery = await prisma.delivery.create({
      data: {
        shop,
        orderId: quiet.orderId,
        fulfillmentId: "gid://shopify/Fulfillment/3",
        source: "webhook",
        state: "pending",
        environment: "sandbox",
        reference: "SHPFY-answers-3",
      },
    });
    const response = await callRoute(
      deliveryLoader,
      await adminFetchRequest(shop, `/app/deliveries/${delivery.id}`),
      { id: delivery.id },
    );
    expect((await response.json()).customerAnswer).toBeNull();
  });
});
