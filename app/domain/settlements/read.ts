import { parse } from "csv-parse/sync";
import { readSheet } from "read-excel-file/node";
import { looksLikeHeader } from "./columns";
import { decodeStatementText, type StatementEncoding } from "./decode";
import type { LineProblem } from "./lines";

/**
 * A statement file as a table: its header row's titles and every row after it, each with the line
 * (CSV) or row (Excel) number the merchant sees in their spreadsheet program. Rows the file itself
 * garbles (an unclosed quote) are reported, never silently dropped.
 */
export interface StatementTable {
  format: "csv" | "xlsx";
  encoding: StatementEncoding | null;
  headers: string[];
  headerLine: number;
  rows: { line: number; cells: string[] }[];
  problems: LineProblem[];
}

export class StatementFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StatementFileError";
  }
}

/** Rows looked at for the header: statements often start with a title and the period. */
const HEADER_SEARCH_ROWS = 15;

const isZip = (bytes: Uint8Array) =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

export async function readStatementFile(bytes: Uint8Array, fileName = ""): Promise<StatementTable> {
  if (bytes.length === 0) throw new StatementFileError("The file is empty.");
  if (isZip(bytes)) return readWorkbook(bytes);
  if (/\.xls$/i.test(fileName) || (bytes[0] === 0xd0 && bytes[1] === 0xcf))
    throw new StatementFileError(
      "This is an old Excel file (.xls). Open it in Excel and save it as .xlsx or CSV, then import that.",
    );
  return readCsv(bytes);
}

function tableFrom(
  format: StatementTable["format"],
  encoding: StatementEncoding | null,
  numbered: { line: number; cells: string[] }[],
  problems: StatementTable["problems"],
): StatementTable {
  const rows = numbered.filter(nonEmpty);
  const header = headerRowOf(rows);
  if (!header) throw new StatementFileError("The file has no rows.");
  return {
    format,
    encoding,
    headers: uniqueTitles(header.cells),
    headerLine: header.line,
    rows: rows.slice(rows.indexOf(header) + 1),
    problems: problems.filter((p) => p.line > header.line),
  };
}

const nonEmpty = (row: { cells: string[] }) => row.cells.some((cell) => cell.trim() !== "");

/** The header among the first rows (statements often start with a title), else the first row. */
function headerRowOf<R extends { cells: string[] }>(rows: R[]): R | undefined {
  return rows.slice(0, HEADER_SEARCH_ROWS).find((row) => looksLikeHeader(row.cells)) ?? rows[0];
}

/** Blank and repeated titles get a name of their own, so each column can be chosen. */
function uniqueTitles(cells: string[]): string[] {
  const seen = new Map<string, number>();
  return cells.map((cell, i) => {
    const title = cell.trim() || `Column ${i + 1}`;
    const count = (seen.get(title) ?? 0) + 1;
    seen.set(title, count);
    return count === 1 ? title : `${title} (${count})`;
  });
}

function sniffDelimiter(text: string): string {
  const firstLines = text
    .split(/\r?\n/, HEADER_SEARCH_ROWS)
    .join("\n")
    .replace(/"[^"]*"/g, "");
  const counts = [",", ";", "\t"].map((d) => [d, firstLines.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]![1] > 0 ? counts[0]![0] : ",";
}

function readCsv(bytes: Uint8Array): StatementTable {
  const { text, encoding } = decodeStatementText(bytes);
  const delimiter = sniffDelimiter(text);
  // The rows are read from the header on: csv-parse expects every record to have as many fields
  // as its first, and builds an error (with a stack trace) for each one that has not, even when
  // told to relax. A statement's title line above its header made that every row: 20,000 errors,
  // 0.8 s of a 20,000-line import (issue 24). The lines above it are read apart, a few at most.
  const above = parseCsv(text, delimiter, { to_line: HEADER_SEARCH_ROWS * 2 }).numbered;
  const headerLine = headerRowOf(above.filter(nonEmpty))?.line ?? 1;
  const { numbered, problems } = parseCsv(text, delimiter, { from_line: headerLine });
  return tableFrom("csv", encoding, numbered, problems);
}

function parseCsv(
  text: string,
  delimiter: string,
  lines: { from_line?: number; to_line?: number },
): { numbered: { line: number; cells: string[] }[]; problems: StatementTable["problems"] } {
  const problems: StatementTable["problems"] = [];
  try {
    // on_record's context is the parser's own (info: true would copy it for every record).
    const numbered = parse(text, {
      ...lines,
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      skip_records_with_error: true,
      // Typed as the library's string[] records; the objects are read back below.
      on_record: (record: string[], context) =>
        ({ line: context.lines, cells: record.map((cell) => cell.trim()) }) as unknown as string[],
      on_skip: (error) => {
        if (error)
          problems.push({
            line: typeof error.lines === "number" ? error.lines : 0,
            problem: `The file itself is broken here (${error.message.replace(/^Invalid [^:]*: /, "")}); fix the row in a spreadsheet program and import again.`,
            reasons: [{ code: "file_broken" }],
          });
        return undefined;
      },
    }) as unknown as { line: number; cells: string[] }[];
    return { numbered, problems };
  } catch (error) {
    throw new StatementFileError(
      `The file cannot be read as CSV: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

async function readWorkbook(bytes: Uint8Array): Promise<StatementTable> {
  let sheet: unknown[][];
  try {
    // Numbers as the cell's own text: amounts stay exact (no binary fractions on the way).
    sheet = await readSheet(Buffer.from(bytes), { parseNumber: (text: string) => text });
  } catch (error) {
    throw new StatementFileError(
      `The Excel file cannot be read (${error instanceof Error ? error.message : String(error)}). Save it again as .xlsx or CSV.`,
    );
  }
  const numbered = sheet.map((row, i) => ({ line: i + 1, cells: row.map(cellText) }));
  return tableFrom("xlsx", null, numbered, []);
}

function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return "";
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  return String(cell).trim();
}
