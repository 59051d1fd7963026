import { columnsForFile, type StatementColumns, type StatementField } from "./columns";
import { readStatementLines, type LineProblem, type StatementLine } from "./lines";
import { readStatementFile, type StatementTable } from "./read";

export * from "./columns";
export * from "./decode";
export * from "./ledger";
export * from "./lines";
export * from "./read";
export * from "./reconcile";

export type PreparedStatement =
  | {
      ready: true;
      table: StatementTable;
      columns: StatementColumns;
      rememberedColumns: boolean;
      lines: StatementLine[];
      problems: LineProblem[];
    }
  | {
      /** The merchant must say which column is which (the mapping step). */
      ready: false;
      table: StatementTable;
      guess: Record<StatementField, string | null>;
    };

/**
 * A statement file read and its lines parsed, with the shop's remembered columns, or the
 * columns the merchant just chose (`chosen`). Without a complete mapping, the page asks.
 */
export async function prepareStatement(
  bytes: Uint8Array,
  fileName: string,
  remembered: StatementColumns | null,
  chosen?: StatementColumns,
): Promise<PreparedStatement> {
  const table = await readStatementFile(bytes, fileName);
  let columns: StatementColumns;
  let rememberedColumns = false;
  if (chosen) {
    columns = chosen;
  } else {
    const found = columnsForFile(table.headers, remembered);
    if (!found.complete || !found.columns.orderNumber || !found.columns.amount)
      return { ready: false, table, guess: found.columns };
    columns = {
      orderNumber: found.columns.orderNumber,
      amount: found.columns.amount,
      date: found.columns.date,
    };
    rememberedColumns = found.remembered;
  }
  const { lines, problems } = readStatementLines(table, columns);
  return { ready: true, table, columns, rememberedColumns, lines, problems };
}
