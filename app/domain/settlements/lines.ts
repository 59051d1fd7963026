import { parseKwd, type Fils, type KwdProblemCode } from "../kwd";
import type { StatementColumns } from "./columns";
import type { StatementTable } from "./read";

/**
 * The statement's lines read with the merchant's column choice. A row that cannot be read is
 * reported with its line and what to change; every readable row is kept.
 */
export interface StatementLine {
  line: number;
  courierOrderNumber: string;
  amount: Fils;
  /** YYYY-MM-DD, or null when the statement has no date column or the cell is empty. */
  day: string | null;
}

/**
 * One thing wrong with a line, as a code and the data it names (a column's title, the cell's
 * text, another line), for the page to say in its language; `problem` is the English sentence.
 */
export type LineReason =
  | { code: "order_empty"; column: string }
  | { code: `amount_${KwdProblemCode}`; column: string; value: string }
  | { code: "date"; column: string; value: string }
  | { code: "duplicate"; order: string; other: number }
  | { code: "file_broken" }
  | { code: "manual_order_first" };

export interface LineProblem {
  line: number;
  problem: string;
  reasons?: LineReason[];
}

const TOTAL_ROW = /^(?:grand\s+)?totals?:?$|^(?:ال)?(?:مجموع|اجمالي|إجمالي)(?:\s.*)?$/i;
const ARABIC_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g;
const western = (text: string) =>
  text.replace(ARABIC_DIGITS, (d) => {
    const code = d.charCodeAt(0);
    return String(code >= 0x06f0 ? code - 0x06f0 : code - 0x0660);
  });

/** Order numbers compare without spaces, a leading "#", case or the digits' script. */
export function orderNumberKey(value: string): string {
  return western(value.normalize("NFKC")).replace(/\s+/g, "").replace(/^#/, "").toUpperCase();
}

/**
 * A statement's date as a day: ISO (2026-11-24, with or without a time), day first as Kuwait
 * writes it (24/11/2026, 24-11-2026, 24.11.2026), Arabic digits. Null when it is none of these.
 */
export function parseStatementDay(value: string): string | null {
  const text = western(value.normalize("NFKC")).trim();
  let year: number, month: number, day: number;
  let match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T\s].*)?$/.exec(text);
  if (match) {
    [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  } else if ((match = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?:\s.*)?$/.exec(text))) {
    [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  } else {
    return null;
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  )
    return null;
  return date.toISOString().slice(0, 10);
}

export function readStatementLines(
  table: Pick<StatementTable, "headers" | "rows" | "problems">,
  columns: StatementColumns,
): { lines: StatementLine[]; problems: LineProblem[] } {
  const index = (title: string | null) => (title === null ? -1 : table.headers.indexOf(title));
  const orderAt = index(columns.orderNumber);
  const amountAt = index(columns.amount);
  const dateAt = index(columns.date);
  if (orderAt === -1 || amountAt === -1)
    throw new RangeError("The chosen columns are not in this file's header row.");
  const lines: StatementLine[] = [];
  const problems: LineProblem[] = [...table.problems];
  const firstLineOf = new Map<string, number>();
  for (const row of table.rows) {
    const orderText = row.cells[orderAt] ?? "";
    const amountText = row.cells[amountAt] ?? "";
    const dateText = dateAt === -1 ? "" : (row.cells[dateAt] ?? "");
    const rowProblems: string[] = [];
    const reasons: LineReason[] = [];
    const orderNumber = orderNumberKey(orderText);
    // A totals row at the bottom ("Total", "الإجمالي") is the courier's sum, not an order.
    if (
      TOTAL_ROW.test(orderText.trim()) ||
      (orderNumber === "" && TOTAL_ROW.test(row.cells.join(" ").trim()))
    )
      continue;
    if (orderNumber === "") {
      if (amountText === "") continue;
      rowProblems.push(`the "${columns.orderNumber}" cell is empty: add the courier order number`);
      reasons.push({ code: "order_empty", column: columns.orderNumber });
    }
    const amount = parseKwd(amountText);
    if (!amount.ok) {
      rowProblems.push(`the "${columns.amount}" cell ${amount.problem}`);
      reasons.push({ code: `amount_${amount.code}`, column: columns.amount, value: amountText });
    }
    let day: string | null = null;
    if (dateText !== "") {
      day = parseStatementDay(dateText);
      if (day === null) {
        rowProblems.push(
          `the "${columns.date}" cell "${dateText}" is not a date (write it like 24/11/2026)`,
        );
        reasons.push({ code: "date", column: columns.date ?? "", value: dateText });
      }
    }
    const earlier = firstLineOf.get(orderNumber);
    if (orderNumber !== "" && earlier !== undefined) {
      rowProblems.push(
        `order ${orderText.trim()} is also on line ${earlier}: keep one line per order`,
      );
      reasons.push({ code: "duplicate", order: orderText.trim(), other: earlier });
    }
    if (rowProblems.length > 0 || !amount.ok) {
      problems.push({
        line: row.line,
        problem: capitalise(rowProblems.join("; ")) + ".",
        reasons,
      });
      continue;
    }
    firstLineOf.set(orderNumber, row.line);
    lines.push({ line: row.line, courierOrderNumber: orderNumber, amount: amount.fils, day });
  }
  problems.sort((a, b) => a.line - b.line);
  return { lines, problems };
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
