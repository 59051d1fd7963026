import prisma from "../db.server";
import { notice, type Notice } from "../domain/notices";
import { findDelivery } from "../models/deliveries.server";
import { findAskForOrder, type AskRow } from "../models/shopper-asks.server";
import { shopifyAdminFor } from "../services/shopify-admin.server";
import type { AdminGraphql } from "../shopify/graphql";
import { cancelDelivery } from "./cancel.server";
import { refusedWhenMoved } from "./merchant-action.server";
import { sendOrdersToCourier } from "./send.server";

/**
 * "Send again with this answer" (issue 27, item 5): the courier has no way to change an order, so
 * a delivery that failed is sent again the way a cancelled order is (ADR 0044) — its courier order
 * cancelled together with its Shopify fulfillment, then the order sent as a new delivery, which
 * the worker builds with the shopper's answer (the place, the phone, and when they will be in in
 * the driver's notes). The merchant's button and the automatic resend (Settings) are this one
 * function: a delivery already sent again, or a cancellation still under way, sends nothing, and
 * the order's open fulfillment order keeps it to one new delivery however often it is triggered.
 */
export type SendAgainOutcome =
  | { ok: true; state: "sent"; deliveryId: string }
  | { ok: true; state: "requested"; message: Notice }
  | { ok: false; error: Notice };

const REASON = "sent again with the customer's answer after a failed attempt";

/** The answer given after this delivery's failed attempt, or null. */
export function rescueAnswerFor(ask: AskRow | null, deliveryId: string) {
  if (
    !ask?.answer ||
    ask.kind !== "after_failed_attempt" ||
    ask.deliveryId !== deliveryId ||
    ask.state !== "answered" ||
    ask.answer.areaId === null
  )
    return null;
  return ask.answer;
}

/** The order's delivery made after this one and still live: what it was sent again as. */
export async function sentAgainAs(delivery: {
  shop: string;
  orderId: string;
  createdAt: Date;
}): Promise<string | null> {
  const newer = await prisma.delivery.findFirst({
    where: {
      shop: delivery.shop,
      orderId: delivery.orderId,
      createdAt: { gt: delivery.createdAt },
      state: { notIn: ["cancelled", "skipped"] },
    },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  return newer?.id ?? null;
}

export const sendAgainWithAnswer = refusedWhenMoved(async function sendAgainWithAnswer(
  shop: string,
  deliveryId: string,
  { admin }: { admin?: AdminGraphql } = {},
): Promise<SendAgainOutcome> {
  const delivery = await findDelivery(shop, deliveryId);
  if (!delivery) return { ok: false, error: notice("no_such_delivery") };
  const ask = await findAskForOrder(shop, delivery.orderId);
  if (!rescueAnswerFor(ask, delivery.id)) return { ok: false, error: notice("rescue_no_answer") };
  if (await sentAgainAs(delivery)) return { ok: false, error: notice("rescue_already_sent") };
  let current = delivery;
  if (current.state !== "cancelled" || !current.shopifyCancelledAt) {
    const cancelled = await cancelDelivery(shop, delivery.id, REASON, {
      admin,
      cancelFulfillment: true,
    });
    if (!cancelled.ok) return cancelled;
    if (cancelled.state === "requested")
      return { ok: true, state: "requested", message: notice("rescue_cancel_waits") };
    if (cancelled.shopify?.fulfillment === "not_cancelled")
      return { ok: false, error: cancelled.shopify.error };
    current = (await findDelivery(shop, delivery.id)) ?? current;
    if (!current.shopifyCancelledAt)
      return { ok: false, error: notice("still_fulfilled_in_shopify") };
  }
  const [outcome] = await sendOrdersToCourier(
    shop,
    admin ?? (await shopifyAdminFor(shop)),
    [delivery.orderId],
    "manual",
  );
  if (!outcome) return { ok: false, error: notice("order_not_open") };
  return outcome.ok
    ? { ok: true, state: "sent", deliveryId: outcome.deliveryId }
    : { ok: false, error: outcome.error };
});
