import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { receiveCourierPush } from "../actions/courier-push.server";

/** The courier's status pushes for one shop (actions/courier-push.server.ts). */
export const action = async ({ request, params }: ActionFunctionArgs) =>
  request.method === "POST" ? receiveCourierPush(params.token ?? "", request) : onlyPost();

/** The courier only posts here; a GET (a person opening the URL) is told so, not a server error. */
export const loader = (_args: LoaderFunctionArgs) => onlyPost();

function onlyPost() {
  return new Response("Method not allowed: the courier posts its status changes here.", {
    status: 405,
    headers: { Allow: "POST" },
  });
}
