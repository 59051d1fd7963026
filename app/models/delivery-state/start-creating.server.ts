import prisma, { databaseProvider, sqliteConnection } from "../../db.server";
import { durableWrite } from "../../db/sqlite-connection";
import { newRowId, sqliteTime } from "../delivery-ids.server";

export interface CreatingMove {
  shop: string;
  id: string;
  /** The lease generation the worker took the row with (its fencing token, ADR 0017). */
  leaseGeneration: number;
  /** The request as it is sent (its pickup time may have moved), encoded by `requestColumn`. */
  request: string;
  message: string;
}

/**
 * ready → creating for rows `owner` leases (with the generation it took them with), with the
 * attempt counted, the request as sent and the lease renewed: the intent written before a courier
 * create, and the first fence of the send (ADR 0017). Committed durably (on SQLite the WAL
 * is synced before COMMIT returns, as for webhook intake, ADR 0007): after a power loss a row that
 * was being sent must not come back `ready` and be sent again blind, rather than `creating` and
 * reconciled. Rows no longer `ready` and leased by `owner`, or whose cancellation was asked for,
 * are left alone; returns the ids moved.
 */
export async function startCreating(
  moves: readonly CreatingMove[],
  owner: string,
  at: Date,
  leaseExpiresAt: Date,
): Promise<Set<string>> {
  const moved = new Set<string>();
  if (moves.length === 0) return moved;
  if (databaseProvider() === "postgresql") {
    // Every COMMIT waits for the WAL flush there (synchronous_commit on, the default).
    await prisma.$transaction(async (tx) => {
      for (const move of moves) {
        const { count } = await tx.delivery.updateMany({
          where: {
            id: move.id,
            shop: move.shop,
            state: "ready",
            leaseOwner: owner,
            leaseGeneration: move.leaseGeneration,
            cancelRequestedAt: null,
          },
          data: {
            state: "creating",
            attempts: { increment: 1 },
            unknownSince: at,
            notInHistorySince: null,
            request: move.request,
            leaseExpiresAt,
            failures: 0,
          },
        });
        if (count !== 1) continue;
        moved.add(move.id);
        await tx.deliveryEvent.create({
          data: {
            shop: move.shop,
            deliveryId: move.id,
            at,
            kind: "sending",
            message: move.message,
          },
        });
      }
    });
    return moved;
  }
  const db = await sqliteConnection();
  // durableWrite waits for a Prisma transaction open on the connection (it would take these rows).
  const when = sqliteTime(at);
  const update = db.prepare(`
    UPDATE "Delivery" SET "state" = 'creating', "attempts" = "attempts" + 1, "unknownSince" = ?,
      "notInHistorySince" = NULL, "request" = ?, "leaseExpiresAt" = ?, "failures" = 0,
      "updatedAt" = ?
    WHERE "id" = ? AND "shop" = ? AND "state" = 'ready' AND "leaseOwner" = ?
      AND "leaseGeneration" = ? AND "cancelRequestedAt" IS NULL`);
  const event = db.prepare(`
    INSERT INTO "DeliveryEvent" ("id", "shop", "deliveryId", "at", "kind", "message")
    VALUES (?, ?, ?, ?, 'sending', ?)`);
  await durableWrite(db, () => {
    moved.clear();
    for (const move of moves) {
      const changed = update.run(
        when,
        move.request,
        sqliteTime(leaseExpiresAt),
        when,
        move.id,
        move.shop,
        owner,
        move.leaseGeneration,
      ).changes;
      if (changed !== 1) continue;
      moved.add(move.id);
      event.run(newRowId(at.getTime()), move.shop, move.id, when, move.message);
    }
  });
  return moved;
}
