import type { DeliveryState } from "./states";

/**
 * The courier's period report as the merchant reads it: money as dinars, the period's days as
 * days, a status with no orders left out (with the statuses' total instead), the currency row
 * dropped when it is the dinar every amount is shown in, and the app's own count beside the
 * courier's figure where the app counts the same thing. Pure.
 */
export interface ReportRowInput {
  path: string[];
  field: string;
  value: string;
}

export type ReportLineKind = "kwd" | "day" | "count" | "text";

export interface ReportLine extends ReportRowInput {
  kind: ReportLineKind;
  /** The app's own count for the same figure, when it has one. */
  app: number | null;
}

export interface AppCounts {
  total: number;
  byState: Partial<Record<DeliveryState, number>>;
}

const MONEY = /(fees?|amount|cash|cod)$/i;
const DAY = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?$/;
const NUMBER = /^-?\d+(?:\.\d+)?$/;

/** The courier's figure the app counts too, by its key: the app's state for it. */
const SAME_AS_APP: Record<string, DeliveryState> = {
  delivered: "delivered",
  deliveredCount: "delivered",
  cancelled: "cancelled",
  cancelledCount: "cancelled",
  returned: "returned",
  delivery_failed: "failed",
  out_for_delivery: "out_for_delivery",
  picked_up: "picked_up",
  in_transit: "in_transit",
};

export function reportLines(rows: readonly ReportRowInput[], app: AppCounts | null): ReportLine[] {
  const lines: ReportLine[] = [];
  let statusTotal = 0;
  let statusRows = 0;
  let statusesAt = -1;
  for (const row of rows) {
    const key = row.path[row.path.length - 1] ?? "";
    const value = row.value.trim();
    if (row.path.length === 1 && key === "currency" && /^(KWD)?$/i.test(value)) continue;
    const byStatus = row.path.length === 2 && row.path[0] === "byStatus";
    if (byStatus && NUMBER.test(value)) {
      statusRows += 1;
      statusTotal += Number(value);
      if (statusesAt < 0) statusesAt = lines.length;
      if (Number(value) === 0) continue;
    }
    const kind: ReportLineKind =
      MONEY.test(key) && NUMBER.test(value)
        ? "kwd"
        : DAY.test(value)
          ? "day"
          : NUMBER.test(value)
            ? "count"
            : "text";
    const state = byStatus || row.path.length === 1 ? SAME_AS_APP[key] : undefined;
    const appCount =
      app === null
        ? null
        : row.path.length === 1 && key === "totalOrders"
          ? app.total
          : state
            ? (app.byState[state] ?? 0)
            : null;
    lines.push({ ...row, value, kind, app: kind === "count" ? appCount : null });
  }
  // Where the statuses were, their total once (the zero ones are not listed).
  if (statusRows > 0) {
    lines.splice(statusesAt, 0, {
      path: ["byStatus"],
      field: "By status",
      value: String(statusTotal),
      kind: "count",
      app: null,
    });
  }
  return lines;
}
