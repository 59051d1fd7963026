import {
  cashDeliveries,
  ledgerDeliveriesForNumbers,
  recordOrderMarkedPaid,
  rememberedStatementColumns,
  rememberStatementColumns,
  saveSettlement,
  settledUnpaidOrders,
} from "../models/cash-ledger.server";
import { parseKwd } from "../domain/kwd";
import { markOrderPaid } from "../shopify/fulfillment-events";
import type { AdminGraphql } from "../shopify/graphql";
import {
  orderNumberKey,
  prepareStatement,
  reconcileStatement,
  StatementFileError,
  type LineProblem,
  type StatementColumns,
  type StatementLine,
} from "../domain/settlements";

/**
 * The cash page's actions: import a courier statement (read, map, match, save), record one by
 * hand, and mark settled orders paid in Shopify. Files are read in memory (the body limit of
 * /app/cash bounds them).
 */
export type ImportOutcome =
  | {
      kind: "saved";
      settlementId: string;
      lines: number;
      problems: LineProblem[];
      differences: number;
      settled: number;
    }
  | {
      kind: "mapping";
      headers: string[];
      guess: Record<string, string | null>;
      problems?: undefined;
    }
  | { kind: "refused"; message: string; problems?: LineProblem[] };

const lastDayOf = (lines: readonly StatementLine[]) =>
  lines.reduce<string | null>((max, l) => (l.day && (!max || l.day > max) ? l.day : max), null);

async function matchAndSave(
  shop: string,
  lines: StatementLine[],
  meta: {
    source: "file" | "manual";
    fileName?: string | null;
    reference?: string | null;
    receivedOn: string;
  },
) {
  const deliveries = await ledgerDeliveriesForNumbers(
    shop,
    lines.map((l) => l.courierOrderNumber),
    lastDayOf(lines),
  );
  const reconciliation = reconcileStatement({ lines, deliveries });
  const { settlement, settled } = await saveSettlement({ shop, ...meta, lines, reconciliation });
  return { settlement, settled, reconciliation };
}

export async function importStatement(input: {
  shop: string;
  file: Uint8Array;
  fileName: string;
  reference: string | null;
  receivedOn: string;
  columns?: StatementColumns;
}): Promise<ImportOutcome> {
  let prepared;
  try {
    prepared = await prepareStatement(
      input.file,
      input.fileName,
      await rememberedStatementColumns(input.shop),
      input.columns,
    );
  } catch (error) {
    if (error instanceof StatementFileError || error instanceof RangeError)
      return { kind: "refused", message: error.message };
    throw error;
  }
  if (!prepared.ready)
    return { kind: "mapping", headers: prepared.table.headers, guess: prepared.guess };
  if (prepared.lines.length === 0)
    return {
      kind: "refused",
      message: "No line of the statement could be read. Fix the lines below and import it again.",
      problems: prepared.problems,
    };
  if (input.columns) await rememberStatementColumns(input.shop, input.columns);
  const { settlement, settled, reconciliation } = await matchAndSave(input.shop, prepared.lines, {
    source: "file",
    fileName: input.fileName,
    reference: input.reference,
    receivedOn: input.receivedOn,
  });
  return {
    kind: "saved",
    settlementId: settlement.id,
    lines: prepared.lines.length,
    problems: prepared.problems,
    differences: reconciliation.differences.length,
    settled,
  };
}

/** A statement typed in: one "order number, amount" per line (a date may follow). */
export async function recordStatementByHand(input: {
  shop: string;
  text: string;
  reference: string | null;
  receivedOn: string;
}): Promise<ImportOutcome> {
  const lines: StatementLine[] = [];
  const problems: LineProblem[] = [];
  input.text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === "") return;
    const [number = "", amount = ""] = raw.split(/[,\t;]/).map((p) => p.trim());
    const parsed = parseKwd(amount);
    if (!number || !parsed.ok) {
      problems.push({
        line: i + 1,
        problem: !number
          ? "Write the courier order number first, then a comma and the amount."
          : `The amount ${parsed.ok ? "" : parsed.problem}.`,
        reasons: [
          !number || parsed.ok
            ? { code: "manual_order_first" }
            : { code: `amount_${parsed.code}`, column: "", value: amount },
        ],
      });
      return;
    }
    lines.push({
      line: i + 1,
      courierOrderNumber: orderNumberKey(number),
      amount: parsed.fils,
      day: null,
    });
  });
  if (lines.length === 0)
    return { kind: "refused", message: "Type at least one line: order number, amount.", problems };
  const { settlement, settled, reconciliation } = await matchAndSave(input.shop, lines, {
    source: "manual",
    reference: input.reference,
    receivedOn: input.receivedOn,
  });
  return {
    kind: "saved",
    settlementId: settlement.id,
    lines: lines.length,
    problems,
    differences: reconciliation.differences.length,
    settled,
  };
}

/** Marks settled orders paid in Shopify, one order at a time; says how each went. */
export async function markSettledOrdersPaid(shop: string, admin: AdminGraphql) {
  const orders = await settledUnpaidOrders(shop);
  const outcome = {
    paid: 0,
    alreadyPaid: 0,
    failed: [] as { orderName: string | null; message: string }[],
  };
  for (const order of orders) {
    try {
      const result = await markOrderPaid(admin, order.orderId);
      if (result === "paid") outcome.paid += 1;
      else outcome.alreadyPaid += 1;
      await recordOrderMarkedPaid(shop, order.ids);
    } catch (error) {
      outcome.failed.push({
        orderName: order.orderName,
        message: error instanceof Error ? error.message : "Shopify did not answer.",
      });
    }
  }
  return outcome;
}

export { cashDeliveries };
