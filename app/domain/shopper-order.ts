// One public page behind either token (the ask's or the delivery's): the same link shape.
import { askLink as pageLink } from "./tracking-link";
import type { AskState } from "./shopper-ask";
import { JOURNEY } from "./tracking-steps";

/**
 * What the shopper's blocks inside Shopify's own pages show of an order (issue 27): the open
 * question with the shopper's link, and the delivery's status in the shopper's words, the same
 * as the public page shows. Pure: the rows are read by the caller, scoped to the shop.
 *
 * The blocks name an order by its id, which is no secret; its confirmation number (shown to the
 * buyer on the thank-you and order status pages, kept from orders/create) is what proves the
 * caller is that order's shopper. Without it nothing is answered, as for an unknown order.
 */
export const SHOPPER_STATUSES = ["preparing", ...JOURNEY] as const;
export type ShopperStatus = (typeof SHOPPER_STATUSES)[number];

export interface ShopperOrderAsk {
  state: AskState;
  questions: ("address" | "cash")[];
  token: string;
  linkExpiresAt: Date;
  confirmationNumber: string | null;
}

export interface ShopperOrderDelivery {
  trackingToken: string | null;
  courierOrderNumber: string | null;
  /** The parcel's last step (from the timeline), or null before the courier has it. */
  step: (typeof JOURNEY)[number] | null;
  expectedDay: string | null;
}

export interface ShopperOrderAnswer {
  ask: {
    /** The app is still deciding whether to ask (orders/create arrived a moment ago). */
    checking: boolean;
    open: boolean;
    questions: ("address" | "cash")[];
    link: string | null;
  } | null;
  delivery: {
    status: ShopperStatus;
    expectedDay: string | null;
    trackingLink: string | null;
  } | null;
}

export const NOTHING_TO_SHOW: ShopperOrderAnswer = { ask: null, delivery: null };

/** Confirmation numbers as Shopify prints them ("F3KQ7ZP1X"), compared without case or spaces. */
export function sameConfirmation(stored: string | null, given: string): boolean {
  const clean = (value: string) => value.replace(/\s+/g, "").toUpperCase();
  return stored !== null && clean(stored) !== "" && clean(stored) === clean(given);
}

export function shopperOrderAnswer(
  rows: { ask: ShopperOrderAsk | null; delivery: ShopperOrderDelivery | null },
  confirmation: string,
  appUrl: string,
  now: Date,
): ShopperOrderAnswer {
  const { ask, delivery } = rows;
  if (!ask || !sameConfirmation(ask.confirmationNumber, confirmation)) return NOTHING_TO_SHOW;
  const live = ask.linkExpiresAt > now;
  const open = ask.state === "asked" && live;
  return {
    ask: {
      checking: ask.state === "checking",
      open,
      questions: open ? ask.questions : [],
      link: open ? pageLink(appUrl, ask.token) : null,
    },
    delivery: delivery
      ? {
          status: delivery.courierOrderNumber && delivery.step ? delivery.step : "preparing",
          expectedDay: delivery.expectedDay,
          trackingLink:
            delivery.courierOrderNumber && delivery.trackingToken
              ? pageLink(appUrl, delivery.trackingToken)
              : null,
        }
      : null,
  };
}
