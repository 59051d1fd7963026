import { describe, expect, it } from "vitest";
import { fils } from "../../../app/domain/kwd";
import {
  cashStatus,
  kuwaitDay,
  ledgerByDay,
  ledgerTotals,
  reconcileStatement,
  type LedgerDelivery,
  type StatementLine,
} from "../../../app/domain/settlements";

const delivery = (over: Partial<LedgerDelivery> & { id: string }): LedgerDelivery => ({
  orderName: `#${over.id}`,
  courierOrderNumber: `CO-${over.id}`,
  courierOrderId: null,
  state: "delivered",
  cashToCollect: "10.000",
  deliveredAt: new Date("2026-11-24T10:00:00Z"),
  settlementId: null,
  ...over,
});
const line = (
  n: number,
  number: string,
  amount: number,
  day: string | null = "2026-11-24",
): StatementLine => ({
  line: n,
  courierOrderNumber: number,
  amount: fils(amount),
  day,
});

describe("reconcileStatement", () => {
  it("finds nothing to say when the statement pays every delivered order exactly", () => {
    const result = reconcileStatement({
      lines: [line(2, "CO-1", 10_000), line(3, "CO-2", 10_000)],
      deliveries: [delivery({ id: "1" }), delivery({ id: "2" })],
    });
    expect(result.differences).toEqual([]);
    expect(result.totals).toMatchObject({
      lines: 2,
      statement: 20_000,
      expected: 20_000,
      difference: 0,
      matched: 2,
    });
  });

  it("lists each kind of difference", () => {
    const result = reconcileStatement({
      lines: [
        line(2, "CO-1", 9_500),
        line(3, "CO-404", 3_000),
        line(4, "CO-3", 5_000),
        line(5, "CO-5", 1_000),
      ],
      deliveries: [
        delivery({ id: "1" }),
        delivery({ id: "2" }),
        delivery({ id: "3", state: "out_for_delivery", deliveredAt: null }),
        delivery({ id: "5", settlementId: "earlier" }),
      ],
    });
    expect(
      result.differences.map((d) => [
        d.kind,
        d.courierOrderNumber,
        d.statementAmount,
        d.expectedAmount,
      ]),
    ).toEqual([
      ["amount_differs", "CO-1", 9_500, 10_000],
      ["unknown_order", "CO-404", 3_000, null],
      ["not_delivered", "CO-3", 5_000, 10_000],
      ["already_settled", "CO-5", 1_000, 10_000],
      ["missing_from_statement", "CO-2", null, 10_000],
    ]);
    expect(result.totals.statement).toBe(18_500);
    expect(result.totals.expected).toBe(20_000);
    expect(result.totals.difference).toBe(-1_500);
  });

  it("matches order numbers typed with spaces, a hash or Arabic digits", () => {
    const result = reconcileStatement({
      lines: [line(2, "CO-1", 10_000)],
      deliveries: [delivery({ id: "x", courierOrderNumber: " #co-١ " })],
    });
    expect(result.lines[0]!.deliveryId).toBe("x");
  });

  it("does not expect orders delivered after the statement's last day", () => {
    const result = reconcileStatement({
      lines: [line(2, "CO-1", 10_000, "2026-11-24")],
      deliveries: [
        delivery({ id: "1" }),
        // 22:30 UTC on the 24th is already the 25th in Kuwait.
        delivery({ id: "late", deliveredAt: new Date("2026-11-24T22:30:00Z") }),
      ],
    });
    expect(result.differences).toEqual([]);
  });

  it("does not expect prepaid deliveries", () => {
    const result = reconcileStatement({
      lines: [],
      deliveries: [delivery({ id: "1", cashToCollect: null })],
    });
    expect(result.differences).toEqual([]);
  });

  it("counts a statement's own lines as its own when it is matched again", () => {
    const result = reconcileStatement({
      lines: [line(2, "CO-1", 10_000)],
      deliveries: [delivery({ id: "1", settlementId: "this" })],
      settlementId: "this",
    });
    expect(result.differences).toEqual([]);
  });

  it("totals lines per day", () => {
    const result = reconcileStatement({
      lines: [
        line(2, "A", 1_000, "2026-11-25"),
        line(3, "B", 2_500, "2026-11-24"),
        line(4, "C", 500, "2026-11-25"),
      ],
      deliveries: [],
    });
    expect(result.byDay).toEqual([
      { day: "2026-11-24", lines: 1, total: 2_500 },
      { day: "2026-11-25", lines: 2, total: 1_500 },
    ]);
  });
});

describe("the cash ledger", () => {
  const deliveries = [
    delivery({ id: "a", state: "in_transit", deliveredAt: null, cashToCollect: "5.250" }),
    delivery({ id: "b", cashToCollect: "0.100" }),
    delivery({ id: "c", cashToCollect: "0.200", deliveredAt: new Date("2026-11-23T21:30:00Z") }),
    delivery({ id: "d", settlementId: "s1", cashToCollect: "7.000" }),
    delivery({ id: "e", state: "returned", deliveredAt: null }),
  ];

  it("says where each delivery's money is", () => {
    expect(deliveries.map(cashStatus)).toEqual([
      "to_collect",
      "collected",
      "collected",
      "settled",
      "not_collected",
    ]);
  });

  it("totals exactly", () => {
    expect(ledgerTotals(deliveries)).toEqual({ toCollect: 5_250, collected: 300, settled: 7_000 });
  });

  it("totals per Kuwait day, newest first", () => {
    expect(kuwaitDay(new Date("2026-11-23T21:30:00Z"))).toBe("2026-11-24");
    expect(ledgerByDay(deliveries)).toEqual([
      { day: "2026-11-24", deliveries: 3, toCollect: 0, collected: 300, settled: 7_000 },
    ]);
  });
});
