import { type Prisma } from "@prisma/client";
import prisma from "../../db.server";
import { parseState } from "../../domain/states";
import { assertMove } from "./transition.server";

/**
 * customers/redact: the writes that cancel deliveries never sent, for the caller's batch
 * transaction (after the erasure's own writes, so the event says why). The state is part of each
 * update's condition: a worker that read the row before this commit finds it moved and does not
 * send it. A cancellation that was waiting on it is fulfilled by this one.
 */
export function erasureCancelWrites(
  shop: string,
  rows: readonly { id: string; state: string }[],
  message: string,
  at: Date,
): Prisma.PrismaPromise<unknown>[] {
  return rows.flatMap((d) => {
    assertMove(parseState(d.state), "cancelled");
    return [
      prisma.delivery.updateMany({
        where: { id: d.id, shop, state: d.state },
        data: {
          state: "cancelled",
          stateReason: message,
          cancelRequestedAt: null,
          cancelReason: null,
          nextAttemptAt: null,
          leaseOwner: null,
          leaseExpiresAt: null,
        },
      }),
      prisma.deliveryEvent.create({
        data: { shop, deliveryId: d.id, at, kind: "cancelled", message },
      }),
    ];
  });
}
