import prisma from "../../db.server";
import { eventDataColumn, type EventData } from "../../domain/event-data";
import { type DeliveryState } from "../../domain/states";
import { deliveryRow, type DeliveryRow } from "../delivery-row.server";

/** Where a courier order may still be recorded by a worker that no longer holds the row. */
const UNDECIDED: readonly DeliveryState[] = ["creating", "unknown", "needs_review"];

export interface LateCourierOrder {
  orderId: string;
  orderNumber: string;
  status: string | null;
}

/**
 * A courier order created by a worker that lost the row before it could record it (ADR 0017):
 * recorded as the delivery's order when the row has none yet and has not moved past the
 * courier's answer (`creating`, `unknown`, `needs_review`), whoever holds it now — a
 * compare-and-set on the missing order, so of two creates the first recorded is the delivery's.
 * Returns "recorded", or the row as it is when another order (or none, for good) is the
 * delivery's: the caller then cancels its own at the courier.
 */
export async function recordLateCourierOrder(
  shop: string,
  id: string,
  order: LateCourierOrder,
  event: { message: string; data?: EventData },
  at: Date,
): Promise<"recorded" | DeliveryRow> {
  const recorded = await prisma.$transaction(async (tx) => {
    const { count } = await tx.delivery.updateMany({
      where: { id, shop, courierOrderId: null, state: { in: [...UNDECIDED] } },
      data: {
        state: "created",
        courierOrderId: order.orderId,
        courierOrderNumber: order.orderNumber,
        courierStatus: order.status,
        unknownSince: null,
        notInHistorySince: null,
        lastError: null,
        stateReason: null,
        failures: 0,
        waitingSince: null,
        waitingFor: null,
        nextAttemptAt: at,
        // Whoever holds it loses it: its own create, if it sent one, is cancelled when it finds
        // this order recorded.
        leaseOwner: null,
        leaseExpiresAt: null,
      },
    });
    if (count !== 1) return false;
    await tx.deliveryEvent.create({
      data: {
        shop,
        deliveryId: id,
        at,
        kind: "created",
        message: event.message,
        data: event.data === undefined ? null : eventDataColumn.encode(event.data),
      },
    });
    return true;
  });
  return recorded
    ? "recorded"
    : deliveryRow(await prisma.delivery.findFirstOrThrow({ where: { shop, id } }));
}
