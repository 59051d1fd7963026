import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { customerDataExport } from "../models/privacy.server";
import { authenticate } from "../shopify.server";

const params = z.object({ id: z.string().min(1).max(64) });

/**
 * The data a customer asked for (customers/data_request), as a JSON file for the merchant to pass
 * on. Built from the rows as they are now; only the shop's own requests are found.
 */
export const loader = async ({ request, params: raw }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const parsed = params.safeParse(raw);
  const data = parsed.success ? await customerDataExport(session.shop, parsed.data.id) : null;
  if (!data) {
    return Response.json(
      { error: "No customer data request with this id in this shop." },
      { status: 404 },
    );
  }
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="customer-data-${parsed.data!.id}.json"`,
      "Cache-Control": "no-store",
    },
  });
};
