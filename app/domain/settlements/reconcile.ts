import { kwdToFils, sumFils, subtractFils, ZERO_FILS, type Fils } from "../kwd";
import { orderNumberKey, type StatementLine } from "./lines";

/**
 * Matching a courier statement against the app's deliveries, by the courier's order number. Pure:
 * the caller loads the deliveries the lines name and the delivered cash-on-delivery ones not yet
 * settled; this says what agrees and what differs, in exact fils.
 *
 * The amount a delivery should bring is its `cashToCollect`, the same text the request builder
 * put in the courier request (app/domain/request.ts), so the statement is checked against
 * what the driver was told to collect.
 */
export interface LedgerDelivery {
  id: string;
  orderName: string | null;
  courierOrderNumber: string | null;
  courierOrderId: string | null;
  state: string;
  /** KWD text as the delivery stores it ("36.500"), null for a prepaid delivery. */
  cashToCollect: string | null;
  /** When it was delivered, when it was. */
  deliveredAt: Date | null;
  /** Settled by another statement already. */
  settlementId: string | null;
}

export const DIFFERENCE_KINDS = [
  "amount_differs",
  "unknown_order",
  "missing_from_statement",
  "not_delivered",
  "already_settled",
] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

export interface Difference {
  kind: DifferenceKind;
  courierOrderNumber: string;
  deliveryId: string | null;
  orderName: string | null;
  /** The statement line's number in the file (null: the statement has no line for it). */
  line: number | null;
  /** What the statement says was paid, and what the app expected; null where there is none. */
  statementAmount: Fils | null;
  expectedAmount: Fils | null;
}

export interface MatchedLine extends StatementLine {
  deliveryId: string | null;
}

export interface DayTotal {
  day: string;
  lines: number;
  total: Fils;
}

export interface Reconciliation {
  lines: MatchedLine[];
  differences: Difference[];
  totals: {
    lines: number;
    /** Sum of the statement's lines. */
    statement: Fils;
    /** Sum of what the app expected for the lines it matched to delivered orders. */
    expected: Fils;
    /** Statement minus what the app expected from every delivered order it is owed for. */
    difference: Fils;
    matched: number;
  };
  byDay: DayTotal[];
}

export const KUWAIT_OFFSET_MS = 3 * 3_600_000;

/** The calendar day in Kuwait (UTC+3 all year) of an instant. */
export function kuwaitDay(at: Date): string {
  return new Date(at.getTime() + KUWAIT_OFFSET_MS).toISOString().slice(0, 10);
}

export const expectedCash = (delivery: Pick<LedgerDelivery, "cashToCollect">): Fils =>
  delivery.cashToCollect === null ? ZERO_FILS : kwdToFils(delivery.cashToCollect);

/**
 * `lastDay`: deliveries delivered after that day (Kuwait time) are not expected on this statement;
 * by default the statement's latest line date, or no limit when it has no dates.
 */
export function reconcileStatement(input: {
  lines: readonly StatementLine[];
  deliveries: readonly LedgerDelivery[];
  /** This statement's own id, when it is re-matched after being saved. */
  settlementId?: string | null;
  lastDay?: string | null;
}): Reconciliation {
  const byNumber = new Map<string, LedgerDelivery>();
  for (const delivery of input.deliveries) {
    for (const number of [delivery.courierOrderNumber, delivery.courierOrderId]) {
      if (number) {
        const key = orderNumberKey(number);
        if (!byNumber.has(key)) byNumber.set(key, delivery);
      }
    }
  }
  const own = input.settlementId ?? null;
  const differences: Difference[] = [];
  const matched: MatchedLine[] = [];
  const seen = new Set<string>();
  const expectedAmounts: Fils[] = [];
  for (const line of input.lines) {
    const delivery = byNumber.get(line.courierOrderNumber);
    matched.push({ ...line, deliveryId: delivery?.id ?? null });
    const base = {
      courierOrderNumber: line.courierOrderNumber,
      line: line.line,
      statementAmount: line.amount,
    };
    if (!delivery) {
      differences.push({
        ...base,
        kind: "unknown_order",
        deliveryId: null,
        orderName: null,
        expectedAmount: null,
      });
      continue;
    }
    seen.add(delivery.id);
    const expected = expectedCash(delivery);
    const about = {
      deliveryId: delivery.id,
      orderName: delivery.orderName,
      expectedAmount: expected,
    };
    if (delivery.settlementId !== null && delivery.settlementId !== own) {
      differences.push({ ...base, ...about, kind: "already_settled" });
    } else if (delivery.state !== "delivered") {
      differences.push({ ...base, ...about, kind: "not_delivered" });
    } else {
      expectedAmounts.push(expected);
      if (expected !== line.amount) differences.push({ ...base, ...about, kind: "amount_differs" });
    }
  }
  const lastDay =
    input.lastDay !== undefined
      ? input.lastDay
      : input.lines.reduce<string | null>(
          (max, l) => (l.day && (!max || l.day > max) ? l.day : max),
          null,
        );
  for (const delivery of input.deliveries) {
    if (
      seen.has(delivery.id) ||
      delivery.state !== "delivered" ||
      delivery.cashToCollect === null ||
      (delivery.settlementId !== null && delivery.settlementId !== own)
    )
      continue;
    if (lastDay && delivery.deliveredAt && kuwaitDay(delivery.deliveredAt) > lastDay) continue;
    const expected = expectedCash(delivery);
    if (expected === ZERO_FILS) continue;
    expectedAmounts.push(expected);
    differences.push({
      kind: "missing_from_statement",
      courierOrderNumber: delivery.courierOrderNumber ?? delivery.courierOrderId ?? "",
      deliveryId: delivery.id,
      orderName: delivery.orderName,
      line: null,
      statementAmount: null,
      expectedAmount: expected,
    });
  }
  const statement = sumFils(input.lines.map((l) => l.amount));
  const expected = sumFils(expectedAmounts);
  return {
    lines: matched,
    differences,
    totals: {
      lines: input.lines.length,
      statement,
      expected,
      difference: subtractFils(statement, expected),
      matched: matched.filter((l) => l.deliveryId !== null).length,
    },
    byDay: totalsByDay(input.lines),
  };
}

export function totalsByDay(lines: readonly Pick<StatementLine, "day" | "amount">[]): DayTotal[] {
  const days = new Map<string, { lines: number; total: number }>();
  for (const line of lines) {
    const day = line.day ?? "no date";
    const entry = days.get(day) ?? { lines: 0, total: 0 };
    entry.lines += 1;
    entry.total += line.amount;
    days.set(day, entry);
  }
  return [...days.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([day, { lines, total }]) => ({ day, lines, total: total as Fils }));
}
