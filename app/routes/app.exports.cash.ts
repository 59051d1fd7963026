import type { LoaderFunctionArgs } from "@remix-run/node";
import { cashLedgerExport } from "../pages/cash-export.server";
import { csvDownloadHeaders, csvStream } from "../domain/csv";
import { languageOf } from "../i18n/config";
import { authenticate } from "../shopify.server";

/** The cash ledger as CSV, streamed as it is read; `lang` is the page's language. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const search = new URL(request.url).searchParams;
  const csv = await cashLedgerExport(session.shop, languageOf(search.get("lang")) ?? "en");
  return new Response(csvStream(csv.header, csv.batches), {
    headers: csvDownloadHeaders(`cash-on-delivery-${new Date().toISOString().slice(0, 10)}.csv`),
  });
};
