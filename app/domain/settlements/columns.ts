import { type z } from "zod";
import { statementColumnsSchema } from "../records-columns";

/**
 * Which column of the courier's statement holds what. Couriers name them in English or Arabic,
 * and each one its own way; the app recognises the usual names and the merchant confirms or
 * corrects the choice once, after which it is remembered for the shop (by the columns' titles).
 */
export const STATEMENT_FIELDS = ["orderNumber", "amount", "date"] as const;
export type StatementField = (typeof STATEMENT_FIELDS)[number];

export { statementColumnsSchema };
/** Column titles as they appear in the file's header row. */
export type StatementColumns = z.infer<typeof statementColumnsSchema>;

export const FIELD_LABELS: Record<StatementField, string> = {
  orderNumber: "Courier order number",
  amount: "Amount collected",
  date: "Date",
};

/** Normalised header words: lower case, no diacritics or tatweel, one form of alef, ya and ta. */
export function headerKey(title: string): string {
  return title
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u064b-\u065f\u0670\u0640]/g, "")
    .replace(/[أإآ]/g, "ا")
    .replace(/ى/g, "ي")
    .replace(/ة/g, "ه")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

const KNOWN: Record<StatementField, string[]> = {
  orderNumber: [
    "order number",
    "order no",
    "order id",
    "order",
    "order #",
    "awb",
    "awb number",
    "tracking number",
    "shipment number",
    "reference",
    "رقم الطلب",
    "رقم الطلبيه",
    "رقم الشحنه",
    "رقم البوليصه",
    "الطلب",
    "رقم التتبع",
  ],
  amount: [
    "amount",
    "cod amount",
    "cod",
    "collected",
    "collected amount",
    "cash",
    "amount kwd",
    "total",
    "net amount",
    "المبلغ",
    "المبلغ المحصل",
    "مبلغ التحصيل",
    "المحصل",
    "قيمه التحصيل",
    "الاجمالي",
    "المبلغ د ك",
  ],
  date: [
    "date",
    "delivery date",
    "delivered at",
    "delivered on",
    "collection date",
    "التاريخ",
    "تاريخ التوصيل",
    "تاريخ التسليم",
    "تاريخ التحصيل",
  ],
};

const KNOWN_KEYS: Record<StatementField, Set<string>> = {
  orderNumber: new Set(KNOWN.orderNumber.map(headerKey)),
  amount: new Set(KNOWN.amount.map(headerKey)),
  date: new Set(KNOWN.date.map(headerKey)),
};

/** The column the app recognises for each field, or null; each column used once. */
export function guessColumns(headers: readonly string[]): Record<StatementField, string | null> {
  const taken = new Set<string>();
  const pick = (field: StatementField) => {
    const found = headers.find((h) => !taken.has(h) && KNOWN_KEYS[field].has(headerKey(h)));
    if (found !== undefined) taken.add(found);
    return found ?? null;
  };
  const orderNumber = pick("orderNumber");
  const amount = pick("amount");
  const date = pick("date");
  return { orderNumber, amount, date };
}

/**
 * The columns to use for a file: the shop's remembered choice when the file has those titles,
 * else what the app recognises. `complete` says whether the two required columns are known.
 */
export function columnsForFile(
  headers: readonly string[],
  remembered: StatementColumns | null,
): { columns: Record<StatementField, string | null>; complete: boolean; remembered: boolean } {
  if (
    remembered &&
    headers.includes(remembered.orderNumber) &&
    headers.includes(remembered.amount) &&
    (remembered.date === null || headers.includes(remembered.date))
  ) {
    return { columns: remembered, complete: true, remembered: true };
  }
  const columns = guessColumns(headers);
  return {
    columns,
    complete: columns.orderNumber !== null && columns.amount !== null,
    remembered: false,
  };
}

/** A row that looks like the header: it names both required columns. */
export function looksLikeHeader(cells: readonly string[]): boolean {
  const guess = guessColumns(cells);
  return guess.orderNumber !== null && guess.amount !== null;
}
