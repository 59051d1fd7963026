import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { attentionExceptionItems, deliveryExceptionItems } from "../../app/pages/reports.server";
import { rememberedStatementColumns } from "../../app/models/cash-ledger.server";
import { saveCourierExceptions } from "../../app/models/courier-exceptions.server";
import { ensureShopInstalled } from "../../app/models/shop.server";
import { importStatement } from "../../app/services/settlements.server";
import { testDatabaseName } from "../support/database";
import { installShop, shopDomain } from "../support/shopify";

/**
 * The cash ledger and the courier's exceptions (issue 16) against the test file's database,
 * SQLite or PostgreSQL: a statement imported, matched and saved with its differences, the orders
 * it paid settled and its Flow trigger written with it; exceptions kept, linked, and listed under
 * Needs attention until their parcel is delivered.
 */
const database = testDatabaseName();
const shop = shopDomain("cash-ledger");
const now = new Date("2026-11-25T09:00:00Z");

let n = 0;
async function delivery(state: string, cash: string | null, number: string) {
  n += 1;
  return prisma.delivery.create({
    data: {
      shop,
      orderId: `gid://shopify/Order/${3000 + n}`,
      orderName: `#${3000 + n}`,
      fulfillmentId: `gid://shopify/Fulfillment/${3000 + n}`,
      source: "webhook",
      state,
      environment: "sandbox",
      reference: `SHPFY-cash-${n}`,
      cashToCollect: cash,
      courierOrderNumber: number,
      courierOrderId: `id-${number}`,
      lastMovedAt: new Date(now.getTime() - 86_400_000),
      createdAt: new Date(now.getTime() - 2 * 86_400_000),
    },
  });
}

describe(`the cash ledger (${database})`, () => {
  it("imports a statement, lists what differs, settles what it paid, in exact fils", async () => {
    await installShop(shop);
    // As the app's layout does on every admin page.
    await ensureShopInstalled(shop);
    const paid = await delivery("delivered", "36.500", "CO-1");
    const short = await delivery("delivered", "14.250", "CO-2");
    const missing = await delivery("delivered", "9.000", "CO-3");
    const onTheWay = await delivery("in_transit", "22.000", "CO-4");
    const csv =
      "\uFEFFرقم الطلب,المبلغ,التاريخ\r\nCO-1,36.500,24/11/2026\r\nCO-2,10.000,24/11/2026\r\n" +
      "CO-9,5.000,24/11/2026\r\nCO-4,22.000,24/11/2026\r\nCO-5,abc,24/11/2026\r\n";
    const outcome = await importStatement({
      shop,
      file: new TextEncoder().encode(csv),
      fileName: "statement.csv",
      reference: "ST-1",
      receivedOn: "2026-11-25",
      columns: { orderNumber: "رقم الطلب", amount: "المبلغ", date: "التاريخ" },
    });
    expect(outcome).toMatchObject({ kind: "saved", lines: 4, differences: 4, settled: 2 });
    expect(outcome.problems).toEqual([expect.objectContaining({ line: 6 })]);

    const settlement = await prisma.settlement.findFirstOrThrow({ where: { shop } });
    expect(settlement.statementFils).toBe(73_500n);
    const lines = await prisma.settlementLine.findMany({
      where: { settlementId: settlement.id },
      orderBy: { line: "asc" },
    });
    expect(lines.map((l) => [l.courierOrderNumber, l.difference])).toEqual([
      ["CO-1", null],
      ["CO-2", "amount_differs"],
      ["CO-9", "unknown_order"],
      ["CO-4", "not_delivered"],
    ]);
    const gaps = await prisma.settlementGap.findMany({ where: { settlementId: settlement.id } });
    expect(gaps.map((g) => [g.deliveryId, g.expectedFils])).toEqual([[missing.id, 9_000]]);

    const settled = await prisma.delivery.findMany({
      where: { shop, settlementId: settlement.id },
      select: { id: true },
    });
    expect(settled.map((d) => d.id).sort()).toEqual([paid.id, short.id].sort());
    expect(
      (await prisma.delivery.findUniqueOrThrow({ where: { id: onTheWay.id } })).settlementId,
    ).toBeNull();

    // Its Flow trigger, committed with it; and the columns are remembered for the next one.
    const flow = await prisma.flowEvent.findMany({
      where: { shop, trigger: "settlement-received" },
    });
    expect(flow).toHaveLength(1);
    expect(JSON.parse(flow[0]!.payload)).toMatchObject({ Differences: 4 });
    expect(await rememberedStatementColumns(shop)).toEqual({
      orderNumber: "رقم الطلب",
      amount: "المبلغ",
      date: "التاريخ",
    });
  });

  it("keeps the courier's exceptions, linked or not, under Needs attention until delivered", async () => {
    const parcel = await delivery("in_transit", "5.000", "CO-20");
    const exceptions = [
      {
        orderId: "id-CO-20",
        type: "no_answer",
        description: "Customer not answering.",
        createdAt: "2026-11-25T07:00:00Z",
        raw: { id: "e-1", descriptionAr: "العميل لا يرد." },
      },
      {
        orderId: "unknown-77",
        type: "damaged",
        description: "Parcel damaged.",
        createdAt: null,
        raw: { id: "e-2" },
      },
    ];
    expect(await saveCourierExceptions(shop, "sandbox", exceptions, now)).toBe(2);
    // Read again: nothing new.
    expect(await saveCourierExceptions(shop, "sandbox", exceptions, now)).toBe(0);

    const attention = await attentionExceptionItems(shop, now);
    expect(attention.map((e) => e.courierOrderId).sort()).toEqual(["id-CO-20", "unknown-77"]);
    const own = await deliveryExceptionItems(shop, parcel.id);
    expect(own).toEqual([
      expect.objectContaining({
        description: "Customer not answering.",
        descriptionArabic: "العميل لا يرد.",
        orderName: parcel.orderName,
      }),
    ]);

    await prisma.delivery.update({ where: { id: parcel.id }, data: { state: "delivered" } });
    expect((await attentionExceptionItems(shop, now)).map((e) => e.courierOrderId)).toEqual([
      "unknown-77",
    ]);
    // A week later none asks for attention any more.
    expect(await attentionExceptionItems(shop, new Date(now.getTime() + 8 * 86_400_000))).toEqual(
      [],
    );
  });
});
