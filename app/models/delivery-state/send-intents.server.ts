import prisma from "../../db.server";
import { deliveryRow, type DeliveryRow } from "../delivery-row.server";
import { assertMove, closeCancelRequest } from "./transition.server";

/**
 * "Send to courier": the intent, written before Shopify is asked to fulfil the order, waiting
 * (pending, no fulfillment) for it. A second intent for the same reference fails with Prisma's
 * unique-constraint error (P2002): another request wrote it a moment ago.
 */
export async function recordSendIntent(input: {
  shop: string;
  orderId: string;
  orderName: string;
  locationId: string;
  source: "manual" | "bulk";
  environment: string;
  reference: string;
}): Promise<DeliveryRow> {
  const intent = await prisma.delivery.create({
    data: {
      ...input,
      fulfillmentId: null,
      state: "pending",
      events: {
        create: {
          shop: input.shop,
          kind: "received",
          message: `Sent to the courier from the app (${input.source}).`,
        },
      },
    },
  });
  return deliveryRow(intent);
}

/**
 * An intent whose fulfillment order Shopify did not fulfil becomes a skipped row that says why;
 * it no longer holds the order. Only while it still waits for its fulfillment (and, when given,
 * was written before `writtenBefore`): a webhook attaching it first wins. False when someone else
 * moved it first.
 */
export async function skipIntent(
  shop: string,
  deliveryId: string,
  reason: string,
  writtenBefore?: Date,
): Promise<boolean> {
  assertMove("pending", "skipped");
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.delivery.updateMany({
      where: {
        id: deliveryId,
        shop,
        state: "pending",
        fulfillmentId: null,
        ...(writtenBefore ? { createdAt: { lt: writtenBefore } } : {}),
      },
      data: { state: "skipped", stateReason: reason, nextAttemptAt: null },
    });
    if (count === 0) return false;
    const at = new Date();
    await tx.deliveryEvent.create({
      data: {
        shop,
        deliveryId,
        at,
        kind: "skipped",
        message: `Not sent: ${reason} The order can be sent again.`,
      },
    });
    await closeCancelRequest(tx, shop, deliveryId, "skipped", at);
    return true;
  });
}
