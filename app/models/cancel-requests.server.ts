import prisma, { databaseProvider, sqliteConnection } from "../db.server";
import { durableTransaction } from "../db/sqlite-connection";
import { type DeliveryState } from "../deliveries/domain/states";
import { newRowId, sqliteTime } from "./delivery-ids.server";

/** Final states: nothing can be cancelled there. */
const CANCEL_CLOSED: readonly DeliveryState[] = ["cancelled", "skipped", "delivered", "returned"];

/**
 * Records that a delivery is to be cancelled, with an event, and makes it due: the worker (or
 * the caller, if it can take the lease) carries it out, counting its own failures from zero. Committed durably, like webhook intake
 * (ADR 0007): Shopify is told "received" once this returns. False when the delivery is final.
 */
export async function requestCancel(
  shop: string,
  id: string,
  reason: string,
  at = new Date(),
): Promise<boolean> {
  const message = `Cancellation requested: ${reason}.`;
  if (databaseProvider() === "postgresql") {
    return prisma.$transaction(async (tx) => {
      const { count } = await tx.delivery.updateMany({
        where: { id, shop, state: { notIn: [...CANCEL_CLOSED] } },
        data: { cancelRequestedAt: at, cancelReason: reason, nextAttemptAt: at, failures: 0 },
      });
      if (count !== 1) return false;
      await tx.deliveryEvent.create({
        data: { shop, deliveryId: id, at, kind: "cancel_requested", message },
      });
      return true;
    });
  }
  const db = await sqliteConnection();
  while (db.inTransaction) await new Promise<void>((resolve) => setImmediate(resolve));
  const when = sqliteTime(at);
  return durableTransaction(db, () => {
    const changed = db
      .prepare(
        `UPDATE "Delivery" SET "cancelRequestedAt" = ?, "cancelReason" = ?, "nextAttemptAt" = ?,
           "failures" = 0, "updatedAt" = ?
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
