import { z } from "zod";
import {
  CourierValidationError,
  isCourierError,
  type CourierClient,
  type OrderRecord,
} from "../courier";
import prisma from "../db.server";
import { getDelivery, type DeliveryRow } from "../models/deliveries.server";
import { transition } from "../models/delivery-state";
import { merchantCourierCalls } from "../services/courier-breaker.server";
import { shopCourierClient } from "../services/courier-connection.server";
import { kickDeliveryWorker } from "../pipeline/drain-loop.server";
import { notesCarryReference } from "../domain/request";
import type { FixOutcome } from "./review.server";
import { notice, type Notice } from "../domain/notices";
import { refusedWhenMoved } from "./merchant-action.server";

/** The shop's courier, through its account's circuit (merchantCourierCalls). */
export async function courierFor(delivery: DeliveryRow): Promise<CourierClient | null> {
  const client = await shopCourierClient(delivery.shop, delivery.environment);
  return (
    client &&
    merchantCourierCalls(client, { shop: delivery.shop, environment: delivery.environment })
  );
}

/**
 * needs_review → created with the courier's order: tracking proceeds from there. Its callers are
 * merchant actions ({@link refusedWhenMoved}): a delivery moved meanwhile is refused in words.
 */
export async function markCreatedWith(
  delivery: DeliveryRow,
  order: Pick<OrderRecord, "orderNumber" | "status"> & { orderId: string },
  message: string,
  said: Notice,
): Promise<FixOutcome> {
  const orderId = order.orderId;
  const taken = await prisma.delivery.findFirst({
    where: { shop: delivery.shop, courierOrderId: orderId, id: { not: delivery.id } },
    select: { orderName: true, reference: true },
  });
  if (taken) {
    return {
      ok: false,
      error: notice("courier_order_linked_elsewhere", {
        other: taken.orderName ?? taken.reference,
      }),
    };
  }
  await transition({
    shop: delivery.shop,
    id: delivery.id,
    from: "needs_review",
    to: "created",
    leaseOwner: null,
    data: {
      courierOrderId: orderId,
      courierOrderNumber: order.orderNumber ?? orderId,
      courierStatus: order.status,
      unknownSince: null,
      stateReason: null,
      lastError: null,
      failures: 0,
      // The worker puts the tracking number on Shopify next.
      nextAttemptAt: new Date(),
    },
    event: {
      kind: "reconciled",
      message,
      data: { courier: { orderId, orderNumber: order.orderNumber, status: order.status } },
    },
  });
  kickDeliveryWorker();
  return { ok: true, message: said };
}

export const markCreatedForm = z.object({
  courierOrder: z.string().trim().min(1, "enter_courier_number").max(100, "not_courier_number"),
});

/**
 * "Mark created": the merchant found the order at the courier (its portal, a call) for a
 * delivery whose outcome nobody could confirm. The number is checked with the courier (a get,
 * after a history search when it is an order number rather than an id); an order that names
 * another delivery's reference, or is linked to one already, is refused.
 */
export const markDeliveryCreated = refusedWhenMoved(async function markDeliveryCreated(
  shop: string,
  deliveryId: string,
  form: Record<string, unknown>,
): Promise<FixOutcome> {
  const parsed = markCreatedForm.safeParse(form);
  if (!parsed.success) {
    // The schema's messages are notice codes.
    const code = parsed.error.issues[0]?.message;
    return {
      ok: false,
      error: notice(code === "not_courier_number" ? code : "enter_courier_number"),
    };
  }
  const wanted = parsed.data.courierOrder;
  const delivery = await getDelivery(shop, deliveryId);
  if (delivery?.state !== "needs_review") {
    return { ok: false, error: notice("only_review_mark_created") };
  }
  const client = await courierFor(delivery);
  if (!client) return { ok: false, error: notice("connect_courier_first") };
  let order: OrderRecord | null;
  try {
    order = await lookUpCourierOrder(client, wanted);
  } catch (error) {
    if (!isCourierError(error)) throw error;
    console.warn(`The courier could not be asked about ${wanted}: ${error.message}`);
    return { ok: false, error: notice("courier_lookup_failed", { number: wanted }) };
  }
  if (!order?.orderId) {
    return { ok: false, error: notice("courier_has_no_order", { number: wanted }) };
  }
  const notes = typeof order.raw.notes === "string" ? order.raw.notes : "";
  const otherReference = /SHPFY-[A-Za-z0-9-]+/.exec(notes)?.[0];
  if (otherReference && !notesCarryReference(notes, delivery.reference)) {
    return {
      ok: false,
      error: notice("order_for_other_delivery", {
        number: wanted,
        other: otherReference,
        reference: delivery.reference,
      }),
    };
  }
  return markCreatedWith(
    delivery,
    { ...order, orderId: order.orderId },
    `Marked created by the merchant: courier order ${order.orderNumber ?? order.orderId}, confirmed by the courier (status ${order.status ?? "unknown"}).`,
    notice("marked_created", { number: order.orderNumber ?? order.orderId }),
  );
});

/** The courier's order by its id, or by its number through history; null when it has none. */
async function lookUpCourierOrder(client: CourierClient, wanted: string) {
  try {
    return await client.getOrder(wanted);
  } catch (error) {
    // Not an id the courier knows: perhaps its order number.
    if (!(error instanceof CourierValidationError)) throw error;
  }
  const page = await client.history({ search: wanted, pageSize: 50 });
  const match = page.orders.find((o) => o.orderNumber === wanted || o.orderId === wanted);
  return match?.orderId ? client.getOrder(match.orderId) : null;
}
