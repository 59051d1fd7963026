import { Prisma, type Delivery, type DeliveryEvent } from "@prisma/client";
import prisma, { databaseProvider, sqliteConnection } from "../db.server";
import { durableTransaction } from "../db/sqlite-connection";
import {
  ATTENTION_STATES,
  canMove,
  FINAL_STATES,
  isFinal,
  type DeliveryState,
} from "../deliveries/states";
import { ACTIVE_TRACKED_STATES, STUCK_AFTER_MS } from "../deliveries/tracking";
import { newRowId, sqliteTime } from "./delivery-intake.server";
import { enqueueDeliveryMoveFlowEvents } from "./flow-events.server";

/**
 * Deliveries: the durable record of each Shopify fulfillment sent (or not) to the courier, and
 * the work queue the worker leases rows from (ADR 0003). Every query is scoped by shop.
 */

export type DeliveryWithEvents = Delivery & { events: DeliveryEvent[] };

export interface NewDelivery {
  shop: string;
  orderId: string;
  orderName?: string | null;
  fulfillmentId: string;
  locationId: string | null;
  source: "webhook" | "manual" | "bulk";
  state: Extract<DeliveryState, "pending" | "skipped">;
  stateReason?: string | null;
  environment: string;
  reference: string;
}

/**
 * Records the intent for a fulfillment once: a second call for the same fulfillment (a
 * redelivered webhook, or the webhook after "Send to courier") finds the row and returns it.
 */
export async function recordDelivery(
  input: NewDelivery,
  at = new Date(),
): Promise<{ delivery: Delivery; created: boolean }> {
  try {
    const delivery = await prisma.delivery.create({
      data: {
        ...input,
        nextAttemptAt: input.state === "pending" ? at : null,
        events: {
          create: {
            shop: input.shop,
            at,
            kind: input.state === "skipped" ? "skipped" : "received",
            message:
              input.state === "skipped"
                ? `Not sent to the courier: ${input.stateReason ?? "no reason given"}`
                : `Fulfillment received from Shopify (${input.source}).`,
          },
        },
      },
    });
    return { delivery, created: true };
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      const existing = await prisma.delivery.findFirstOrThrow({
        where: {
          shop: input.shop,
          OR: [{ fulfillmentId: input.fulfillmentId }, { reference: input.reference }],
        },
      });
      return { delivery: existing, created: false };
    }
    throw error;
  }
}

/**
 * Makes the shop's waiting work due now: rows the worker would pick up later (pending, ready,
 * unknown, and any with a cancellation still to carry out), not leased. Returns how many.
 */
export async function resumeWaitingDeliveries(shop: string, at = new Date()): Promise<number> {
  const { count } = await prisma.delivery.updateMany({
    where: {
      shop,
      nextAttemptAt: { gt: at },
      AND: [
        {
          OR: [
            { state: { in: ["pending", "ready", "unknown"] } },
            { cancelRequestedAt: { not: null }, state: { notIn: [...FINAL_STATES] } },
          ],
        },
        { OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: at } }] },
      ],
    },
    data: { nextAttemptAt: at },
  });
  return count;
}

/** Remembers a webhook id; false when it was handled before. */
export async function firstTimeWebhook(
  shop: string,
  webhookId: string,
  topic: string,
): Promise<boolean> {
  try {
    await prisma.processedWebhook.create({ data: { shop, webhookId, topic } });
    return true;
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
      return false;
    throw error;
  }
}

/** Whether a webhook id was handled (remembered by {@link rememberWebhook}) before. */
export async function webhookHandled(shop: string, webhookId: string): Promise<boolean> {
  return (
    (await prisma.processedWebhook.findUnique({
      where: { shop_webhookId: { shop, webhookId } },
    })) !== null
  );
}

/**
 * Remembers a webhook id once its work is done (and only then: a webhook that failed must be
 * handled again when Shopify resends it). A twin that finished first is no error.
 */
export async function rememberWebhook(shop: string, webhookId: string, topic: string) {
  await firstTimeWebhook(shop, webhookId, topic);
}

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

/** States in which a delivery no longer collects anything for its order. */
const NOT_COLLECTING: readonly DeliveryState[] = ["skipped", "cancelled", "returned"];

/** The delivery of an order, other than `exceptId`, that collects its outstanding balance. */
export async function findBalanceCollector(shop: string, orderId: string, exceptId: string) {
  return prisma.delivery.findFirst({
    where: {
      shop,
      orderId,
      id: { not: exceptId },
      cashToCollect: { not: null },
      state: { notIn: [...NOT_COLLECTING] },
    },
    select: { id: true, orderName: true, fulfillmentId: true, cashToCollect: true },
  });
}

export interface TransitionInput {
  shop: string;
  id: string;
  from: DeliveryState;
  to: DeliveryState;
  /** Fields to set with the move. */
  data?: Prisma.DeliveryUpdateManyMutationInput;
  event: { kind: string; message: string; data?: unknown };
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
 * Moves a delivery from one state to another, with an event, in one transaction; refuses moves
 * the state machine does not allow and moves from a state the row is no longer in. A move into a
 * final state closes any cancellation still asked for ({@link closeCancelRequest}).
 */
export async function transition(input: TransitionInput): Promise<void> {
  if (input.from !== input.to && !canMove(input.from, input.to)) {
    throw new Error(`A delivery cannot move from ${input.from} to ${input.to}.`);
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
      data: { ...input.data, state: input.to },
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
          state: { notIn: [...NOT_COLLECTING] },
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
        data: input.event.data === undefined ? null : JSON.stringify(input.event.data),
      },
    });
    await closeCancelRequest(tx, input.shop, input.id, input.to, at);
    // Shopify Flow triggers the move fires, committed with it (ADR 0038).
    await enqueueDeliveryMoveFlowEvents(tx, input.shop, input.id, input.from, input.to, at);
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

export interface CreatingMove {
  shop: string;
  id: string;
  /** The lease generation the worker took the row with (its fencing token, ADR 0017). */
  leaseGeneration: number;
  /** The request as it is sent (its pickup time may have moved). */
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
  // A Prisma interactive transaction open on the connection would take these rows with it.
  while (db.inTransaction) await new Promise<void>((resolve) => setImmediate(resolve));
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
  durableTransaction(db, () => {
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

/**
 * Due work, across shops: states the worker acts on, and any delivery whose cancellation waits
 * to be carried out; not leased (or with an expired lease), in shops that have not uninstalled
 * the app. Each branch of the OR has an index (state; cancelRequestedAt), so a claim reads the
 * due rows rather than every delivery ever made.
 */
export const dueDeliveriesWhere = (now: Date) => Prisma.sql`
  ("state" IN ('pending', 'ready', 'creating', 'unknown')
    OR ("state" = 'created' AND "trackingPushedAt" IS NULL)
    OR ("cancelRequestedAt" IS NOT NULL
      AND "state" NOT IN ('cancelled', 'skipped', 'delivered', 'returned')))
  AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= ${now})
  AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ${now})
  AND "shop" IN (SELECT "shop" FROM "ShopSettings" WHERE "uninstalledAt" IS NULL)`;

/**
 * Leases up to `limit` due deliveries for `owner`, the longest waiting first (a row never tried,
 * with no next attempt, first). One conditional UPDATE picks and leases them (compare-and-set on
 * the lease inside one statement, so two workers never hold the same row), raises each one's
 * lease generation (the fencing token, ADR 0017) and names exactly the rows it leased; one read
 * returns them. On PostgreSQL, where several worker processes claim at
 * once, the pick locks its rows `FOR UPDATE SKIP LOCKED` (ADR 0009): a claimer passes over the
 * rows another is leasing instead of waiting for them and then finding them taken.
 */
export async function claimDueDeliveries(
  owner: string,
  limit: number,
  leaseMs: number,
  now = new Date(),
) {
  const leaseExpiresAt = new Date(now.getTime() + leaseMs);
  const leased =
    databaseProvider() === "postgresql"
      ? await prisma.$queryRaw<{ id: string }[]>`
          UPDATE "Delivery"
          SET "leaseOwner" = ${owner}, "leaseExpiresAt" = ${leaseExpiresAt},
            "leaseGeneration" = "leaseGeneration" + 1
          WHERE "id" IN (
            SELECT "id" FROM "Delivery" WHERE ${dueDeliveriesWhere(now)}
            ORDER BY "nextAttemptAt" ASC NULLS FIRST, "createdAt" ASC
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED
          ) AND ${dueDeliveriesWhere(now)}
          RETURNING "id"`
      : await prisma.$queryRaw<{ id: string }[]>`
          UPDATE "Delivery"
          SET "leaseOwner" = ${owner}, "leaseExpiresAt" = ${leaseExpiresAt},
            "leaseGeneration" = "leaseGeneration" + 1
          WHERE "id" IN (
            SELECT "id" FROM "Delivery" WHERE ${dueDeliveriesWhere(now)}
            ORDER BY "nextAttemptAt" ASC, "createdAt" ASC
            LIMIT ${limit}
          ) AND ${dueDeliveriesWhere(now)}
          RETURNING "id"`;
  if (leased.length === 0) return [];
  const rows = await prisma.delivery.findMany({
    where: { id: { in: leased.map((r) => r.id) }, leaseOwner: owner },
    orderBy: [{ nextAttemptAt: "asc" }, { createdAt: "asc" }],
  });
  // Prisma sorts nulls as the database does: last on PostgreSQL, first on SQLite. Never-tried
  // rows come first on both.
  return rows.sort((a, b) => Number(b.nextAttemptAt === null) - Number(a.nextAttemptAt === null));
}

/**
 * Extends the lease `owner` holds on a delivery to `leaseMs` from `now`; throws
 * {@link StaleDeliveryError} when `owner` no longer holds it (it lapsed and another claimed the
 * row), so nothing is sent on a row someone else is working.
 */
export async function renewLease(
  shop: string,
  id: string,
  owner: string,
  leaseMs: number,
  now = new Date(),
): Promise<void> {
  const { count } = await prisma.delivery.updateMany({
    where: { id, shop, leaseOwner: owner },
    data: { leaseExpiresAt: new Date(now.getTime() + leaseMs) },
  });
  if (count !== 1) throw new StaleDeliveryError(id, `leased by ${owner}`);
}

/**
 * The fence of a courier create (ADR 0017): the row is still `creating` under the lease `owner`
 * took with `generation`, and that lease now lasts until `leaseExpiresAt`. False when the worker
 * lost the row (its lease lapsed and someone took it, or the row moved on): nothing may be sent.
 */
export async function renewSendingLease(
  shop: string,
  id: string,
  owner: string,
  generation: number,
  leaseExpiresAt: Date,
): Promise<boolean> {
  const { count } = await prisma.delivery.updateMany({
    where: { id, shop, state: "creating", leaseOwner: owner, leaseGeneration: generation },
    data: { leaseExpiresAt },
  });
  return count === 1;
}

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
  event: { message: string; data?: unknown },
  at: Date,
): Promise<"recorded" | Delivery> {
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
        data: event.data === undefined ? null : JSON.stringify(event.data),
      },
    });
    return true;
  });
  return recorded ? "recorded" : getDeliveryRow(shop, id);
}

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

/** Leases one delivery that nobody holds (or whose lease lapsed); null when someone does. */
export async function takeLease(
  shop: string,
  id: string,
  owner: string,
  leaseMs: number,
  now = new Date(),
): Promise<Delivery | null> {
  const { count } = await prisma.delivery.updateMany({
    where: { id, shop, OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }] },
    data: {
      leaseOwner: owner,
      leaseExpiresAt: new Date(now.getTime() + leaseMs),
      leaseGeneration: { increment: 1 },
    },
  });
  return count === 1 ? prisma.delivery.findFirst({ where: { id, shop, leaseOwner: owner } }) : null;
}

export async function releaseLease(
  shop: string,
  id: string,
  owner: string,
  data: Prisma.DeliveryUpdateManyMutationInput = {},
) {
  await prisma.delivery.updateMany({
    where: { id, shop, leaseOwner: owner },
    data: { ...data, leaseOwner: null, leaseExpiresAt: null },
  });
}

/** Appends to a delivery's timeline without moving it (no lease needed: the timeline only grows). */
export async function addDeliveryEvent(
  shop: string,
  deliveryId: string,
  kind: string,
  message: string,
  at = new Date(),
  data?: unknown,
) {
  await prisma.deliveryEvent.create({
    data: {
      shop,
      deliveryId,
      kind,
      message,
      at,
      data: data === undefined ? null : JSON.stringify(data),
    },
  });
}

export async function getDeliveryRow(shop: string, id: string): Promise<Delivery> {
  return prisma.delivery.findFirstOrThrow({ where: { shop, id } });
}

export async function getDelivery(shop: string, id: string): Promise<DeliveryWithEvents | null> {
  return prisma.delivery.findFirst({
    where: { shop, id },
    include: { events: { orderBy: { at: "asc" } } },
  });
}

export interface DeliveryListQuery {
  shop: string;
  state?: DeliveryState | "attention";
  search?: string;
  page?: number;
  pageSize?: number;
  now?: Date;
}

/**
 * Needs the merchant: a state that waits for them (address, review, rejected, failed, returned),
 * or a parcel the courier has not moved for STUCK_AFTER_MS.
 */
export function attentionWhere(now: Date): Prisma.DeliveryWhereInput {
  const cutoff = new Date(now.getTime() - STUCK_AFTER_MS);
  return {
    OR: [
      { state: { in: [...ATTENTION_STATES] } },
      {
        state: { in: [...ACTIVE_TRACKED_STATES] },
        trackingPushedAt: { not: null },
        OR: [
          { lastMovedAt: { lt: cutoff } },
          { lastMovedAt: null, trackingPushedAt: { lt: cutoff } },
        ],
      },
    ],
  };
}

/** The complement of attentionWhere, written without NOT: SQL's NULLs would drop rows from it. */
function notAttentionWhere(now: Date): Prisma.DeliveryWhereInput {
  const cutoff = new Date(now.getTime() - STUCK_AFTER_MS);
  return {
    state: { notIn: [...ATTENTION_STATES] },
    OR: [
      { state: { notIn: [...ACTIVE_TRACKED_STATES] } },
      { trackingPushedAt: null },
      { lastMovedAt: { gte: cutoff } },
      { lastMovedAt: null, trackingPushedAt: { gte: cutoff } },
    ],
  };
}

/** Whether a delivery is stuck: tracked, not final, and unmoved for STUCK_AFTER_MS. */
export function isStuck(
  delivery: Pick<Delivery, "state" | "lastMovedAt" | "trackingPushedAt">,
  now = new Date(),
): boolean {
  const since = delivery.lastMovedAt ?? delivery.trackingPushedAt;
  return (
    ACTIVE_TRACKED_STATES.includes(delivery.state as DeliveryState) &&
    since !== null &&
    now.getTime() - since.getTime() > STUCK_AFTER_MS
  );
}

/**
 * A search that ignores case on both databases: SQLite's LIKE does for ASCII, PostgreSQL's needs
 * ILIKE (Prisma's `mode`, which the SQLite client's types do not know).
 */
function containsText(text: string): { contains: string } {
  return databaseProvider() === "postgresql"
    ? ({ contains: text, mode: "insensitive" } as { contains: string })
    : { contains: text };
}

/** The deliveries page: those needing attention first, then the newest. */
export async function listDeliveries(query: DeliveryListQuery) {
  const pageSize = query.pageSize ?? 25;
  const page = Math.max(1, query.page ?? 1);
  const attentionClause = attentionWhere(query.now ?? new Date());
  const where: Prisma.DeliveryWhereInput = {
    shop: query.shop,
    ...(query.state === "attention" ? attentionClause : query.state ? { state: query.state } : {}),
    ...(query.search
      ? {
          AND: [
            {
              OR: [
                { orderName: containsText(query.search) },
                { courierOrderNumber: containsText(query.search) },
                { reference: containsText(query.search) },
              ],
            },
          ],
        }
      : {}),
  };
  const [attention, total] = await Promise.all([
    prisma.delivery.findMany({
      where: { AND: [where, attentionClause] },
      orderBy: { updatedAt: "desc" },
    }),
    prisma.delivery.count({ where }),
  ]);
  // Attention rows lead, then the rest by recency; paginated over the combined order.
  const skip = (page - 1) * pageSize;
  const fromAttention = attention.slice(skip, skip + pageSize);
  const restSkip = Math.max(0, skip - attention.length);
  const rest =
    fromAttention.length < pageSize
      ? await prisma.delivery.findMany({
          where: { AND: [where, notAttentionWhere(query.now ?? new Date())] },
          orderBy: { createdAt: "desc" },
          skip: restSkip,
          take: pageSize - fromAttention.length,
        })
      : [];
  return { deliveries: [...fromAttention, ...rest], total, page, pageSize };
}
