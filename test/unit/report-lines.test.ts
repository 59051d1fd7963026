import { describe, expect, it } from "vitest";
import { reportLines } from "../../app/domain/report-lines";

const row = (path: string[], value: string) => ({ path, field: path.join(" › "), value });

describe("the courier's period report as the merchant reads it", () => {
  const rows = [
    row(["from"], "2026-10-30"),
    row(["totalOrders"], "3"),
    row(["byStatus", "pending"], "0"),
    row(["byStatus", "delivered"], "2"),
    row(["byStatus", "cancelled"], "1"),
    row(["totalDeliveryFees"], "10"),
    row(["totalCodAmount"], "19.75"),
    row(["currency"], "KWD"),
  ];
  const lines = reportLines(rows, { total: 4, byState: { delivered: 2 } });

  it("drops the currency row and the statuses with no orders, with the statuses' total", () => {
    expect(lines.map((l) => l.path.join("."))).toEqual([
      "from",
      "totalOrders",
      "byStatus",
      "byStatus.delivered",
      "byStatus.cancelled",
      "totalDeliveryFees",
      "totalCodAmount",
    ]);
    expect(lines.find((l) => l.path.join(".") === "byStatus")?.value).toBe("3");
  });

  it("reads fees and cash as dinars and the period's days as days", () => {
    const kind = (p: string) => lines.find((l) => l.path.join(".") === p)?.kind;
    expect([kind("totalDeliveryFees"), kind("totalCodAmount"), kind("from")]).toEqual([
      "kwd",
      "kwd",
      "day",
    ]);
  });

  it("sets the app's own count beside the courier's where the app counts the same", () => {
    const app = (p: string) => lines.find((l) => l.path.join(".") === p)?.app;
    expect([app("totalOrders"), app("byStatus.delivered"), app("byStatus.cancelled")]).toEqual([
      4, 2, 0,
    ]);
    expect(app("totalDeliveryFees")).toBeNull();
  });

  it("keeps a currency other than the dinar", () => {
    expect(reportLines([row(["currency"], "USD")], null)).toHaveLength(1);
  });
});
