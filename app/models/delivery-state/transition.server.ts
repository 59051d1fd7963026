import { type Prisma } from "@prisma/client";
import prisma, { databaseProvider } from "../../db.server";
import { eventDataColumn, type EventData } from "../../domain/event-data";
import { canMove, isFinal, NOT_COLLECTING_STATES, type DeliveryState } from "../../domain/states";
import { queueDeliveryMoveMessage } from "../delivery-messages.server";
import { enqueueDeliveryMoveFlowEvents } from "../flow-events.server";
import { closeSecondChance, openSecondChance } from "../second-chance.server";

/** Moves through the move table, each with its timeline event, and what refuses one. */
export class StaleDeliveryError extends Error {
  constructor(id: string, expected: string) {
    super(`Delivery ${id} is no longer ${expected}; another worker or the merchant moved it.`);
    this.name = "StaleDeliveryError";
  }
}

/** Another delivery of the order collects its balance already (see `soleCollectorOf`). */
export class BalanceCollectedElsewhereError extends Error {
  constructor(orderId: string) {
    super(`Another delivery of ${orderId} collects its outstanding balance.`);
    this.name = "BalanceCollectedElsewhereError";
  }
}

export interface TransitionInput {
  shop: string;
  id: string;
  from: DeliveryState;
  to: DeliveryState;
  /** Fields to set with the move. */
  data?: Prisma.DeliveryUpdateManyMutationInput;
  event: { kind: string; message: string; data?: EventData };
  /** Only the lease holder may move a leased row (null: the merchant, outside any lease). */
  leaseOwner?: string | null;
  /**
   * And only while it still holds the lease it took (the row's fencing token, ADR 0017): the same
   * owner may have lost and taken the row again since.
   */
  leaseGeneration?: number;
  at?: Date;
  /**
   * The move gives this delivery the collection of its order's balance: refused with
   * {@link BalanceCollectedElsewhereError} when another delivery of the order has it. The order's
   * rows are locked first on PostgreSQL, so two builds of one order at once cannot both take it.
   */
  soleCollectorOf?: string;
}

/**
 * What a move to another state ends, unless the move says otherwise: a wait that did not count
 * as a failure (the pages say how long one lasts), and a fulfillment's line items read so far
 * (read for the pending state only).
 */
const MOVED_ON = { waitingSince: null, waitingFor: null, lineItemsRead: null } as const;

/** Refuses a move the move table does not have (domain/states.ts). */
export function assertMove(from: DeliveryState, to: DeliveryState): void {
  if (!canMove(from, to)) throw new Error(`A delivery cannot move from ${from} to ${to}.`);
}

/**
 * Moves a delivery from one state to another, with an event, in one transaction; refuses moves
 * the state machine does not allow and moves from a state the row is no longer in. A move into a
 * final state closes any cancellation still asked for ({@link closeCancelRequest}).
 */
export async function transition(input: TransitionInput): Promise<void> {
  if (input.from !== input.to) assertMove(input.from, input.to);
  if (typeof input.leaseOwner === "string" && input.leaseGeneration === undefined) {
    // An owner alone does not fence: the same process may have lost the row and taken it again.
    throw new Error("A move under a lease names the lease's generation (ADR 0017).");
  }
  const at = input.at ?? new Date();
  await prisma.$transaction(async (tx) => {
    const orderId = input.soleCollectorOf;
    if (orderId !== undefined && databaseProvider() === "postgresql") {
      // In id order, so two transactions locking the same rows never wait for each other.
      await tx.$queryRaw`SELECT "id" FROM "Delivery" WHERE "shop" = ${input.shop}
        AND "orderId" = ${orderId} ORDER BY "id" FOR UPDATE`;
    }
    const { count } = await tx.delivery.updateMany({
      where: {
        id: input.id,
        shop: input.shop,
        state: input.from,
        ...(input.leaseOwner !== undefined ? { leaseOwner: input.leaseOwner } : {}),
        ...(input.leaseGeneration !== undefined ? { leaseGeneration: input.leaseGeneration } : {}),
      },
      data: { ...(input.from !== input.to ? MOVED_ON : {}), ...input.data, state: input.to },
    });
    if (count !== 1) throw new StaleDeliveryError(input.id, input.from);
    // On SQLite the update above holds the one write lock, so this count sees every commit.
    if (
      orderId !== undefined &&
      (await tx.delivery.count({
        where: {
          shop: input.shop,
          orderId,
          id: { not: input.id },
          cashToCollect: { not: null },
          state: { notIn: [...NOT_COLLECTING_STATES] },
        },
      })) > 0
    ) {
      throw new BalanceCollectedElsewhereError(orderId);
    }
    await tx.deliveryEvent.create({
      data: {
        shop: input.shop,
        deliveryId: input.id,
        at,
        kind: input.event.kind,
        message: input.event.message,
        data: input.event.data === undefined ? null : eventDataColumn.encode(input.event.data),
      },
    });
    await closeCancelRequest(tx, input.shop, input.id, input.to, at);
    // Shopify Flow triggers the move fires, committed with it (ADR 0038).
    await enqueueDeliveryMoveFlowEvents(tx, input.shop, input.id, input.from, input.to, at);
    // The shopper's WhatsApp message the move owes, committed with it (ADR 0058).
    if (input.from !== input.to)
      await queueDeliveryMoveMessage(tx, input.shop, input.id, input.to, at);
    // The courier could not deliver: the shopper gets the link again (issue 27, item 5).
    if (input.to === "failed" && input.from !== "failed")
      await openSecondChance(tx, {
        shop: input.shop,
        deliveryId: input.id,
        cause: "courier_failed_attempt",
        at,
      });
    // The courier went out again (or it ended): a second chance not answered yet is closed.
    if (input.from === "failed" && input.to !== "failed")
      await closeSecondChance(tx, input.shop, input.id, at);
  });
}

/**
 * Inside the transaction that has just moved a delivery to `to`: when `to` is final, a
 * cancellation still asked for is cleared, since nobody would carry it out (the worker claims no
 * row in a final state) and the delivery's page would say one is under way for ever. Unless the
 * delivery became `cancelled`, the timeline says it was overtaken. Every move into a final state
 * calls this after its own update, which holds the row: a request cannot slip in between.
 */
export async function closeCancelRequest(
  tx: Prisma.TransactionClient,
  shop: string,
  id: string,
  to: DeliveryState,
  at: Date,
): Promise<void> {
  if (!isFinal(to)) return;
  const pending = await tx.delivery.findFirst({
    where: { id, shop, cancelRequestedAt: { not: null } },
    select: { cancelReason: true },
  });
  if (!pending) return;
  await tx.delivery.updateMany({
    where: { id, shop },
    data: { cancelRequestedAt: null, cancelReason: null },
  });
  if (to === "cancelled") return;
  await tx.deliveryEvent.create({
    data: {
      shop,
      deliveryId: id,
      at,
      kind: "cancel_refused",
      message: `Not cancelled (${pending.cancelReason ?? "cancelled"}): the delivery became ${to.replaceAll("_", " ")} before it could be cancelled.`,
    },
  });
}
