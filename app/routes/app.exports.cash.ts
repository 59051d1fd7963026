import type { LoaderFunctionArgs } from "@remix-run/node";
import { parseState, STATE_LABELS } from "../deliveries/domain/states";
import { csvDownloadHeaders, csvStream } from "../exports/csv";
import { cashDeliveryBatches } from "../models/cash-ledger.server";
import { formatKwd } from "../money/kwd";
import { CASH_STATUS_LABELS, cashStatus, expectedCash, kuwaitDay } from "../settlements";
import { authenticate } from "../shopify.server";

const HEADER = [
  "Order",
  "Courier order number",
  "Delivery status",
  "Cash to collect (KWD)",
  "Cash",
  "Delivered on",
  "Paid by the courier on",
  "Marked paid in Shopify on",
];

/** The cash ledger as CSV: every cash-on-delivery delivery, streamed as it is read. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  async function* rows() {
    for await (const batch of cashDeliveryBatches(session.shop)) {
      yield batch.map((d) => [
        d.orderName,
        d.courierOrderNumber,
        STATE_LABELS[parseState(d.state)],
        formatKwd(expectedCash(d)),
        CASH_STATUS_LABELS[cashStatus(d)],
        d.deliveredAt ? kuwaitDay(d.deliveredAt) : null,
        d.settledAt ? kuwaitDay(d.settledAt) : null,
        d.paidMarkedAt ? kuwaitDay(d.paidMarkedAt) : null,
      ]);
    }
  }
  return new Response(csvStream(HEADER, rows()), {
    headers: csvDownloadHeaders(`cash-on-delivery-${new Date().toISOString().slice(0, 10)}.csv`),
  });
};
