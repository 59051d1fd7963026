import { z } from "zod";
import {
  listSettlements,
  shopMarkPaidWhen,
  settledUnpaidOrders,
  settlementDifferences,
} from "../models/cash-ledger.server";
import { formatKwd, type Fils } from "../domain/kwd";
import {
  cashDeliveries,
  importStatement,
  markSettledOrdersPaid,
  recordStatementByHand,
  type ImportOutcome,
} from "../services/settlements.server";
import { ledgerByDay, ledgerTotals } from "../domain/settlements";
import type { AdminGraphql } from "../shopify/graphql";

/**
 * The Cash on delivery page (app/routes/app.cash.tsx): what drivers are to collect, what was
 * collected and not yet paid by the courier, what the courier paid, per day and per statement,
 * and its actions (import a statement, record one by hand, mark settled orders paid). Amounts
 * leave as KWD text with three decimals ("12.500"); the page formats them in its language.
 */

const today = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
const kwd = (amount: Fils | null) => (amount === null ? null : formatKwd(amount));

export async function loadCashPage(shop: string, search: URLSearchParams) {
  const [deliveries, settlements, unpaid, markPaidWhen] = await Promise.all([
    cashDeliveries(shop),
    listSettlements(shop),
    settledUnpaidOrders(shop),
    shopMarkPaidWhen(shop),
  ]);
  const asked = search.get("statement");
  const chosen = settlements.find((s) => s.id === asked)?.id ?? settlements[0]?.id ?? null;
  const differences = chosen ? await settlementDifferences(shop, chosen) : [];
  const totals = ledgerTotals(deliveries);
  return {
    today: today(),
    totals: {
      toCollect: formatKwd(totals.toCollect),
      collected: formatKwd(totals.collected),
      settled: formatKwd(totals.settled),
    },
    days: ledgerByDay(deliveries)
      .slice(0, 31)
      .map((d) => ({
        day: d.day,
        deliveries: d.deliveries,
        collected: formatKwd(d.collected),
        settled: formatKwd(d.settled),
      })),
    settlements: settlements.map((s) => ({
      id: s.id,
      receivedOn: s.receivedOn,
      reference: s.reference ?? s.fileName ?? null,
      byHand: s.source === "manual",
      lines: s.lineCount,
      paid: formatKwd(s.statement),
      expected: formatKwd(s.expected),
      differences: s.differences,
    })),
    chosen,
    differences: differences.map((d) => ({
      kind: d.kind,
      line: d.line,
      order: d.orderName,
      deliveryId: d.deliveryId,
      courierOrderNumber: d.courierOrderNumber,
      statement: kwd(d.statementAmount),
      expected: kwd(d.expectedAmount),
    })),
    unpaidOrders: unpaid.length,
    markPaidWhen,
  };
}

export type CashPageData = Awaited<ReturnType<typeof loadCashPage>>;

/** How marking settled orders paid in Shopify went. */
export interface MarkPaidOutcome {
  paid: number;
  alreadyPaid: number;
  failed: { orderName: string | null; message: string }[];
}

export type CashActionResult =
  | (ImportOutcome & { intent: "import" | "manual"; markedPaid?: MarkPaidOutcome })
  | ({ intent: "markPaid" } & MarkPaidOutcome)
  | { intent: "unknown"; kind: "refused"; message: string; problems?: undefined };

const columnsInput = z.object({
  orderNumber: z.string().min(1),
  amount: z.string().min(1),
  date: z
    .string()
    .optional()
    .transform((v) => v || null),
});

/** The page's actions; a statement saved marks its orders paid when the setting says so. */
export async function cashPageAction(
  shop: string,
  admin: AdminGraphql,
  form: FormData,
): Promise<CashActionResult> {
  const intent = String(form.get("intent") ?? "");
  const receivedOn = /^\d{4}-\d{2}-\d{2}$/.test(String(form.get("receivedOn")))
    ? String(form.get("receivedOn"))
    : today();
  const reference =
    String(form.get("reference") ?? "")
      .trim()
      .slice(0, 100) || null;
  const afterSaved = async (outcome: ImportOutcome) =>
    outcome.kind === "saved" && (await shopMarkPaidWhen(shop)) === "settled"
      ? { markedPaid: await markSettledOrdersPaid(shop, admin) }
      : {};
  if (intent === "import") {
    const file = form.get("file");
    if (!(file instanceof Blob) || file.size === 0)
      return { intent, kind: "refused", message: "Choose the statement file first." };
    const columns = form.get("orderNumber")
      ? columnsInput.safeParse({
          orderNumber: form.get("orderNumber"),
          amount: form.get("amount"),
          date: form.get("date") ?? undefined,
        })
      : null;
    if (columns && !columns.success)
      return { intent, kind: "refused", message: "Choose the order number and amount columns." };
    const outcome = await importStatement({
      shop,
      file: new Uint8Array(await file.arrayBuffer()),
      fileName: file instanceof File ? file.name : "statement",
      reference,
      receivedOn,
      columns: columns?.data,
    });
    return { intent, ...outcome, ...(await afterSaved(outcome)) };
  }
  if (intent === "manual") {
    const outcome = await recordStatementByHand({
      shop,
      text: String(form.get("lines") ?? "").slice(0, 200_000),
      reference,
      receivedOn,
    });
    return { intent, ...outcome, ...(await afterSaved(outcome)) };
  }
  if (intent === "markPaid") return { intent, ...(await markSettledOrdersPaid(shop, admin)) };
  return { intent: "unknown", kind: "refused", message: "Unknown action." };
}
