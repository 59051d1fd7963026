import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { BULK_LIMIT } from "../domain/limits";
import { readSendStatuses } from "../actions/send-status.server";
import { authenticate } from "../shopify.server";

// Where the deliveries of a send stand; the Send page polls this until each has settled.
const statusQuery = z.object({
  ids: z
    .string()
    .max(10_000)
    .transform((ids) => ids.split(",").filter(Boolean))
    .pipe(
      z
        .array(z.string().regex(/^[a-z0-9]{20,40}$/, "Unknown delivery."))
        .min(1, "Name at least one delivery.")
        .max(BULK_LIMIT, `Ask for at most ${BULK_LIMIT} deliveries.`),
    ),
});

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const parsed = statusQuery.safeParse({
    ids: new URL(request.url).searchParams.get("ids") ?? "",
  });
  if (!parsed.success) {
    return Response.json(
      { statuses: [], error: parsed.error.issues[0]?.message ?? "Invalid request." },
      { status: 400 },
    );
  }
  return Response.json({
    statuses: await readSendStatuses(session.shop, parsed.data.ids),
    error: null,
  });
};
