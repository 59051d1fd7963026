import { z } from "zod";
import { asInt, asText, jsonObject, listOf, pickField } from "./field-lookup";
import { toOrderRecord } from "./results";

/** One entry of a bulk create's reply. */
export type BulkItemResult =
  | {
      index: number;
      outcome: "created";
      orderId: string;
      orderNumber: string | null;
      status: string | null;
      createdAt: string | null;
      raw: Record<string, unknown>;
    }
  | { index: number; outcome: "rejected"; message: string; raw: Record<string, unknown> }
  | { index: number; outcome: "unknown"; message: string; raw: Record<string, unknown> | null };

export interface BulkCreateResult {
  items: BulkItemResult[];
  created: number;
  rejected: number;
  unknown: number;
}

// Where a courier puts the reason an entry failed, beside or instead of `success: false`.
const ERROR_KEYS = ["error", "errorMessage", "errors"];

function errorText(value: unknown): string | null {
  if (Array.isArray(value)) {
    const parts = value.flatMap((entry) => {
      if (typeof entry !== "object" || entry === null) return asText(entry) ?? [];
      const record = entry as Record<string, unknown>;
      const message = asText(pickField(record, ["message", "error", "reason"]));
      const field = asText(pickField(record, ["field", "path", "name"]));
      return message ? [field ? `${field} ${message}` : message] : [];
    });
    return parts.length > 0 ? parts.join("; ") : null;
  }
  return asText(value);
}

/*
 * One entry of a bulk reply. Rejected only when the courier says so (`success: false`, or an
 * error field): a caller may send a rejected order again, so an entry read wrongly as rejected
 * would deliver twice. Without an order id and without a refusal the outcome is unknown, for the
 * caller to reconcile through history.
 */
function bulkItem(index: number, raw: Record<string, unknown>): BulkItemResult {
  const order = toOrderRecord(raw);
  const flag = pickField(raw, ["success", "succeeded", "ok"]);
  const error = errorText(pickField(raw, ERROR_KEYS));
  if (flag === false || (flag !== true && !order.orderId && error)) {
    const message =
      asText(pickField(raw, ["message", "reason"])) ??
      error ??
      "The courier refused this order without saying why.";
    return { index, outcome: "rejected", message, raw };
  }
  if (order.orderId) {
    return {
      index,
      outcome: "created",
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      status: order.status,
      createdAt: order.createdAt,
      raw,
    };
  }
  return {
    index,
    outcome: "unknown",
    message:
      flag === true
        ? "The courier reported this order as created, but its reply gives no order id the app can read."
        : "The courier's reply neither gives this order an id nor says it failed.",
    raw,
  };
}

/**
 * The per-item reply of a bulk create, in input order. An entry counts as created only with an
 * order id and as rejected only when the courier says it failed; anything else, and an input the
 * courier said nothing about, is `unknown`, never assumed either way.
 */
export function bulkResultSchema(count: number) {
  return listOf(jsonObject).transform((entries, ctx): BulkCreateResult => {
    const items = new Map<number, BulkItemResult>();
    for (const [position, raw] of entries.entries()) {
      const index = asInt(pickField(raw, ["index", "itemIndex", "position"])) ?? position;
      if (index < 0 || index >= count || items.has(index)) {
        ctx.addIssue({
          code: "custom",
          message: `entry ${position} names input ${index}, which is out of range or repeated`,
        });
        return z.NEVER;
      }
      items.set(index, bulkItem(index, raw));
    }
    const all: BulkItemResult[] = [];
    for (let index = 0; index < count; index++) {
      all.push(
        items.get(index) ?? {
          index,
          outcome: "unknown",
          message: "The courier's reply says nothing about this order.",
          raw: null,
        },
      );
    }
    return {
      items: all,
      created: all.filter((i) => i.outcome === "created").length,
      rejected: all.filter((i) => i.outcome === "rejected").length,
      unknown: all.filter((i) => i.outcome === "unknown").length,
    };
  });
}
