import type { Delivery } from "@prisma/client";

/**
 * The public tracking page's URL for a delivery, as it goes on the Shopify fulfillment: its random
 * tracking token, never its row id (ADR 0012). The worker hands over the leased row itself; its
 * dependency type only names the fields it promised, hence the read below, checked at run time.
 */
export function trackingLink(appUrl: string, delivery: Pick<Delivery, "id">): string {
  const token = (delivery as Partial<Pick<Delivery, "trackingToken">>).trackingToken;
  if (typeof token !== "string" || !/^[0-9a-f]{32}$/.test(token)) {
    throw new Error(`Delivery ${delivery.id} has no tracking token.`);
  }
  return `${appUrl}/tracking/${token}`;
}

/** The shopper's page for an ask (issue 26): the same public page, by the ask's own token. */
export function askLink(appUrl: string, token: string): string {
  return `${appUrl}/tracking/${token}`;
}
