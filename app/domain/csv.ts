/**
 * CSV for spreadsheets (RFC 4180): fields quoted when they hold a comma, quote or line break,
 * lines ended with CRLF, UTF-8 with a byte order mark so Excel reads Arabic. A text cell that
 * starts with = + - @ (or a tab or carriage return) would run as a formula when opened, so it gets
 * a leading apostrophe (OWASP's CSV injection advice); a plain number such as -1.250 is data and
 * is left alone. Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069)
 * are removed: a name with a right-to-left override would show its cell, and the cells after it
 * in a text view, reordered (issue 24). Arabic text needs none of them; the marks that only set a
 * direction (U+200E, U+200F, U+061C) stay.
 *
 * {@link csvStream} pulls rows from an async source only as fast as the reader takes them, so an
 * export of any size holds one batch in memory.
 */
export type CsvValue = string | number | boolean | Date | null | undefined;

export const UTF8_BOM = "\uFEFF";
const FORMULA_START = /^[=+\-@\t\r]/;
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let text =
    value instanceof Date ? value.toISOString() : typeof value === "string" ? value : String(value);
  text = text.replace(BIDI_CONTROLS, "");
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly CsvValue[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/** A whole CSV document as text, BOM first (small exports and tests). */
export function csvDocument(
  header: readonly string[],
  rows: Iterable<readonly CsvValue[]>,
): string {
  let text = UTF8_BOM + csvLine(header);
  for (const row of rows) text += csvLine(row);
  return text;
}

/**
 * A byte stream of the CSV: the BOM and header, then each batch of rows `batches` yields, encoded
 * as it is asked for.
 */
export function csvStream(
  header: readonly string[],
  batches: AsyncIterable<readonly (readonly CsvValue[])[]>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = batches[Symbol.asyncIterator]();
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(UTF8_BOM + csvLine(header)));
          return;
        }
        // A pull that enqueues nothing is not called again: go on until a row or the end.
        for (;;) {
          const next = await iterator.next();
          if (next.done) {
            controller.close();
            return;
          }
          let text = "";
          for (const row of next.value) text += csvLine(row);
          if (text !== "") {
            controller.enqueue(encoder.encode(text));
            return;
          }
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 2 },
  );
}

/** The response headers of a CSV download named `fileName`. */
export function csvDownloadHeaders(fileName: string): HeadersInit {
  return {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
    "Cache-Control": "no-store",
  };
}
