import { parseGid } from "./ids";
import { toMinor } from "./money";
import type { ShopifyStandInStore } from "./store";
import type { StandInOrder } from "./records";

/** The value an order sorts by under an `OrderSortKeys` key (also written into cursors). */
export function orderSortValue(order: StandInOrder, sortKey: string): string | number {
  switch (sortKey) {
    case "CREATED_AT":
    case "PROCESSED_AT":
      return order.processedAt.getTime();
    case "UPDATED_AT":
      return order.updatedAt.getTime();
    case "ORDER_NUMBER":
      return order.number;
    case "TOTAL_PRICE":
      return toMinor(order.totalPrice, order.currencyCode);
    default:
      return order.id;
  }
}

export function sortOrders(orders: StandInOrder[], sortKey: string): StandInOrder[] {
  return [...orders].sort((a, b) => {
    const x = orderSortValue(a, sortKey);
    const y = orderSortValue(b, sortKey);
    return x < y ? -1 : x > y ? 1 : a.id - b.id;
  });
}

/**
 * Shopify's order search syntax, the common part: `name:#1001`, `id:...`, `status:open|closed|
 * cancelled|any`, `financial_status:`, `fulfillment_status:`, `created_at:>=2026-01-01` (also
 * `updated_at`, `processed_at`), `email:`, `tag:`, `sku:`, `-field:value` to negate, bare words
 * matched against name, email, note and the customer's name on the shipping address (as Shopify's
 * default search finds an order by its customer). Terms are ANDed; OR and parentheses are not supported.
 */
export function orderMatches(
  store: ShopifyStandInStore,
  order: StandInOrder,
  query: string,
): boolean {
  const terms = query.match(/-?\w+:(?:"[^"]*"|\S+)|"[^"]*"|\S+/g) ?? [];
  return terms.every((raw) => {
    if (raw === "AND") return true;
    const negate = raw.startsWith("-") && raw.includes(":");
    const term = negate ? raw.slice(1) : raw;
    const match = /^(\w+):(.*)$/.exec(term);
    const result = match
      ? fieldMatches(store, order, match[1]!, unquote(match[2]!))
      : textMatches(order, unquote(term));
    return negate ? !result : result;
  });
}

function unquote(value: string): string {
  return value.replace(/^"(.*)"$/, "$1");
}

function textMatches(order: StandInOrder, text: string): boolean {
  const needle = text.toLowerCase();
  const customer = [order.shippingAddress?.firstName, order.shippingAddress?.lastName]
    .filter(Boolean)
    .join(" ");
  return [order.name, order.email, order.note, customer].some((v) =>
    v?.toLowerCase().includes(needle),
  );
}

function compare(actual: number, expression: string, parse: (v: string) => number): boolean {
  const match = /^(>=|<=|>|<)?(.*)$/.exec(expression);
  const wanted = parse(match?.[2] ?? "");
  if (Number.isNaN(wanted)) return false;
  switch (match?.[1]) {
    case ">=":
      return actual >= wanted;
    case "<=":
      return actual <= wanted;
    case ">":
      return actual > wanted;
    case "<":
      return actual < wanted;
    default:
      return actual === wanted;
  }
}

function fieldMatches(
  store: ShopifyStandInStore,
  order: StandInOrder,
  field: string,
  value: string,
): boolean {
  const lower = value.toLowerCase();
  switch (field) {
    case "name":
      return order.name.toLowerCase() === (lower.startsWith("#") ? lower : `#${lower}`);
    case "id":
      return compare(order.id, value, (v) => parseGid(v)?.id ?? Number(v));
    case "status":
      if (lower === "any") return true;
      if (lower === "cancelled") return order.cancelledAt !== null;
      if (lower === "closed") return order.closedAt !== null;
      return lower === "open" && order.closedAt === null && order.cancelledAt === null;
    case "financial_status":
      return lower === "any" || order.financialStatus.toLowerCase() === lower;
    case "fulfillment_status": {
      const status = store.displayFulfillmentStatus(order);
      if (lower === "any") return true;
      if (lower === "unshipped" || lower === "unfulfilled") return status === "UNFULFILLED";
      if (lower === "shipped" || lower === "fulfilled") return status === "FULFILLED";
      if (lower === "partial") return status === "PARTIALLY_FULFILLED";
      if (lower === "on_hold") return status === "ON_HOLD";
      return false;
    }
    case "created_at":
    case "processed_at":
      return compare(order.processedAt.getTime(), value, (v) => Date.parse(v));
    case "updated_at":
      return compare(order.updatedAt.getTime(), value, (v) => Date.parse(v));
    case "email":
      return order.email?.toLowerCase() === lower;
    case "tag":
      return order.tags.some((t) => t.toLowerCase() === lower);
    case "sku":
      return order.lineItems.some((li) => li.sku?.toLowerCase() === lower);
    default:
      // Shopify ignores a field it does not know (and says so in a search warning).
      return true;
  }
}
