import { isCourierError, type CourierClient } from "../courier";
import { addDeliveryEvent, type DeliveryRow } from "../models/deliveries.server";
import { recordLateCourierOrder, type LateCourierOrder } from "../models/delivery-state";
import { courierFailure, courierReply, type CourierAnswer } from "../domain/courier-answers";

/**
 * A create that landed after its worker lost the delivery (ADR 0017): the worker was held up past
 * its lease mid-send, and another took the delivery over. The first courier order recorded on the
 * row is the delivery's: this one is recorded if the row still has none and still waits on the
 * courier's answer; otherwise it is cancelled at the courier (a compensating cancel). The timeline
 * says which. The delivery's own order is never the one cancelled.
 */
export type LateOrderOutcome = "recorded" | "already_recorded" | "cancelled" | "not_cancelled";

/** Waits between tries of the compensating cancel while the courier does not answer. */
const CANCEL_RETRY_WAITS_MS = [1_000, 4_000];

export async function settleLateOrder(
  delivery: Pick<DeliveryRow, "shop" | "id">,
  order: LateCourierOrder,
  client: CourierClient | null,
  at: Date,
): Promise<LateOrderOutcome> {
  const recorded = await recordLateCourierOrder(
    delivery.shop,
    delivery.id,
    order,
    {
      message: `Created at the courier as order ${order.orderNumber}: the answer came late, from a sending attempt that had stalled, and the delivery had no courier order yet.`,
      data: courierReply({ orderId: order.orderId, orderNumber: order.orderNumber }),
    },
    at,
  );
  if (recorded === "recorded") return "recorded";
  // History found this very order meanwhile: it is the delivery's, there is nothing to undo.
  if (recorded.courierOrderId === order.orderId) return "already_recorded";
  const second = `A second courier order, ${order.orderNumber}, was created by a sending attempt that had stalled after the delivery was taken over`;
  const theirs = recorded.courierOrderNumber
    ? `The delivery's order is ${recorded.courierOrderNumber}.`
    : `The delivery is ${recorded.state.replaceAll("_", " ")}.`;
  const outcome = await cancelDuplicate(client, order, recorded.courierOrderNumber);
  if (outcome.ok) {
    await addDeliveryEvent(
      delivery.shop,
      delivery.id,
      "duplicate_cancelled",
      `${second}; it was cancelled at the courier. ${theirs}`,
      at,
      courierReply({ cancelled: order.orderId, orderNumber: order.orderNumber }),
    );
    return "cancelled";
  }
  await addDeliveryEvent(
    delivery.shop,
    delivery.id,
    "duplicate_not_cancelled",
    `${second}, and it could not be cancelled (${outcome.message}). Cancel order ${order.orderNumber} with the courier. ${theirs}`,
    at,
    outcome.answer,
  );
  return "not_cancelled";
}

async function cancelDuplicate(
  client: CourierClient | null,
  order: LateCourierOrder,
  kept: string | null,
): Promise<{ ok: true } | { ok: false; message: string; answer?: CourierAnswer }> {
  if (!client) return { ok: false, message: "no courier key can be read" };
  const reason = `Sent twice by mistake${kept ? `: the order to deliver is ${kept}` : ""}.`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      await client.cancel(order.orderId, { reason });
      return { ok: true };
    } catch (error) {
      if (!isCourierError(error)) throw error;
      const waitMs = CANCEL_RETRY_WAITS_MS[attempt];
      // A refusal (already picked up) will not change; an outage may pass in a few seconds.
      if (error.outcome === "rejected" || waitMs === undefined) {
        return { ok: false, message: error.message, answer: courierFailure(error) };
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}
