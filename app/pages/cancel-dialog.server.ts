import { z } from "zod";
import prisma from "../db.server";
import { findDelivery, type DeliveryRow } from "../models/deliveries.server";
import type { AdminGraphql } from "../shopify/graphql";
import { cancelDelivery } from "../actions/cancel.server";
import { notice, type Notice } from "../domain/notices";
import { FINAL } from "../pipeline/steps/cancel.server";
import { sendOrdersToCourier } from "../actions/send.server";
import { refusedWhenMoved } from "../actions/merchant-action.server";

/**
 * What the cancel dialog and the actions after a cancellation need of a delivery (ADR 0044):
 * whether it can be cancelled, what cancelling does (at the courier or not yet sent, cash it was
 * to collect), whether there is a Shopify fulfillment to cancel with it, and once it is cancelled,
 * whether its fulfillment is gone (the order can be sent again) or kept.
 */
export interface CancelChoices {
  canCancel: boolean;
  /** A cancellation is recorded and still being carried out. */
  requested: boolean;
  /** The courier has (or may have) the order: cancelling asks the courier. */
  atCourier: boolean;
  /** The driver has the parcel (picked up, in transit, out for delivery): the courier usually refuses. */
  withDriver: boolean;
  /** Cash the driver was to collect, KWD as text. */
  cashToCollect: string | null;
  /** There is a Shopify fulfillment the merchant may cancel with the delivery. */
  hasFulfillment: boolean;
  /** Once cancelled: the fulfillment was cancelled ("cancelled") or is still there ("kept"). */
  fulfillment: "cancelled" | "kept" | null;
  /** Cancelled, and its order unfulfilled again in Shopify: "Send again" makes a new delivery. */
  canSendAgain: boolean;
  /** The order was sent again since: its newer delivery, which the page links to. */
  sentAgainAs: string | null;
}

const WITH_DRIVER = new Set(["picked_up", "in_transit", "out_for_delivery"]);
const NOT_AT_COURIER = new Set(["pending", "needs_address", "ready", "rejected"]);

export async function cancelChoicesFor(delivery: DeliveryRow): Promise<CancelChoices> {
  const cancelled = delivery.state === "cancelled";
  const hasFulfillment = delivery.fulfillmentId !== null;
  const fulfillmentGone = delivery.shopifyCancelledAt !== null;
  const newer =
    cancelled && fulfillmentGone
      ? await prisma.delivery.findFirst({
          where: {
            shop: delivery.shop,
            orderId: delivery.orderId,
            createdAt: { gt: delivery.createdAt },
            state: { notIn: ["cancelled", "skipped"] },
          },
          orderBy: { createdAt: "desc" },
          select: { id: true },
        })
      : null;
  return {
    canCancel: !cancelled && !FINAL.includes(delivery.state) && !delivery.cancelRequestedAt,
    requested: !cancelled && delivery.cancelRequestedAt !== null,
    atCourier:
      delivery.courierOrderId !== null ||
      !(
        NOT_AT_COURIER.has(delivery.state) ||
        (delivery.state === "needs_attention" && !delivery.courierOrderId)
      ),
    withDriver: WITH_DRIVER.has(delivery.state),
    cashToCollect: delivery.cashToCollect,
    hasFulfillment,
    fulfillment: cancelled && hasFulfillment ? (fulfillmentGone ? "cancelled" : "kept") : null,
    canSendAgain: cancelled && fulfillmentGone && !newer,
    sentAgainAs: newer?.id ?? null,
  };
}

const cancelForm = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("cancel"),
    /** "cancel": the Shopify fulfillment too; "keep": the order stays fulfilled in Shopify. */
    fulfillment: z.enum(["cancel", "keep"], { error: "choose_fulfillment" }),
  }),
  z.object({ intent: z.literal("cancel_fulfillment") }),
  z.object({ intent: z.literal("send_again") }),
]);

export type CancelPageResult =
  | {
      ok: true;
      intent: "cancel" | "cancel_fulfillment";
      state: "cancelled" | "requested";
      /** What became of the Shopify fulfillment. */
      fulfillment: "cancelled" | "kept" | "not_cancelled" | "later";
      /** Why the fulfillment was not cancelled, or why the cancellation waits. */
      message: Notice | null;
    }
  | { ok: true; intent: "send_again"; deliveryId: string }
  | { ok: false; error: Notice };

/** Merchant-facing reason (the delivery page's cancel dialog). */
const REASON = "cancelled by the merchant in the app";

/**
 * The delivery page's cancel dialog and what follows it: cancel (with or without the Shopify
 * fulfillment), cancel the Shopify fulfillment of a delivery cancelled earlier, and send the order
 * again as a new delivery. Null when the delivery is not this shop's.
 */
export async function cancelPageAction(
  shop: string,
  admin: AdminGraphql,
  id: string,
  formData: FormData,
): Promise<CancelPageResult | null> {
  const delivery = await findDelivery(shop, id);
  if (!delivery) return null;
  const parsed = cancelForm.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    // The schema's messages are notice codes; anything else reads as a form that was not read.
    const code = parsed.error.issues[0]?.message;
    return {
      ok: false,
      error: notice(code === "choose_fulfillment" ? "choose_fulfillment" : "invalid_form"),
    };
  }
  const form = parsed.data;
  if (form.intent === "send_again") return sendCancelledOrderAgain(shop, admin, delivery);
  const cancelFulfillment = form.intent === "cancel_fulfillment" || form.fulfillment === "cancel";
  if (form.intent === "cancel_fulfillment" && delivery.state !== "cancelled") {
    return { ok: false, error: notice("cancel_delivery_first") };
  }
  const outcome = await cancelDelivery(shop, id, REASON, { admin, cancelFulfillment });
  if (!outcome.ok) return outcome;
  if (outcome.state === "requested") {
    return {
      ok: true,
      intent: form.intent,
      state: "requested",
      fulfillment: cancelFulfillment ? "later" : "kept",
      message: outcome.message,
    };
  }
  const shopify = outcome.shopify;
  return {
    ok: true,
    intent: form.intent,
    state: "cancelled",
    fulfillment: !cancelFulfillment
      ? "kept"
      : !shopify || shopify.fulfillment === "cancelled"
        ? "cancelled"
        : "not_cancelled",
    message: shopify?.fulfillment === "not_cancelled" ? shopify.error : null,
  };
}

/**
 * "Send again" after a cancellation: the order, unfulfilled again in Shopify, goes the way of
 * "Send to courier" (a new intent, a new fulfillment, a new delivery). The open fulfillment order
 * and the intent's unique reference keep it to one live delivery however often it is clicked.
 */
export const sendCancelledOrderAgain = refusedWhenMoved(async function sendCancelledOrderAgain(
  shop: string,
  admin: AdminGraphql,
  delivery: DeliveryRow,
): Promise<CancelPageResult> {
  if (delivery.state !== "cancelled") {
    return { ok: false, error: notice("only_cancelled_send_again") };
  }
  if (!delivery.shopifyCancelledAt) {
    return { ok: false, error: notice("still_fulfilled_in_shopify") };
  }
  const [outcome] = await sendOrdersToCourier(shop, admin, [delivery.orderId], "manual");
  if (!outcome) return { ok: false, error: notice("order_not_open") };
  return outcome.ok
    ? { ok: true, intent: "send_again", deliveryId: outcome.deliveryId }
    : { ok: false, error: outcome.error };
});
