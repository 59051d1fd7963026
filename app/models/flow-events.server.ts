import type { Prisma } from "@prisma/client";
import prisma from "../db.server";
import { type Unreadable } from "../domain/json-column";
import { flowPayloadColumn, type FlowPayload } from "../domain/records-columns";
import type { DeliveryState } from "../domain/states";
import { deliveryTriggerPayload, triggersForMove, type FlowTrigger } from "../domain/flow-triggers";

/**
 * The Flow outbox (ADR 0038): a trigger owed is a FlowEvent row, written in the transaction of
 * the change that causes it, so a change is never committed without its trigger nor a trigger
 * sent for a change rolled back. The worker sends them (app/pipeline/records/flow-outbox.server.ts).
 */
export async function enqueueFlowEvent(
  tx: Prisma.TransactionClient,
  shop: string,
  trigger: FlowTrigger,
  payload: FlowPayload,
  at = new Date(),
): Promise<void> {
  await tx.flowEvent.create({
    data: {
      shop,
      trigger,
      payload: flowPayloadColumn.encode(payload),
      createdAt: at,
      nextAttemptAt: at,
    },
  });
}

/**
 * Inside the transaction that moved a delivery from `from` to `to`: the triggers the move fires.
 * Reads the row as the move left it, only when the move fires one.
 */
export async function enqueueDeliveryMoveFlowEvents(
  tx: Prisma.TransactionClient,
  shop: string,
  id: string,
  from: DeliveryState,
  to: DeliveryState,
  at: Date,
): Promise<void> {
  if (
    from === to ||
    ![
      "delivered",
      "failed",
      "returned",
      "needs_attention",
      "needs_address",
      "needs_review",
      "rejected",
    ].includes(to)
  )
    return;
  const delivery = await tx.delivery.findFirst({
    where: { shop, id },
    select: {
      id: true,
      orderId: true,
      orderName: true,
      courierOrderNumber: true,
      cashToCollect: true,
      stateReason: true,
      trackingUrl: true,
    },
  });
  if (!delivery) return;
  for (const trigger of triggersForMove(from, to, delivery)) {
    await enqueueFlowEvent(tx, shop, trigger, deliveryTriggerPayload(trigger, delivery, to), at);
  }
}

export interface DueFlowEvent {
  id: string;
  shop: string;
  trigger: string;
  /** Decoded here, where the row enters the app; a payload that does not read is Unreadable. */
  payload: FlowPayload | Unreadable;
  attempts: number;
}

/**
 * Takes up to `limit` due events for this sender: each is pushed `holdMs` into the future by a
 * conditional update, so another worker process that read the same row takes none of it.
 */
export async function claimDueFlowEvents(
  now: Date,
  limit: number,
  holdMs: number,
): Promise<DueFlowEvent[]> {
  const due = await prisma.flowEvent.findMany({
    where: { sentAt: null, nextAttemptAt: { lte: now } },
    orderBy: { nextAttemptAt: "asc" },
    take: limit,
    select: {
      id: true,
      shop: true,
      trigger: true,
      payload: true,
      attempts: true,
      nextAttemptAt: true,
    },
  });
  const claimed: DueFlowEvent[] = [];
  for (const event of due) {
    const { count } = await prisma.flowEvent.updateMany({
      where: { id: event.id, sentAt: null, nextAttemptAt: event.nextAttemptAt },
      data: { nextAttemptAt: new Date(now.getTime() + holdMs) },
    });
    if (count === 1)
      claimed.push({
        id: event.id,
        shop: event.shop,
        trigger: event.trigger,
        payload: flowPayloadColumn.decode(event.payload),
        attempts: event.attempts,
      });
  }
  return claimed;
}

export async function markFlowEventSent(id: string, at: Date): Promise<void> {
  await prisma.flowEvent.update({ where: { id }, data: { sentAt: at, lastError: null } });
}

const NEVER = new Date("9999-12-31T00:00:00Z");

export async function markFlowEventFailed(
  id: string,
  attempts: number,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  await prisma.flowEvent.update({
    where: { id },
    // Given up: kept with its error, never due again (sentAt stays empty).
    data: { attempts, lastError: error.slice(0, 500), nextAttemptAt: retryAt ?? NEVER },
  });
}

export async function flowEventsOf(shop: string) {
  return prisma.flowEvent.findMany({ where: { shop }, orderBy: { createdAt: "asc" } });
}
