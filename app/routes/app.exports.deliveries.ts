import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { DELIVERY_STATES } from "../deliveries/domain/states";
import { csvDownloadHeaders, csvStream } from "../exports/csv";
import { DELIVERY_EXPORT_HEADER, deliveryExportBatches } from "../models/record-exports.server";
import { authenticate } from "../shopify.server";

const exportQuery = z.object({
  state: z
    .union([z.enum(DELIVERY_STATES), z.literal("attention")])
    .optional()
    .catch(undefined),
  q: z.string().trim().max(100).optional().catch(undefined),
});

/** The deliveries list as CSV, with the page's filters (`state`, `q`), streamed as it is read. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const query = exportQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const batches = deliveryExportBatches({
    shop: session.shop,
    state: query.state,
    search: query.q || undefined,
  });
  return new Response(csvStream(DELIVERY_EXPORT_HEADER, batches), {
    headers: csvDownloadHeaders(`deliveries-${new Date().toISOString().slice(0, 10)}.csv`),
  });
};
