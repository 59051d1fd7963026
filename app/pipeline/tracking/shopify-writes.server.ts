import type { DeliveryRow } from "../../models/delivery-row.server";
import type { ShopSettingsRow } from "../../models/shop.server";
import {
  createFulfillmentEvent,
  markOrderPaid,
  shopifyFailureKind,
  shopifyFailureMessage,
} from "../../shopify/fulfillment-events";
import { Unreadable } from "../../domain/json-column";
import type { OwedShopifyEvent } from "../../domain/owed-shopify-event";
import { ShopPaused, type ShopContext } from "./context.server";

/**
 * What the tracking sync writes to Shopify: a delivery's shipment status as a fulfillment event,
 * and the payment of a delivered cash-on-delivery order. What Shopify refuses does not stop the
 * delivery from following the courier: it is owed to Shopify (`Delivery.shopifyPending`) and tried
 * again with backoff; throttled or unreachable, the shop pauses.
 */

/** How long a shop rests after Shopify asked the app to slow down or could not be reached. */
const SHOPIFY_PAUSE_MS = 10_000;

/**
 * The shipment status Shopify refused and the app still owes it, if any. One that no longer reads
 * cannot be written again: it is not owed (the next status the courier reports is written).
 */
export function owedShipmentEvent(
  delivery: Pick<DeliveryRow, "shopifyPending">,
): OwedShopifyEvent | null {
  return delivery.shopifyPending instanceof Unreadable ? null : delivery.shopifyPending;
}

/**
 * When an owed Shopify write is tried again: 15 minutes after the first refusal, doubling, at
 * most a day apart; never once the delivery has been final for a week.
 */
export function shopifyRetryDelayMs(attempts: number): number {
  return Math.min(24 * 60 * 60_000, 15 * 60_000 * 2 ** Math.max(0, attempts - 1));
}
export const OWED_AFTER_FINAL_MS = 7 * 24 * 60 * 60_000;

/** The fields that record an owed Shopify write after a refusal in this look. */
export function refusedData(
  delivery: Pick<DeliveryRow, "shopifyAttempts">,
  now: Date,
  reason: string,
) {
  const attempts = delivery.shopifyAttempts + 1;
  return {
    shopifyAttempts: attempts,
    shopifyRetryAt: new Date(now.getTime() + shopifyRetryDelayMs(attempts)),
    lastError: reason.slice(0, 500),
  };
}

/**
 * One Shopify write: done, or refused with the reason (for the timeline and a later try). Throttled
 * or unreachable: the shop pauses and the look ends where it was.
 */
async function shopifyWrite(
  write: () => Promise<unknown>,
  now: Date,
): Promise<{ refused: string | null }> {
  try {
    await write();
    return { refused: null };
  } catch (error) {
    const kind = shopifyFailureKind(error);
    if (kind === "throttled" || kind === "unavailable") {
      throw new ShopPaused(
        now.getTime() + SHOPIFY_PAUSE_MS,
        kind === "throttled"
          ? "Shopify asked the app to slow down; the shipment status follows shortly."
          : "Shopify could not be reached; the shipment status follows shortly.",
      );
    }
    if (kind === "refused") return { refused: shopifyFailureMessage(error) };
    throw error;
  }
}

/** A shipment status on the Shopify fulfillment: news from the courier, or one Shopify owes. */
export function writeShipmentEvent(
  context: Pick<ShopContext, "admin">,
  fulfillmentId: string,
  event: OwedShopifyEvent,
  now: Date,
): Promise<{ refused: string | null }> {
  return shopifyWrite(
    async () =>
      createFulfillmentEvent(await context.admin(), {
        fulfillmentId,
        status: event.status,
        happenedAt: event.happenedAt ? new Date(event.happenedAt) : null,
        message: event.message,
      }),
    now,
  );
}

function isCashOnDelivery(delivery: DeliveryRow, settings: ShopSettingsRow | null): boolean {
  if (!settings?.paymentCodeCod || settings.paymentCodeCod === settings.paymentCodePrepaid)
    return false;
  const request = delivery.request;
  // A request erased by customers/redact keeps its payment method (domain/redaction.ts): the cash
  // was still collected. One that no longer reads says nothing of it: not marked paid.
  if (request === null || request instanceof Unreadable) return false;
  return request.body.paymentMethod === settings.paymentCodeCod;
}

/** Whether the order is owed its payment: cash collected on delivery, and the merchant asked. */
export function paymentOwed(delivery: DeliveryRow, settings: ShopSettingsRow | null): boolean {
  return (
    delivery.state === "delivered" &&
    !delivery.paidMarkedAt &&
    !!settings?.markCodPaid &&
    isCashOnDelivery(delivery, settings)
  );
}

/** Marks the order paid in Shopify: done (or found paid already), or refused with the reason. */
export async function writeOrderPaid(
  context: Pick<ShopContext, "admin">,
  orderId: string,
  now: Date,
): Promise<{ refused: null; outcome: "paid" | "already_paid" } | { refused: string }> {
  let outcome: "paid" | "already_paid" = "paid";
  const { refused } = await shopifyWrite(async () => {
    outcome = await markOrderPaid(await context.admin(), orderId);
  }, now);
  if (refused === null) return { refused, outcome };
  return {
    refused: refused.startsWith("Shopify did not mark")
      ? refused
      : `Shopify did not mark the order paid: ${refused}`,
  };
}
