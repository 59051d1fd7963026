import { formatKuwaitDate, type CourierClient, type OrderRecord } from "../courier";
import { notesCarryReference } from "../domain/request";

/**
 * Finding a delivery's order in the courier's history by the reference written in its notes
 * (ADR 0018). The search matches substrings (`…-12` also finds `…-123`, `…-1204`), newest first,
 * a page at a time: every page is read until the reference is found as a whole token or ruled
 * out, within a bound, and a courier that ignores paging cannot make an order look absent.
 */
export type HistoryAnswer =
  | { outcome: "found"; order: OrderRecord & { orderId: string }; pages: number }
  | { outcome: "absent"; pages: number }
  /** History answered, but not enough to rule the order out. */
  | { outcome: "undetermined"; reason: string; pages: number };

/** The largest page the courier takes (the sandbox's assumption; the document names none). */
export const HISTORY_PAGE_SIZE = 100;
/** Pages read at most for one search: 2,000 orders whose notes contain the reference. */
export const HISTORY_MAX_PAGES = 20;

const DAY_MS = 24 * 60 * 60_000;

const isCancelled = (order: OrderRecord) => /cancel/i.test(order.status ?? "");

/**
 * Looks for the courier order carrying `reference`. Orders created before `since` (less a day, for
 * clocks that disagree) cannot be it and are not asked for. A cancelled match is the answer only
 * when no live one exists: a duplicate the app cancelled must not stand for the delivery.
 */
export async function searchHistory(
  client: CourierClient,
  reference: string,
  since?: Date,
): Promise<HistoryAnswer> {
  const from = since ? formatKuwaitDate(new Date(since.getTime() - DAY_MS)) : undefined;
  const seen = new Set<string>();
  let cancelled: (OrderRecord & { orderId: string }) | null = null;
  for (let page = 1; page <= HISTORY_MAX_PAGES; page += 1) {
    const reply = await client.history({
      search: reference,
      page,
      pageSize: HISTORY_PAGE_SIZE,
      ...(from ? { from } : {}),
    });
    let fresh = 0;
    for (const [index, order] of reply.orders.entries()) {
      const key = order.orderId ?? order.orderNumber ?? `${page}:${index}`;
      if (seen.has(key)) continue;
      seen.add(key);
      fresh += 1;
      if (!order.orderId || !notesCarryReference(order.raw.notes, reference)) continue;
      const match = { ...order, orderId: order.orderId };
      if (!isCancelled(match)) return { outcome: "found", order: match, pages: page };
      cancelled ??= match;
    }
    const exhausted =
      reply.orders.length === 0 || (reply.total !== null && seen.size >= reply.total);
    if (exhausted) {
      return cancelled
        ? { outcome: "found", order: cancelled, pages: page }
        : { outcome: "absent", pages: page };
    }
    if (fresh === 0) {
      return {
        outcome: "undetermined",
        reason: `the courier's history gave page ${page} the same orders as before and no total, so the orders beyond them cannot be read`,
        pages: page,
      };
    }
  }
  return {
    outcome: "undetermined",
    reason: `more than ${HISTORY_MAX_PAGES * HISTORY_PAGE_SIZE} orders in the courier's history contain ${reference}`,
    pages: HISTORY_MAX_PAGES,
  };
}
