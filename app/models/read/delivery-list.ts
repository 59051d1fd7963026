import { ATTENTION_STATES, type DeliveryState } from "../../domain/states";

/**
 * What the deliveries list's page and its server share (ADR 0041): the tabs and their states,
 * the sorts, the cursor in the URL, and how typed names and phones are folded for search.
 */

export const LIST_TABS = [
  "all",
  "attention",
  "in_progress",
  "out_for_delivery",
  "delivered",
  "failed_returned",
  "cancelled",
] as const;
export type ListTab = (typeof LIST_TABS)[number];

/** The states each tab shows; `all` shows every state. */
export const TAB_STATES: Record<ListTab, readonly DeliveryState[] | null> = {
  all: null,
  // What the merchant must act on now: the attention states that are not final, and (below)
  // tracked parcels that have not moved for STUCK_AFTER_MS. Returned parcels have their own tab.
  attention: ATTENTION_STATES.filter((s) => s !== "returned"),
  in_progress: ["pending", "ready", "creating", "unknown", "created", "picked_up", "in_transit"],
  out_for_delivery: ["out_for_delivery"],
  delivered: ["delivered"],
  failed_returned: ["failed", "returned"],
  cancelled: ["cancelled", "skipped"],
};

export const LIST_SORTS = ["newest", "oldest"] as const;
export type ListSort = (typeof LIST_SORTS)[number];

export interface Cursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor(cursor: Cursor): string {
  return `${cursor.createdAt.getTime().toString(36)}.${cursor.id}`;
}

/** The cursor in a URL, or null when it is not one. */
export function decodeCursor(text: string | null | undefined): Cursor | null {
  const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{1,64})$/.exec(text ?? "");
  if (!match) return null;
  const time = parseInt(match[1]!, 36);
  if (!Number.isSafeInteger(time)) return null;
  return { createdAt: new Date(time), id: match[2]! };
}

/** Lower-cases Latin letters and folds Arabic letter variants, as the migration's trigger does. */
export function foldName(text: string): string {
  return text
    .trim()
    .replace(/\s+/g, " ")
    .replace(/[A-Z]/g, (c) => c.toLowerCase())
    .replace(/[أإآ]/g, "ا")
    .replace(/ة/g, "ه")
    .replace(/ى/g, "ي")
    .replace(/ـ/g, "");
}

/**
 * The list's customer columns for a delivery that has no courier request yet (waiting for its
 * address): the same values the request's trigger writes (ADR 0041) — the name trimmed, the
 * search keys folded as {@link foldName} folds what is typed, the phone as its local digits.
 */
export function customerListFields(name: string | null, phone: string | null) {
  const customerName = name?.trim() || null;
  const nameKey = customerName === null ? null : foldName(customerName);
  const space = nameKey?.indexOf(" ") ?? -1;
  const digits = phone ? phoneDigits(phone) : "";
  return {
    customerName,
    customerPhone: digits === "" ? null : digits,
    nameKey,
    nameKey2: nameKey !== null && space > 0 ? nameKey.slice(space + 1).trim() || null : null,
  };
}

/** The digits of a typed phone number (Arabic-Indic too), without Kuwait's country code. */
export function phoneDigits(text: string): string {
  const digits = text
    .replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/\D/g, "");
  const local = digits.replace(/^(00)?965(?=\d{8}$)/, "");
  return local;
}
