import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { deliveriesExport } from "../../app/pages/deliveries-export.server";
import { csvStream } from "../../app/domain/csv";
import { listDeliveryPages } from "../../app/models/read/delivery-list.server";
import { testDatabaseName } from "../support/database";
import { shopDomain } from "../support/shopify";

/**
 * The deliveries list's CSV export (issue 16) against the test file's database, SQLite or
 * PostgreSQL: the rows the list shows for the same URL (tab, filters, search), every page of
 * them, only the shop's, in the page's language.
 */
const database = testDatabaseName();
const shop = shopDomain("export");
const other = shopDomain("export-other");
const now = new Date("2026-11-25T09:00:00Z");

let n = 0;
async function delivery(fields: {
  state?: string;
  cash?: string | null;
  name?: string;
  shop?: string;
  reason?: string;
  courierStatus?: string;
}) {
  n += 1;
  return prisma.delivery.create({
    data: {
      shop: fields.shop ?? shop,
      orderId: `gid://shopify/Order/${n}`,
      orderName: `#${2000 + n}`,
      fulfillmentId: `gid://shopify/Fulfillment/${n}`,
      source: "webhook",
      state: fields.state ?? "delivered",
      stateReason: fields.reason ?? null,
      environment: "sandbox",
      reference: `SHPFY-export-${n}`,
      request: JSON.stringify({
        deliveryAddress: {
          governanceId: 1,
          areaId: 10,
          contactName: fields.name ?? "Sara",
          contactPhone: "99990000",
        },
      }),
      cashToCollect: fields.cash ?? null,
      courierOrderNumber: `CO-${n}`,
      courierStatus: fields.courierStatus ?? null,
      createdAt: new Date(now.getTime() - n * 60_000),
    },
  });
}

async function csvText(search: string, language: "en" | "ar" = "en"): Promise<string[]> {
  const csv = await deliveriesExport(shop, new URLSearchParams(search), language, now);
  const text = await new Response(csvStream(csv.header, csv.batches)).text();
  return text
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
}

describe(`the deliveries export (${database})`, () => {
  it("exports the rows the list's filters, tab and search select, from the first page, only the shop's", async () => {
    await delivery({ cash: "12.500", name: "Sara Ali" });
    await delivery({ cash: null, name: "Omar" });
    await delivery({ cash: "3.250", state: "needs_address", name: "=HYPERLINK(1)" });
    await delivery({ cash: "1.000", state: "in_transit", name: "محمد" });
    await delivery({ cash: "9.000", shop: other });

    const all = await csvText("");
    expect(all[0]).toContain("Order,Customer,Area,Cash to collect (KWD),Status");
    expect(all).toHaveLength(1 + 4);

    // Cash-on-delivery only, whatever page the merchant was on.
    const cod = await csvText("cod=cod&after=not-a-cursor");
    expect(cod.slice(1).map((l) => l.split(",")[0])).toEqual(["#2001", "#2003", "#2004"]);

    // The attention tab: the address to fix, its cell starting with = neutralised.
    const attention = await csvText("tab=attention");
    expect(attention).toHaveLength(2);
    expect(attention[1]).toContain("#2003");
    expect(attention[1]).toContain("'=HYPERLINK(1)");
    expect(attention[1]).toContain("Address needs review");

    // A state filter and a search.
    expect((await csvText("state=in_transit")).slice(1)).toHaveLength(1);
    const search = await csvText("q=%232002");
    expect(search.slice(1).map((l) => l.split(",")[0])).toEqual(["#2002"]);
  });

  it("writes the courier's status in words in the page's language, its code beside it", async () => {
    await delivery({ state: "out_for_delivery", courierStatus: "OUT_FOR_DELIVERY", name: "Amal" });
    const en = await csvText("");
    expect(en[0]).toContain("Courier's last status,Courier status code");
    expect(en.find((l) => l.includes("Amal"))).toContain("Out for delivery,OUT_FOR_DELIVERY");
    const ar = await csvText("", "ar");
    expect(ar.find((l) => l.includes("Amal"))).toContain("خرجت للتوصيل,OUT_FOR_DELIVERY");
  });

  it("writes the place a delivery waiting for its address points to, in the page's language", async () => {
    const waiting = await delivery({ state: "needs_address", name: "Reem" });
    await prisma.delivery.update({
      where: { id: waiting.id },
      data: { request: null },
    });
    // As the worker writes it: the list's columns after the request's trigger has run.
    await prisma.delivery.update({
      where: { id: waiting.id },
      data: {
        customerName: "Reem",
        addressMatch: JSON.stringify({ area: "Jabriya", input: { city: "Jabriya" } }),
      },
    });
    expect((await csvText("")).find((l) => l.includes("Reem"))).toContain("Reem,Jabriya,");
    expect((await csvText("", "ar")).find((l) => l.includes("Reem"))).toContain("Reem,الجابرية,");
  });

  it("writes its column titles and states in Arabic for an Arabic page", async () => {
    await delivery({ cash: "2.000", state: "delivered", name: "Huda" });
    const lines = await csvText("", "ar");
    expect(lines[0]).toContain("الطلب");
    expect(lines.some((l) => l.includes("Huda"))).toBe(true);
    expect(lines[0]).not.toContain("Order");
  });

  it("exports more deliveries than one query may bind values for (SQLite's 999)", async () => {
    const bulkShop = shopDomain("export-bulk");
    await prisma.delivery.createMany({
      data: Array.from({ length: 1_200 }, (_, i) => ({
        shop: bulkShop,
        orderId: `gid://shopify/Order/bulk-${i}`,
        orderName: `#B${i}`,
        fulfillmentId: `gid://shopify/Fulfillment/bulk-${i}`,
        source: "webhook",
        state: "delivered",
        environment: "sandbox",
        reference: `SHPFY-bulk-${i}`,
        createdAt: new Date(now.getTime() - i * 1_000),
      })),
    });
    const csv = await deliveriesExport(bulkShop, new URLSearchParams(), "en", now);
    const text = await new Response(csvStream(csv.header, csv.batches)).text();
    expect(text.trimEnd().split("\r\n")).toHaveLength(1 + 1_200);
  });

  it("reads every page of a long list once, in the list's order", async () => {
    for (let i = 0; i < 7; i += 1) await delivery({ cash: "1.000" });
    const seen: string[] = [];
    for await (const rows of listDeliveryPages({ shop, now, tab: "all" }, 3))
      seen.push(...rows.map((r) => r.id));
    expect(new Set(seen).size).toBe(seen.length);
    const count = await prisma.delivery.count({ where: { shop } });
    expect(seen).toHaveLength(count);
  });
});
