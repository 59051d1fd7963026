import type { LoaderFunctionArgs } from "@remix-run/node";
import { deliveriesExport } from "../pages/deliveries-export.server";
import { csvDownloadHeaders, csvStream } from "../domain/csv";
import { languageOf } from "../i18n/config";
import { authenticate } from "../shopify.server";

/**
 * The deliveries list as CSV with the list page's URL parameters (tab, filters, search, sort),
 * streamed as it is read. `lang` is the page's language (its column titles and states).
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const search = new URL(request.url).searchParams;
  const csv = await deliveriesExport(session.shop, search, languageOf(search.get("lang")) ?? "en");
  return new Response(csvStream(csv.header, csv.batches), {
    headers: csvDownloadHeaders(csv.fileName),
  });
};
