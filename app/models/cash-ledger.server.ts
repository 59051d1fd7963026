// Longer than 400 lines: the cash ledger's one module of queries (collecting, settled, statements and their lines, differences), so its fils arithmetic is in one place.
import type { Prisma } from "@prisma/client";
import prisma from "../db.server";
import { Unreadable } from "../domain/json-column";
import { statementColumnsColumn } from "../domain/records-columns";
import { fils, type Fils } from "../domain/kwd";
import {
  statementColumnsSchema,
  type LedgerDelivery,
  type Reconciliation,
  type StatementColumns,
  type StatementLine,
} from "../domain/settlements";
import { enqueueFlowEvent } from "./flow-events.server";
import { settlementReceivedPayload } from "../domain/flow-triggers";

/**
 * The cash ledger's rows: cash-on-delivery deliveries, the courier's statements and their lines.
 * Every query is scoped by shop. Never writes a delivery's state: only which statement settled it.
 */

const ledgerSelect = {
  id: true,
  orderId: true,
  orderName: true,
  courierOrderNumber: true,
  courierOrderId: true,
  state: true,
  cashToCollect: true,
  lastMovedAt: true,
  courierStatusAt: true,
  updatedAt: true,
  settlementId: true,
  settledAt: true,
  paidMarkedAt: true,
} satisfies Prisma.DeliverySelect;

type LedgerRow = Prisma.DeliveryGetPayload<{ select: typeof ledgerSelect }>;

export type LedgerEntry = LedgerDelivery & {
  orderId: string;
  settledAt: Date | null;
  paidMarkedAt: Date | null;
};

/**
 * When a delivered one was delivered: the last move of a delivery in a final state is the move
 * into it, on the app's clock (lastMovedAt), else the courier's time for its status.
 */
function toEntry(row: LedgerRow): LedgerEntry {
  return {
    id: row.id,
    orderId: row.orderId,
    orderName: row.orderName,
    courierOrderNumber: row.courierOrderNumber,
    courierOrderId: row.courierOrderId,
    state: row.state,
    cashToCollect: row.cashToCollect,
    deliveredAt:
      row.state === "delivered" ? (row.lastMovedAt ?? row.courierStatusAt ?? row.updatedAt) : null,
    settlementId: row.settlementId,
    settledAt: row.settledAt,
    paidMarkedAt: row.paidMarkedAt,
  };
}

// SQLite through the driver adapter takes at most 999 parameters a statement.
const CHUNK = 400;

/**
 * The deliveries a statement's lines name (by courier order number or id), and every delivered
 * cash-on-delivery one not settled yet (a statement may lack them).
 */
export async function ledgerDeliveriesForNumbers(
  shop: string,
  numbers: readonly string[],
  /** The statement's last day (Kuwait): orders delivered after it are not expected on it. */
  lastDay: string | null = null,
): Promise<LedgerEntry[]> {
  const found = new Map<string, LedgerEntry>();
  const unique = [...new Set(numbers)];
  // By number first, then by id for the numbers not found: each lookup uses its index.
  const matched = new Set<string>();
  for (const column of ["courierOrderNumber", "courierOrderId"] as const) {
    const wanted = unique.filter((n) => !matched.has(n));
    for (let i = 0; i < wanted.length; i += CHUNK) {
      const rows = await prisma.delivery.findMany({
        where: { shop, [column]: { in: wanted.slice(i, i + CHUNK) } },
        select: ledgerSelect,
      });
      for (const row of rows) {
        found.set(row.id, toEntry(row));
        if (row[column]) matched.add(row[column]);
      }
    }
  }
  const open = await prisma.delivery.findMany({
    where: {
      shop,
      state: "delivered",
      cashToCollect: { not: null },
      settlementId: null,
      // The end of that day in Kuwait (UTC+3); a row never moved is kept (reconcile decides).
      ...(lastDay
        ? {
            OR: [
              {
                lastMovedAt: { lt: new Date(Date.parse(`${lastDay}T00:00:00Z`) + 21 * 3_600_000) },
              },
              { lastMovedAt: null },
            ],
          }
        : {}),
    },
    // Only ids: nearly all of them are the statement's own rows, read above already; reading
    // every column of each a second time was a third of an import (issue 24).
    select: { id: true },
  });
  const missing = open.map((row) => row.id).filter((id) => !found.has(id));
  for (let i = 0; i < missing.length; i += CHUNK) {
    const rows = await prisma.delivery.findMany({
      where: { shop, id: { in: missing.slice(i, i + CHUNK) } },
      select: ledgerSelect,
    });
    for (const row of rows) found.set(row.id, toEntry(row));
  }
  return [...found.values()];
}

/** Every cash-on-delivery delivery of the shop (the ledger page and its export). */
export async function cashDeliveries(shop: string): Promise<LedgerEntry[]> {
  const rows = await prisma.delivery.findMany({
    where: { shop, cashToCollect: { not: null } },
    select: ledgerSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(toEntry);
}

/** The ledger page a page at a time, newest first, for the export. */
export async function* cashDeliveryBatches(shop: string, pageSize = 1_000) {
  let cursor: string | undefined;
  for (;;) {
    const rows = await prisma.delivery.findMany({
      where: { shop, cashToCollect: { not: null } },
      select: ledgerSelect,
      orderBy: { id: "desc" },
      take: pageSize,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    });
    if (rows.length === 0) return;
    yield rows.map(toEntry);
    if (rows.length < pageSize) return;
    cursor = rows[rows.length - 1]!.id;
  }
}

export async function rememberedStatementColumns(shop: string): Promise<StatementColumns | null> {
  const settings = await prisma.shopSettings.findUnique({
    where: { shop },
    select: { statementColumns: true },
  });
  if (!settings?.statementColumns) return null;
  const columns = statementColumnsColumn.decode(settings.statementColumns);
  // Columns that no longer read are asked for again, as if never mapped.
  return columns instanceof Unreadable ? null : columns;
}

export async function rememberStatementColumns(shop: string, columns: StatementColumns) {
  await prisma.shopSettings.updateMany({
    where: { shop },
    data: {
      statementColumns: statementColumnsColumn.encode(statementColumnsSchema.parse(columns)),
    },
  });
}

export interface NewSettlement {
  shop: string;
  source: "file" | "manual";
  fileName?: string | null;
  reference?: string | null;
  receivedOn: string;
  lines: readonly StatementLine[];
  reconciliation: Reconciliation;
}

/**
 * Saves a matched statement in one transaction: the statement, its lines with their
 * differences, the delivered orders it lacked, each matched delivered delivery marked settled by
 * it (unless another statement settled it first), and the "Settlement received" Flow trigger.
 */
export async function saveSettlement(input: NewSettlement, at = new Date()) {
  const { reconciliation, shop } = input;
  const byLine = new Map(
    reconciliation.differences.filter((d) => d.line !== null).map((d) => [d.line!, d]),
  );
  const days = input.lines
    .map((l) => l.day)
    .filter((d): d is string => d !== null)
    .sort();
  const settles = reconciliation.lines.filter((line) => {
    const difference = byLine.get(line.line);
    return line.deliveryId !== null && (!difference || difference.kind === "amount_differs");
  });
  return prisma.$transaction(async (tx) => {
    const settlement = await tx.settlement.create({
      data: {
        shop,
        source: input.source,
        fileName: input.fileName ?? null,
        reference: input.reference ?? null,
        receivedOn: input.receivedOn,
        firstDay: days[0] ?? null,
        lastDay: days[days.length - 1] ?? null,
        lineCount: input.lines.length,
        statementFils: BigInt(reconciliation.totals.statement),
        expectedFils: BigInt(reconciliation.totals.expected),
        differences: reconciliation.differences.length,
        createdAt: at,
      },
    });
    for (let i = 0; i < reconciliation.lines.length; i += CHUNK) {
      await tx.settlementLine.createMany({
        data: reconciliation.lines.slice(i, i + CHUNK).map((line) => {
          const difference = byLine.get(line.line);
          return {
            shop,
            settlementId: settlement.id,
            line: input.source === "file" ? line.line : null,
            courierOrderNumber: line.courierOrderNumber,
            amountFils: line.amount,
            day: line.day,
            deliveryId: line.deliveryId,
            difference: difference?.kind ?? null,
            expectedFils: difference?.expectedAmount ?? null,
          };
        }),
      });
    }
    const gaps = reconciliation.differences.filter((d) => d.kind === "missing_from_statement");
    for (let i = 0; i < gaps.length; i += CHUNK) {
      await tx.settlementGap.createMany({
        data: gaps.slice(i, i + CHUNK).map((gap) => ({
          shop,
          settlementId: settlement.id,
          deliveryId: gap.deliveryId!,
          courierOrderNumber: gap.courierOrderNumber,
          expectedFils: gap.expectedAmount ?? 0,
        })),
      });
    }
    const ids = settles.map((line) => line.deliveryId!);
    let settled = 0;
    for (let i = 0; i < ids.length; i += CHUNK) {
      const { count } = await tx.delivery.updateMany({
        where: { shop, id: { in: ids.slice(i, i + CHUNK) }, settlementId: null },
        data: { settlementId: settlement.id, settledAt: at },
      });
      settled += count;
    }
    await enqueueFlowEvent(
      tx,
      shop,
      "settlement-received",
      settlementReceivedPayload({
        settlementId: settlement.id,
        reference: input.reference ?? null,
        receivedOn: input.receivedOn,
        lines: input.lines.length,
        total: reconciliation.totals.statement,
        expected: reconciliation.totals.expected,
        differences: reconciliation.differences.length,
      }),
      at,
    );
    return { settlement, settled };
  });
}

export interface SettlementSummary {
  id: string;
  source: string;
  fileName: string | null;
  reference: string | null;
  receivedOn: string;
  firstDay: string | null;
  lastDay: string | null;
  lineCount: number;
  statement: Fils;
  expected: Fils;
  differences: number;
  createdAt: Date;
}

const summary = (row: {
  id: string;
  source: string;
  fileName: string | null;
  reference: string | null;
  receivedOn: string;
  firstDay: string | null;
  lastDay: string | null;
  lineCount: number;
  statementFils: bigint;
  expectedFils: bigint;
  differences: number;
  createdAt: Date;
}): SettlementSummary => ({
  id: row.id,
  source: row.source,
  fileName: row.fileName,
  reference: row.reference,
  receivedOn: row.receivedOn,
  firstDay: row.firstDay,
  lastDay: row.lastDay,
  lineCount: row.lineCount,
  statement: fils(Number(row.statementFils)),
  expected: fils(Number(row.expectedFils)),
  differences: row.differences,
  createdAt: row.createdAt,
});

export async function listSettlements(shop: string, take = 50): Promise<SettlementSummary[]> {
  const rows = await prisma.settlement.findMany({
    where: { shop },
    orderBy: { createdAt: "desc" },
    take,
  });
  return rows.map(summary);
}

/** How many differences the latest statement saved has (0: none, or no statement yet). */
export async function latestStatementDifferences(shop: string): Promise<number> {
  const latest = await prisma.settlement.findFirst({
    where: { shop },
    orderBy: { createdAt: "desc" },
    select: { differences: true },
  });
  return latest?.differences ?? 0;
}

/** A statement's differences, as saved: its lines that differ and the orders it lacked. */
export async function settlementDifferences(shop: string, settlementId: string) {
  const [lines, gaps] = await Promise.all([
    prisma.settlementLine.findMany({
      where: { shop, settlementId, difference: { not: null } },
      orderBy: { line: "asc" },
    }),
    prisma.settlementGap.findMany({ where: { shop, settlementId } }),
  ]);
  const names = new Map(
    (
      await prisma.delivery.findMany({
        where: {
          shop,
          id: {
            in: [
              ...lines.map((l) => l.deliveryId).filter((id): id is string => id !== null),
              ...gaps.map((g) => g.deliveryId),
            ],
          },
        },
        select: { id: true, orderName: true },
      })
    ).map((d) => [d.id, d.orderName]),
  );
  return [
    ...lines.map((l) => ({
      kind: l.difference!,
      line: l.line,
      courierOrderNumber: l.courierOrderNumber,
      deliveryId: l.deliveryId,
      orderName: l.deliveryId ? (names.get(l.deliveryId) ?? null) : null,
      statementAmount: fils(l.amountFils),
      expectedAmount: l.expectedFils === null ? null : fils(l.expectedFils),
    })),
    ...gaps.map((g) => ({
      kind: "missing_from_statement",
      line: null,
      courierOrderNumber: g.courierOrderNumber,
      deliveryId: g.deliveryId,
      orderName: names.get(g.deliveryId) ?? null,
      statementAmount: null,
      expectedAmount: fils(g.expectedFils),
    })),
  ];
}

/** Orders settled by a statement and not yet marked paid in Shopify, one entry per order. */
export async function settledUnpaidOrders(shop: string, take = 250) {
  const rows = await prisma.delivery.findMany({
    where: { shop, settlementId: { not: null }, paidMarkedAt: null, cashToCollect: { not: null } },
    select: { id: true, orderId: true, orderName: true },
    orderBy: { settledAt: "asc" },
    take,
  });
  const byOrder = new Map<string, { orderId: string; orderName: string | null; ids: string[] }>();
  for (const row of rows) {
    const entry = byOrder.get(row.orderId) ?? {
      orderId: row.orderId,
      orderName: row.orderName,
      ids: [],
    };
    entry.ids.push(row.id);
    byOrder.set(row.orderId, entry);
  }
  return [...byOrder.values()];
}

/** Records that the order's cash delivery was marked paid (by the ledger's bulk action). */
export async function recordOrderMarkedPaid(shop: string, deliveryIds: string[], at = new Date()) {
  await prisma.delivery.updateMany({
    where: { shop, id: { in: deliveryIds }, paidMarkedAt: null },
    data: { paidMarkedAt: at },
  });
}

/** The shop's choice of when cash orders are marked paid in Shopify. */
export const MARK_PAID_WHEN = ["delivered", "settled", "never"] as const;
export type MarkPaidWhen = (typeof MARK_PAID_WHEN)[number];

export function markPaidWhen(settings: {
  markCodPaid: boolean;
  markPaidOnSettlement: boolean;
}): MarkPaidWhen {
  if (settings.markCodPaid) return "delivered";
  return settings.markPaidOnSettlement ? "settled" : "never";
}

export async function shopMarkPaidWhen(shop: string): Promise<MarkPaidWhen> {
  const settings = await prisma.shopSettings.findUnique({
    where: { shop },
    select: { markCodPaid: true, markPaidOnSettlement: true },
  });
  return settings ? markPaidWhen(settings) : "never";
}

export async function setMarkPaidWhen(shop: string, when: MarkPaidWhen) {
  await prisma.shopSettings.updateMany({
    where: { shop },
    data: { markCodPaid: when === "delivered", markPaidOnSettlement: when === "settled" },
  });
}
