import type { LoaderFunctionArgs } from "@remix-run/node";
import { sendStatusQuery, type SendStatusResponse } from "../api-contract";
import { readSendStatuses } from "../actions/send-status.server";
import {
  apiError,
  authenticateExtension,
  firstIssue,
  json,
  preflightOnly,
} from "../extension-api/http.server";

// Where the deliveries of a send stand; the bulk action polls it until each has settled.
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop, cors } = await authenticateExtension(request);
  const query = sendStatusQuery.safeParse({
    ids: new URL(request.url).searchParams.get("ids") ?? "",
  });
  if (!query.success) return apiError(cors, 400, firstIssue(query.error));
  const statuses = await readSendStatuses(shop, query.data.ids);
  if (statuses.length < new Set(query.data.ids).size)
    return apiError(cors, 404, "No such delivery in this shop.");
  return json<SendStatusResponse>(cors, { statuses });
};

export const action = preflightOnly;
