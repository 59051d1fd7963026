import type { Session } from "@shopify/shopify-api";
import { getShopifyAccess } from "../models/shopify-access.server";
import { authenticate, sessionStorage } from "../shopify.server";

/**
 * On a page the merchant opened, while the shop's access is recorded as lost (its refresh token
 * refused, ADR 0015): the stored offline session is dropped and the request authenticated again,
 * which makes the library exchange the page's session token for a new token and refresh token;
 * `afterAuth` then clears the state. A session still in date would otherwise be kept as it is
 * until it ends, and with it the dead refresh token.
 */
export async function reauthoriseIfAccessLost(request: Request, session: Session): Promise<void> {
  if (session.isOnline || !(await getShopifyAccess(session.shop)).lostAt) return;
  await sessionStorage.deleteSession(session.id);
  await authenticate.admin(request);
}
