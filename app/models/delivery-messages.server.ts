import type { Prisma } from "@prisma/client";
import { messageLanguage } from "../domain/shopper-chat";
import { messageDedupeKey } from "../domain/shopper-message";
import type { DeliveryState } from "../domain/states";
import { queueShopperMessage } from "./shopper-messages.server";

/**
 * Inside the transaction that moved a delivery to `to`: the WhatsApp message the move owes the
 * shopper (issue 27), committed with it, once per delivery. Out for delivery: "it comes today",
 * with the tracking link. Nothing for a shop without WhatsApp on (queueShopperMessage checks).
 */
export async function queueDeliveryMoveMessage(
  tx: Prisma.TransactionClient,
  shop: string,
  id: string,
  to: DeliveryState,
  at: Date,
): Promise<void> {
  if (to !== "out_for_delivery") return;
  const delivery = await tx.delivery.findFirst({
    where: { shop, id },
    select: { orderId: true, orderName: true, customerPhone: true, customerLanguage: true },
  });
  if (!delivery) return;
  await queueShopperMessage(tx, {
    shop,
    orderId: delivery.orderId,
    orderName: delivery.orderName,
    deliveryId: id,
    purpose: "out_for_delivery",
    dedupeKey: messageDedupeKey("out_for_delivery", { deliveryId: id }),
    language: messageLanguage(delivery.customerLanguage),
    phone: delivery.customerPhone,
    at,
  });
}
