import { knownCourierOrders, recentCourierExceptions } from "../models/courier-exceptions.server";
import { getShopSettings } from "../models/shop.server";
import { isCourierError } from "../courier";
import { courierFailureNotice, notice, type Notice } from "../domain/notices";
import { recognizeStatus } from "../domain/courier-status";
import { parseCourierTime } from "../domain/tracking-plan";
import type { DeliveryState } from "../domain/states";
import { loadCourierApiKey } from "../models/courier-account.server";
import { loadStatusMappings } from "../models/tracking.server";
import { merchantCourierCalls } from "./courier-breaker.server";
import { courierClientFor } from "./courier-connection.server";

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

/** What the page says when a part of it could not be read: a code, in the page's language. */
function failed(error: unknown): Notice {
  if (isCourierError(error)) return courierFailureNotice(error);
  console.error("Courier reports failed", error);
  return notice("failed");
}

export async function courierReports(shop: string, from: string, to: string) {
  const settings = await getShopSettings(shop);
  const stored = await loadCourierApiKey(shop);
  const exceptions = await recentCourierExceptions(shop, 50);
  if (!settings || stored.status !== "readable") return { connected: false as const, exceptions };
  const environment = settings.courierEnvironment === "production" ? "production" : "sandbox";
  const direct = courierClientFor(environment, stored.apiKey);
  if (!direct) return { connected: false as const, exceptions };
  const courier = merchantCourierCalls(direct, { shop, environment });
  let report: ReportRow[] | null = null;
  let reportError: Notice | null = null;
  try {
    report = reportRows((await courier.corporateOrdersReport({ from, to })).raw);
  } catch (error) {
    reportError = failed(error);
  }
  // Each status in the merchant's words: what it means for the shop (Settings), else what the
  // app recognizes it as; null when neither (the page shows the courier's code as words).
  const { mappings } = await loadStatusMappings(shop);
  const stateOf = (status: string): DeliveryState | null => {
    const meaning = mappings.has(status) ? mappings.get(status) : recognizeStatus(status);
    return meaning && meaning.state !== "unchanged" ? meaning.state : null;
  };
  const unknown: {
    orderNumber: string;
    status: string;
    state: DeliveryState | null;
    createdAt: string;
    /** The instant (the courier writes Kuwait local time without an offset); null: unreadable. */
    createdAtInstant: string | null;
  }[] = [];
  let historyError: Notice | null = null;
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
          state: order.status ? stateOf(order.status) : null,
          createdAt: order.createdAt ?? "",
          createdAtInstant: parseCourierTime(order.createdAt)?.toISOString() ?? null,
        });
      }
      if (result.orders.length < (result.pageSize ?? 100)) break;
    }
  } catch (error) {
    historyError = failed(error);
  }
  return { connected: true as const, report, reportError, unknown, seen, historyError, exceptions };
}
