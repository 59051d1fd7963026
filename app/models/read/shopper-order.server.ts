import type { ShopperOrderAsk, ShopperOrderDelivery } from "../../domain/shopper-order";
import { trackingSteps } from "../../domain/tracking-steps";
import { expectedDeliveryDay } from "../../domain/working-days";
import { findAskForOrder } from "../shopper-asks.server";
import { latestDelivery } from "./shopper-page.server";

/**
 * What the shopper's blocks in Shopify's thank-you and order status pages read of one order
 * (issue 27): its ask and its latest delivery, both by the shop's unique (shop, order) keys, so a
 * session token of one shop never reaches another shop's rows. Only what the shopper's own page
 * shows: no name, no address, no phone.
 */
export async function shopperOrderRows(
  shop: string,
  orderGid: string,
): Promise<{ ask: ShopperOrderAsk | null; delivery: ShopperOrderDelivery | null }> {
  const [ask, delivery] = await Promise.all([
    findAskForOrder(shop, orderGid),
    latestDelivery(shop, orderGid),
  ]);
  const steps = delivery ? trackingSteps(delivery.events, delivery.state) : null;
  return {
    ask: ask && {
      state: ask.state,
      questions: ask.questions,
      token: ask.token,
      linkExpiresAt: ask.linkExpiresAt,
      confirmationNumber: ask.snapshot?.confirmationNumber ?? null,
    },
    delivery: delivery && {
      trackingToken: delivery.trackingToken,
      courierOrderNumber: delivery.courierOrderNumber,
      step: steps?.done.at(-1)?.step ?? null,
      // As the public page promises it: the next working day after pickup, until an outcome.
      expectedDay:
        steps?.outcome === null && delivery.sent
          ? expectedDeliveryDay(delivery.sent.pickupDate)
          : null,
    },
  };
}
