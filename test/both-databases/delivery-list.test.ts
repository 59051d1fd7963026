import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { redactCustomer } from "../../app/models/privacy.server";
import { getDashboard } from "../../app/models/read/dashboard.server";
import {
  listDeliveryPage,
  SEARCH_LIMIT,
  type ListQuery,
} from "../../app/models/read/delivery-list.server";
import { listQueryOf, readListParams } from "../../app/models/read/delivery-list-params";
import { testDatabaseName } from "../support/database";
import { shopDomain } from "../support/shopify";

/**
 * The deliveries list and the dashboard (ADR 0041) against the test file's database, SQLite or
 * PostgreSQL: keyset pages that neither skip nor repeat a row, tabs, filters, search on the
 * fields the migration's trigger reads from the courier request, and the dashboard's figures.
 */
const database = testDatabaseName();
const shop = shopDomain("list");
const other = shopDomain("list-other");
const HOUR = 3_600_000;
const now = new Date("2026-11-25T09:00:00Z"); // 12:00 in Kuwait

let n = 0;
async function delivery(
  fields: {
    state?: string;
    createdAt?: Date;
    name?: string;
    phone?: string;
    areaId?: number;
    governanceId?: number;
    cash?: string | null;
    lastMovedAt?: Date | null;
    trackingPushedAt?: Date | null;
    courierOrderNumber?: string | null;
    shop?: string;
  } = {},
) {
  n += 1;
  const request =
    fields.name === undefined
      ? null
      : JSON.stringify({
          deliveryAddress: {
            governanceId: fields.governanceId ?? 1,
            areaId: fields.areaId ?? 10,
            contactName: fields.name,
            contactPhone: fields.phone ?? "99990000",
          },
        });
  return prisma.delivery.create({
    data: {
      shop: fields.shop ?? shop,
      orderId: `gid://shopify/Order/${n}`,
      orderName: `#${1000 + n}`,
      fulfillmentId: `gid://shopify/Fulfillment/${n}`,
      source: "webhook",
      state: fields.state ?? "delivered",
      environment: "sandbox",
      reference: `SHPFY-list-${n}`,
      request,
      cashToCollect: fields.cash ?? null,
      courierOrderNumber: fields.courierOrderNumber ?? null,
      lastMovedAt: fields.lastMovedAt ?? null,
      trackingPushedAt: fields.trackingPushedAt ?? null,
      createdAt: fields.createdAt ?? new Date(now.getTime() - n * 60_000),
    },
  });
}

const page = (query: Partial<ListQuery>) => listDeliveryPage({ shop, now, ...query });

describe(`the deliveries list (${database})`, () => {
  it("pages through every row once, newest first, forwards and back, with ties on the creation time", async () => {
    const same = new Date(now.getTime() - 10 * HOUR);
    for (let i = 0; i < 7; i += 1) await delivery({ createdAt: i < 4 ? same : undefined });
    await delivery({ shop: other });
    const seen: string[] = [];
    let result = await page({ pageSize: 3 });
    expect(result.previous).toBeNull();
    const pages = [result];
    seen.push(...result.rows.map((r) => r.id));
    while (result.next) {
      result = await page({ pageSize: 3, after: result.next });
      pages.push(result);
      seen.push(...result.rows.map((r) => r.id));
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    const all = await prisma.delivery.findMany({
      where: { shop },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    expect(seen).toEqual(all.map((d) => d.id));
    // Back from the last page gives the page before it.
    const back = await page({ pageSize: 3, before: pages[2]!.previous! });
    expect(back.rows.map((r) => r.id)).toEqual(pages[1]!.rows.map((r) => r.id));
    const oldest = await page({ pageSize: 10, sort: "oldest" });
    expect(oldest.rows.map((r) => r.id)).toEqual([...seen].reverse());
  });

  it("shows each tab's states, and stuck parcels under Needs attention", async () => {
    await delivery({ state: "rejected" });
    await delivery({ state: "returned" });
    await delivery({ state: "failed" });
    await delivery({ state: "cancelled" });
    await delivery({ state: "skipped" });
    await delivery({ state: "out_for_delivery", trackingPushedAt: now, lastMovedAt: now });
    const stuck = await delivery({
      state: "in_transit",
      trackingPushedAt: new Date(now.getTime() - 100 * HOUR),
      lastMovedAt: new Date(now.getTime() - 90 * HOUR),
    });
    await delivery({ state: "pending" });
    const states = async (tab: ListQuery["tab"]) =>
      (await page({ tab })).rows.map((r) => r.state).sort();
    expect(await states("attention")).toEqual(["failed", "in_transit", "rejected"]);
    expect((await page({ tab: "attention" })).rows.map((r) => r.id)).toContain(stuck.id);
    expect(await states("failed_returned")).toEqual(["failed", "returned"]);
    expect(await states("cancelled")).toEqual(["cancelled", "skipped"]);
    expect(await states("in_progress")).toEqual(["in_transit", "pending"]);
    expect(await states("out_for_delivery")).toEqual(["out_for_delivery"]);
    expect(await states("all")).toHaveLength(8);
    expect(
      (await page({ tab: "in_progress", filters: { states: ["pending"] } })).rows.map(
        (r) => r.state,
      ),
    ).toEqual(["pending"]);
  });

  it("filters by place, cash on delivery and creation date", async () => {
    await delivery({ name: "A One", areaId: 11, governanceId: 2, cash: "5.250" });
    await delivery({ name: "B Two", areaId: 12, governanceId: 2 });
    await delivery({ name: "C Three", areaId: 31, governanceId: 3, cash: "1.000" });
    const old = await delivery({ name: "D Four", createdAt: new Date("2026-10-01T10:00:00Z") });
    expect((await page({ filters: { governanceId: 2 } })).rows.map((r) => r.customerName)).toEqual([
      "A One",
      "B Two",
    ]);
    expect((await page({ filters: { areaId: 31 } })).rows.map((r) => r.customerName)).toEqual([
      "C Three",
    ]);
    expect(
      (await page({ filters: { cod: "cod" } })).rows.map((r) => r.customerName).sort(),
    ).toEqual(["A One", "C Three"]);
    expect(
      (await page({ filters: { cod: "prepaid", governanceId: 2 } })).rows.map(
        (r) => r.customerName,
      ),
    ).toEqual(["B Two"]);
    const inOctober = await page({
      filters: { from: new Date("2026-09-30T21:00:00Z"), to: new Date("2026-10-31T21:00:00Z") },
    });
    expect(inOctober.rows.map((r) => r.id)).toEqual([old.id]);
  });

  it("lists what finished on a Kuwait day (Home's links), whatever day it was created", async () => {
    const day = listQueryOf(shop, readListParams(new URLSearchParams("finished=2026-11-25")), now)
      .filters!.finished!;
    const created = new Date("2026-11-01T10:00:00Z");
    // Delivered at 00:30 in Kuwait on the 25th (21:30 UTC on the 24th), created weeks before.
    const early = await delivery({
      name: "Early",
      createdAt: created,
      lastMovedAt: new Date("2026-11-24T21:30:00Z"),
    });
    const returned = await delivery({
      name: "Back",
      state: "returned",
      lastMovedAt: new Date("2026-11-25T08:00:00Z"),
    });
    // The evening before in Kuwait, and a delivered one of another shop that same day.
    await delivery({ name: "Before", lastMovedAt: new Date("2026-11-24T20:59:00Z") });
    await delivery({ name: "Other", shop: other, lastMovedAt: new Date("2026-11-25T08:00:00Z") });
    await delivery({
      name: "Moving",
      state: "in_transit",
      lastMovedAt: new Date("2026-11-25T08:00:00Z"),
    });

    const delivered = await page({ tab: "delivered", filters: { finished: day } });
    expect(delivered.rows.map((r) => r.id)).toEqual([early.id]);
    expect(delivered.finishedTruncated).toBe(false);
    const failedOrReturned = await page({ tab: "failed_returned", filters: { finished: day } });
    expect(failedOrReturned.rows.map((r) => r.id)).toEqual([returned.id]);
    const all = await page({ filters: { finished: day } });
    expect(all.rows.map((r) => r.customerName).sort()).toEqual(["Back", "Early", "Moving"]);
  });

  it("finds a delivery by order number, courier number, phone, either name, in either script", async () => {
    const ahmed = await delivery({ name: "Ahmed Al-Mutairi", phone: "51234567" });
    const fatima = await delivery({
      name: "فاطمة الرشيدي",
      phone: "66001122",
      courierOrderNumber: "KW000777",
    });
    await delivery({ name: "Someone Else", phone: "99887766", shop: other });
    const found = async (q: string) => (await page({ search: q })).rows.map((r) => r.id);
    expect(await found("ahmed")).toEqual([ahmed.id]);
    expect(await found("AL-MUT")).toEqual([ahmed.id]);
    expect(await found("فاطمه")).toEqual([fatima.id]);
    expect(await found("الرشيدي")).toEqual([fatima.id]);
    expect(await found("6600")).toEqual([fatima.id]);
    expect(await found("+965 5123 4567")).toEqual([ahmed.id]);
    expect(await found("٥١٢٣")).toEqual([ahmed.id]);
    expect(await found("KW000777")).toEqual([fatima.id]);
    expect(await found(ahmed.orderName!.slice(1))).toEqual([ahmed.id]);
    expect(await found(ahmed.orderName!)).toEqual([ahmed.id]);
    expect(await found("99887766")).toEqual([]);
    expect(await found("Mutairi")).toEqual([]);
  });

  it("says when a search key matches more than it reads", async () => {
    const rows = Array.from({ length: SEARCH_LIMIT + 1 }, (_, i) => ({
      shop,
      orderId: `gid://shopify/Order/9${i}`,
      orderName: `#9${i}`,
      fulfillmentId: `gid://shopify/Fulfillment/9${i}`,
      source: "webhook",
      state: "delivered",
      environment: "sandbox",
      reference: `SHPFY-many-${i}`,
      request: JSON.stringify({
        deliveryAddress: { contactName: "Same Name", contactPhone: "1" },
      }),
    }));
    await prisma.delivery.createMany({ data: rows });
    const result = await page({ search: "same", pageSize: 10 });
    expect(result.searchTruncated).toBe(true);
    expect(result.rows).toHaveLength(10);
  });

  it("keeps the list fields in step with the request, and erases them with the customer", async () => {
    const d = await delivery({
      name: "Mariam Haddad",
      phone: "55500011",
      areaId: 44,
      governanceId: 4,
    });
    const row = await prisma.delivery.findUniqueOrThrow({ where: { id: d.id } });
    expect([
      row.customerName,
      row.customerPhone,
      row.nameKey,
      row.nameKey2,
      row.areaId,
      row.governanceId,
    ]).toEqual(["Mariam Haddad", "55500011", "mariam haddad", "haddad", 44, 4]);
    await prisma.delivery.update({ where: { id: d.id }, data: { request: "not json" } });
    const broken = await prisma.delivery.findUniqueOrThrow({ where: { id: d.id } });
    expect([broken.customerName, broken.areaId]).toEqual([null, null]);
    await prisma.delivery.update({
      where: { id: d.id },
      data: {
        request: JSON.stringify({
          deliveryAddress: {
            contactName: "Mariam Haddad",
            contactPhone: "55500011",
            areaId: 44,
            governanceId: 4,
          },
        }),
      },
    });
    await redactCustomer({
      shop,
      orderIds: [d.orderId.split("/").pop()!],
      customerId: "1",
      webhookId: "w1",
    });
    const erased = await prisma.delivery.findUniqueOrThrow({ where: { id: d.id } });
    expect([erased.customerName, erased.customerPhone, erased.nameKey, erased.nameKey2]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(erased.areaId).toBe(44);
  });

  it("erases the customer a delivery waiting for its address keeps without a request", async () => {
    // The worker writes these columns itself for a delivery without a request (issue 29); the
    // erasure's write of the request clears them through the same trigger.
    const d = await delivery({ state: "needs_address" });
    await prisma.delivery.update({
      where: { id: d.id },
      data: {
        customerName: "Noura Al-Ali",
        customerPhone: "55500012",
        nameKey: "noura al-ali",
        nameKey2: "al-ali",
      },
    });
    const found = await page({ search: "al-ali" });
    expect(found.rows.map((r) => r.id)).toEqual([d.id]);
    await redactCustomer({
      shop,
      orderIds: [d.orderId.split("/").pop()!],
      customerId: "2",
      webhookId: "w2",
    });
    const erased = await prisma.delivery.findUniqueOrThrow({ where: { id: d.id } });
    expect([erased.customerName, erased.customerPhone, erased.nameKey, erased.nameKey2]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });
});

describe(`the dashboard (${database})`, () => {
  it("counts today's work and outcomes, cash in fils, and 14 days of outcomes with the median time", async () => {
    const today = new Date("2026-11-25T06:00:00Z"); // 09:00 Kuwait
    const yesterday = new Date("2026-11-24T20:00:00Z"); // 23:00 Kuwait, the day before
    await delivery({ state: "pending", cash: "2.500" });
    await delivery({ state: "ready" });
    await delivery({ state: "rejected" });
    await delivery({ state: "created", cash: "1.125" });
    await delivery({ state: "out_for_delivery" });
    await delivery({
      state: "delivered",
      cash: "10.000",
      lastMovedAt: today,
      createdAt: new Date(today.getTime() - 2 * HOUR),
    });
    await delivery({
      state: "delivered",
      cash: "3.000",
      lastMovedAt: yesterday,
      createdAt: new Date(yesterday.getTime() - 4 * HOUR),
    });
    await delivery({ state: "returned", lastMovedAt: today });
    await delivery({ state: "delivered", lastMovedAt: new Date("2026-10-01T10:00:00Z") });
    await delivery({ state: "delivered", lastMovedAt: today, shop: other });
    const d = await getDashboard(shop, now);
    expect({
      toSend: d.toSend,
      attention: d.attention,
      atCourier: d.atCourier,
      outForDelivery: d.outForDelivery,
      deliveredToday: d.deliveredToday,
      failedOrReturnedToday: d.failedOrReturnedToday,
      cashToCollect: d.cashToCollect,
      collectedToday: d.collectedToday,
    }).toEqual({
      toSend: 2,
      attention: 1,
      atCourier: 1,
      outForDelivery: 1,
      deliveredToday: 1,
      failedOrReturnedToday: 1,
      cashToCollect: 3625,
      collectedToday: 10000,
    });
    expect(d.series).toHaveLength(14);
    expect(d.series.at(-1)).toEqual({
      date: "2026-11-25",
      delivered: 1,
      failed: 0,
      returned: 1,
      medianMinutes: 120,
    });
    expect(d.series.at(-2)).toEqual({
      date: "2026-11-24",
      delivered: 1,
      failed: 0,
      returned: 0,
      medianMinutes: 240,
    });
    expect(d.series.slice(0, -2).every((day) => day.delivered === 0)).toBe(true);
  });

  it("takes each day's median from its middle deliveries, and the cash to collect as the Cash page does", async () => {
    const dash = shopDomain("dash");
    // Hours after midnight in Kuwait on 24 Nov (21:00 UTC the day before).
    const at = (hours: number) => new Date(Date.parse("2026-11-23T21:00:00Z") + hours * HOUR);
    const delivered = (movedAt: Date, hours: number, cash: string | null = null) =>
      delivery({
        shop: dash,
        state: "delivered",
        cash,
        lastMovedAt: movedAt,
        createdAt: new Date(movedAt.getTime() - hours * HOUR),
      });
    // 24 Nov: 1, 8, 3 and 3 hours from fulfilment to delivery: the median is 3 h.
    for (const hours of [1, 8, 3]) await delivered(at(12), hours);
    await delivered(at(20), 3, "1.000");
    // 23 Nov at 23:00 in Kuwait (20:00 UTC): 1 and 2 hours, the median between them.
    for (const hours of [1, 2]) await delivered(at(-1), hours);
    // Today (25 Nov, 06:00 in Kuwait).
    await delivered(at(30), 1, "12.345");
    // Cash to collect: a failed attempt's still is; a rejected, a returned or a delivered one's
    // is not (the Cash page's "to collect"); text that is not an amount counts nothing.
    await delivery({ shop: dash, state: "failed", cash: "7.250", lastMovedAt: at(-200) });
    await delivery({ shop: dash, state: "out_for_delivery", cash: "0.005" });
    await delivery({ shop: dash, state: "rejected", cash: "5.000" });
    await delivery({ shop: dash, state: "returned", cash: "4.000", lastMovedAt: at(-300) });
    await delivery({ shop: dash, state: "needs_address", cash: "not an amount" });

    const d = await getDashboard(dash, now);
    const on = (date: string) => d.series.find((day) => day.date === date);
    expect(on("2026-11-24")).toEqual({
      date: "2026-11-24",
      delivered: 4,
      failed: 0,
      returned: 0,
      medianMinutes: 180,
    });
    expect(on("2026-11-23")).toMatchObject({ delivered: 2, medianMinutes: 90 });
    expect(on("2026-11-25")).toMatchObject({ delivered: 1, medianMinutes: 60 });
    expect(d.deliveredToday).toBe(1);
    expect(d.collectedToday).toBe(12_345);
    expect(d.cashToCollect).toBe(7_255);
  });
});
