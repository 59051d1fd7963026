import type { LoaderFunctionArgs } from "@remix-run/node";
import { labelsQuery } from "../api-contract";
import {
  apiError,
  authenticateExtension,
  firstIssue,
  preflightOnly,
} from "../extension-api/http.server";
import { printableLabels } from "../extension-api/labels.server";
import { renderLabelsDocument } from "../labels";
import { embeddedPageCsp } from "../security/frame-policy";

// The print actions' document: one label per page, for the orders or deliveries named.
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop, admin, cors } = await authenticateExtension(request);
  const search = new URL(request.url).searchParams;
  const query = labelsQuery.safeParse({
    orderIds: search.get("orderIds") ?? undefined,
    deliveryIds: search.get("deliveryIds") ?? undefined,
    size: search.get("size") ?? undefined,
  });
  if (!query.success) return apiError(cors, 400, firstIssue(query.error));
  const outcome = await printableLabels(shop, admin, query.data);
  if (!outcome.ok) return apiError(cors, outcome.status, outcome.error);
  const html = renderLabelsDocument(outcome.labels, { size: query.data.size });
  return cors(
    new Response(html, {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        // Framed by the admin's print preview of the verified shop; the labels carry customers'
        // names and addresses, and nothing on them runs scripts or loads anything.
        "Content-Security-Policy": `${embeddedPageCsp(shop)}; default-src 'none'; style-src 'unsafe-inline'; font-src data:; img-src data:`,
      },
    }),
  );
};

export const action = preflightOnly;
