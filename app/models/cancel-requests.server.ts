import prisma, { databaseProvider, sqliteConnection } from "../db.server";
import { durableWrite } from "../db/sqlite-connection";
import { type DeliveryState } from "../domain/states";
import { newRowId, sqliteTime } from "./delivery-ids.server";

/** Final states: nothing can be cancelled there. */
const CANCEL_CLOSED: readonly DeliveryState[] = ["cancelled", "skipped", "delivered", "returned"];

/**
 * Records that a delivery is to be cancelled, with an event, and makes it due: the worker (or
 * the caller, if it can take the lease) carries it out, counting its own failures from zero. Committed durably, like webhook intake
 * (ADR 0007): Shopify is told "received" once this returns. False when the delivery is final.
 * `cancelFulfillment`: the merchant also wants the Shopify fulfillment cancelled once the delivery
 * is (ADR 0044); a later request without it does not take that wish back.
 */
export async function requestCancel(
  shop: string,
  id: string,
  reason: string,
  at = new Date(),
  { cancelFulfillment = false }: { cancelFulfillment?: boolean } = {},
): Promise<boolean> {
  const message = cancelFulfillment
    ? `Cancellation requested: ${reason}. The Shopify fulfillment is cancelled too once the delivery is.`
    : `Cancellation requested: ${reason}.`;
  if (databaseProvider() === "postgresql") {
    return prisma.$transaction(async (tx) => {
      const { count } = await tx.delivery.updateMany({
        where: { id, shop, state: { notIn: [...CANCEL_CLOSED] } },
        data: {
          cancelRequestedAt: at,
          cancelReason: reason,
          nextAttemptAt: at,
          failures: 0,
          ...(cancelFulfillment ? { cancelFulfillment: true } : {}),
        },
      });
      if (count !== 1) return false;
      await tx.deliveryEvent.create({
        data: { shop, deliveryId: id, at, kind: "cancel_requested", message },
      });
      return true;
    });
  }
  const db = await sqliteConnection();
  const when = sqliteTime(at);
  return durableWrite(db, () => {
    const changed = db
      .prepare(
        `UPDATE "Delivery" SET "cancelRequestedAt" = ?, "cancelReason" = ?, "nextAttemptAt" = ?,
           "failures" = 0, "updatedAt" = ?${cancelFulfillment ? `, "cancelFulfillment" = 1` : ""}
         WHERE "id" = ? AND "shop" = ?
           AND "state" NOT IN ('cancelled', 'skipped', 'delivered', 'returned')`,
      )
      .run(when, reason, when, when, id, shop).changes;
    if (changed !== 1) return false;
    db.prepare(
      `INSERT INTO "DeliveryEvent" ("id", "shop", "deliveryId", "at", "kind", "message")
       VALUES (?, ?, ?, ?, 'cancel_requested', ?)`,
    ).run(newRowId(at.getTime()), shop, id, when, message);
    return true;
  });
}

/**
 * The delivery's Shopify fulfillment was cancelled (by the app once the delivery was cancelled,
 * or in Shopify): its order can be sent again. Written once; an event says what it means.
 */
export async function recordShopifyFulfillmentCancelled(
  shop: string,
  id: string,
  message: string,
  at = new Date(),
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.delivery.updateMany({
      where: { id, shop, shopifyCancelledAt: null },
      data: { shopifyCancelledAt: at },
    });
    if (count !== 1) return false;
    await tx.deliveryEvent.create({
      data: { shop, deliveryId: id, at, kind: "shopify_fulfillment_cancelled", message },
    });
    return true;
  });
}

/** Shopify cancelled these fulfillments itself (fulfillments/update): their orders may be sent again. */
export async function recordFulfillmentCancelledInShopify(
  shop: string,
  fulfillmentId: string,
  at = new Date(),
): Promise<void> {
  await prisma.delivery.updateMany({
    where: { shop, fulfillmentId, shopifyCancelledAt: null },
    data: { shopifyCancelledAt: at },
  });
}
