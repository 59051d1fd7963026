import { knownCourierOrders, recentCourierExceptions } from "../models/courier-exceptions.server";
import { getShopSettings } from "../models/shop.server";
import { courierClientFor } from "./courier-connection.server";
import { loadCourierApiKey } from "../models/courier-account.server";

/**
 * The reports page: the courier's corporate report for a period as rows of label and value
 * (whatever fields the courier returns: nested ones flattened, none dropped), and the courier's
 * history for the period compared with the app's deliveries. Orders the app does not know are
 * listed, never imported.
 */
export interface ReportRow {
  /** The courier's keys from the top (["byStatus", "delivered"]): the page names the ones it knows. */
  path: string[];
  /** The keys made readable, for a key the page has no name for. */
  field: string;
  value: string;
}

export function reportRows(raw: unknown, path: string[] = []): ReportRow[] {
  const field = path.map(humanise).join(" › ");
  if (raw === null || typeof raw !== "object")
    return [{ path, field: field || "Value", value: raw === null ? "" : String(raw) }];
  const entries = Array.isArray(raw)
    ? raw.map((v, i) => [String(i + 1), v] as const)
    : Object.entries(raw as Record<string, unknown>);
  return entries.flatMap(([key, value]) =>
    value !== null && typeof value === "object"
      ? reportRows(value, [...path, key])
      : [
          {
            path: [...path, key],
            field: [...path, key].map(humanise).join(" › "),
            value: value === null || value === undefined ? "" : String(value),
          },
        ],
  );
}

const humanise = (key: string) =>
  key
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .replace(/^./, (c) => c.toUpperCase());

const MAX_HISTORY_PAGES = 20;

export async function courierReports(shop: string, from: string, to: string) {
  const settings = await getShopSettings(shop);
  const stored = await loadCourierApiKey(shop);
  const exceptions = await recentCourierExceptions(shop, 50);
  if (!settings || stored.status !== "readable") return { connected: false as const, exceptions };
  const environment = settings.courierEnvironment === "production" ? "production" : "sandbox";
  const courier = courierClientFor(environment, stored.apiKey);
  if (!courier) return { connected: false as const, exceptions };
  let report: ReportRow[] | null = null;
  let reportError: string | null = null;
  try {
    report = reportRows((await courier.corporateOrdersReport({ from, to })).raw);
  } catch (error) {
    reportError = error instanceof Error ? error.message : "The courier did not answer.";
  }
  const unknown: { orderNumber: string; status: string; createdAt: string }[] = [];
  let historyError: string | null = null;
  let seen = 0;
  try {
    for (let page = 1; page <= MAX_HISTORY_PAGES; page++) {
      const result = await courier.history({ from, to, page, pageSize: 100 });
      seen += result.orders.length;
      const ids = result.orders.map((o) => o.orderId).filter((id): id is string => !!id);
      const numbers = result.orders.map((o) => o.orderNumber).filter((n): n is string => !!n);
      const known = await knownCourierOrders(shop, ids, numbers);
      for (const order of result.orders) {
        if (
          (order.orderId && known.ids.has(order.orderId)) ||
          (order.orderNumber && known.numbers.has(order.orderNumber))
        )
          continue;
        unknown.push({
          orderNumber: order.orderNumber ?? order.orderId ?? "",
          status: order.status ?? "",
          createdAt: order.createdAt ?? "",
        });
      }
      if (result.orders.length < (result.pageSize ?? 100)) break;
    }
  } catch (error) {
    historyError = error instanceof Error ? error.message : "The courier did not answer.";
  }
  return { connected: true as const, report, reportError, unknown, seen, historyError, exceptions };
}
