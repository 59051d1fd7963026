import type { ActionFunctionArgs } from "@remix-run/node";
import { cancelPageAction } from "../pages/cancel-dialog.server";
import { authenticate } from "../shopify.server";

// The delivery page's cancel dialog (app/components/deliveries/cancel-dialog.tsx): cancel with or
// without the Shopify fulfillment, cancel the fulfillment afterwards, send the order again.
export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const result = await cancelPageAction(
    session.shop,
    admin,
    params.id ?? "",
    await request.formData(),
  );
  if (!result) throw new Response("No such delivery in this shop.", { status: 404 });
  return Response.json(result, { status: result.ok ? 200 : 400 });
};
