import { Prisma } from "@prisma/client";
import type Database from "better-sqlite3";
import type pg from "pg";
import prisma, { databaseProvider, sqliteConnection } from "../db.server";
import { durableTransaction } from "../db/sqlite-connection";
import { eventDataColumn, type EventData } from "../deliveries/domain/event-data";
import {
  canMove,
  isFinal,
  NOT_COLLECTING_STATES,
  parseState,
  type DeliveryState,
} from "../deliveries/domain/states";
import { newRowId, sqliteTime } from "./delivery-ids.server";
import { deliveryRow, type DeliveryRow } from "./delivery-row.server";

/**
 * The one writer of Delivery.state. Every insert or update that sets or changes a delivery's
 * state is here: each checks the move table (deliveries/domain/states.ts) and writes the timeline
 * event in the same transaction. test/unit/one-state-writer.test.ts fails when another file of
 * app/ writes the column.
 */
export interface NewDelivery {
  shop: string;
  orderId: string;
  orderName?: string | null;
  fulfillmentId: string;
  locationId: string | null;
  /** "recovered": found by the check for fulfillments whose webhook never came (ADR 0013). */
  source: "webhook" | "recovered" | "manual" | "bulk";
  state: Extract<DeliveryState, "pending" | "skipped">;
  stateReason?: string | null;
  environment: string;
  reference: string;
}

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
 * Records the intent for a fulfillment once: a second call for the same fulfillment (a
 * redelivered webhook, or the webhook after "Send to courier") finds the row and returns it.
 */
export async function recordDelivery(
  input: NewDelivery,
  at = new Date(),
): Promise<{ delivery: DeliveryRow; created: boolean }> {
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
                : receivedMessage(input.source),
          },
        },
      },
    });
    return { delivery: deliveryRow(delivery), created: true };
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      const existing = await prisma.delivery.findFirstOrThrow({
        where: {
          shop: input.shop,
          OR: [{ fulfillmentId: input.fulfillmentId }, { reference: input.reference }],
        },
      });
      return { delivery: deliveryRow(existing), created: false };
    }
    throw error;
  }
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

/** Refuses a move the move table does not have (deliveries/domain/states.ts). */
function assertMove(from: DeliveryState, to: DeliveryState): void {
  if (!canMove(from, to)) throw new Error(`A delivery cannot move from ${from} to ${to}.`);
}

/**
 * Moves a delivery from one state to another, with an event, in one transaction; refuses moves
 * the state machine does not allow and moves from a state the row is no longer in. A move into a
 * final state closes any cancellation still asked for ({@link closeCancelRequest}).
 */
export async function transition(input: TransitionInput): Promise<void> {
  if (input.from !== input.to) assertMove(input.from, input.to);
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
  event: { message: string; data?: EventData },
  at: Date,
): Promise<"recorded" | DeliveryRow> {
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
        data: event.data === undefined ? null : eventDataColumn.encode(event.data),
      },
    });
    return true;
  });
  return recorded
    ? "recorded"
    : deliveryRow(await prisma.delivery.findFirstOrThrow({ where: { shop, id } }));
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

// --- Webhook intake's writes (ADR 0007), inside the intake's own transaction --------------------

/**
 * Intents a fulfillment can attach to: still waiting for it, or parked in `needs_attention`
 * because it did not come in time (the worker gave up looking; ADR 0021). A parked one goes back
 * to `pending` with its failures and reason cleared, as the merchant's "Try again" would: without
 * this, the late fulfillment would get a second row (sent if automatic sending is on, skipped and
 * the merchant's explicit send lost if it is off).
 */
export const ATTACHABLE = "('pending', 'needs_attention')";
const ATTACH_SET = `"state" = 'pending', "failures" = 0, "stateReason" = NULL, "lastError" = NULL`;
const LATE_FULFILLMENT =
  'Shopify\'s fulfillment for this "Send to courier" arrived after all: the delivery goes on.';

/** The first timeline entry of a delivery that goes to the courier. */
export function receivedMessage(source: NewDelivery["source"]): string {
  return source === "recovered"
    ? "Fulfillment found by the app's regular check: Shopify's notification of it never arrived."
    : `Fulfillment received from Shopify (${source}).`;
}

/** A row intake records for a fulfillment: its first state is `pending` or `skipped`. */
export interface IntakeRow {
  shop: string;
  orderId: string;
  orderName: string | null;
  fulfillmentId: string;
  locationId: string | null;
  source: NewDelivery["source"];
  state: Extract<DeliveryState, "pending" | "skipped">;
  stateReason: string | null;
  environment: string;
  reference: string;
}

/** The first event of a row intake records. */
function firstEvent(row: IntakeRow): { kind: string; message: string } {
  return row.state === "skipped"
    ? {
        kind: "skipped",
        message: `Not sent to the courier: ${row.stateReason ?? "no reason given"}`,
      }
    : { kind: "received", message: receivedMessage(row.source) };
}

type SqliteIntakeWrites = ReturnType<typeof prepareIntakeWrites>;
const sqliteWrites = new WeakMap<Database.Database, SqliteIntakeWrites>();

/** Intake's state writes on SQLite, prepared once per connection; run inside its transaction. */
export function sqliteIntakeWrites(db: Database.Database): SqliteIntakeWrites {
  let writes = sqliteWrites.get(db);
  if (!writes) {
    writes = prepareIntakeWrites(db);
    sqliteWrites.set(db, writes);
  }
  return writes;
}

function prepareIntakeWrites(db: Database.Database) {
  const attach = db.prepare(`
    UPDATE "Delivery" SET ${ATTACH_SET}, "fulfillmentId" = ?, "nextAttemptAt" = ?, "updatedAt" = ?
    WHERE "id" = ? AND "fulfillmentId" IS NULL AND "state" IN ${ATTACHABLE}`);
  const insertDelivery = db.prepare(`
    INSERT INTO "Delivery" ("id", "shop", "orderId", "orderName", "fulfillmentId", "locationId",
      "source", "state", "stateReason", "environment", "reference", "attempts", "nextAttemptAt",
      "createdAt", "updatedAt")
    VALUES (@id, @shop, @orderId, @orderName, @fulfillmentId, @locationId, @source, @state,
      @stateReason, @environment, @reference, 0, @nextAttemptAt, @at, @at)
    ON CONFLICT DO NOTHING`);
  const insertEvent = db.prepare(`
    INSERT INTO "DeliveryEvent" ("id", "shop", "deliveryId", "at", "kind", "message")
    VALUES (@id, @shop, @deliveryId, @at, @kind, @message)`);
  return {
    /** A "Send to courier" intent takes its fulfillment (back to pending if it was parked). */
    attachIntent(
      shop: string,
      intent: { id: string; state: string },
      fulfillmentId: string,
      at: string,
    ): boolean {
      if (parseState(intent.state) !== "pending") assertMove(parseState(intent.state), "pending");
      if (attach.run(fulfillmentId, at, at, intent.id).changes === 0) return false;
      if (intent.state === "needs_attention") {
        insertEvent.run({
          id: newRowId(),
          shop,
          deliveryId: intent.id,
          at,
          kind: "received",
          message: LATE_FULFILLMENT,
        });
      }
      return true;
    },
    /** The row and its first event; null when the fulfillment already had its row. */
    insertDelivery(row: IntakeRow & { at: string }): string | null {
      const id = newRowId();
      const nextAttemptAt = row.state === "pending" ? row.at : null;
      if (insertDelivery.run({ ...row, id, nextAttemptAt }).changes === 0) return null;
      insertEvent.run({
        id: newRowId(),
        shop: row.shop,
        deliveryId: id,
        at: row.at,
        ...firstEvent(row),
      });
      return id;
    },
  };
}

/** PostgreSQL: the intent takes its fulfillment, inside the intake's transaction on `client`. */
export async function attachIntentOnPostgres(
  client: pg.PoolClient,
  shop: string,
  intent: { id: string; state: string },
  fulfillmentId: string,
  now: Date,
): Promise<boolean> {
  if (parseState(intent.state) !== "pending") assertMove(parseState(intent.state), "pending");
  const at = now.toISOString();
  const attached = await client.query(
    `UPDATE "Delivery" SET ${ATTACH_SET}, "fulfillmentId" = $1, "nextAttemptAt" = $2,
       "updatedAt" = $2
     WHERE "id" = $3 AND "fulfillmentId" IS NULL AND "state" IN ${ATTACHABLE}`,
    [fulfillmentId, at, intent.id],
  );
  if ((attached.rowCount ?? 0) === 0) return false;
  if (intent.state === "needs_attention") {
    await client.query(
      `INSERT INTO "DeliveryEvent" ("id", "shop", "deliveryId", "at", "kind", "message")
       VALUES ($1, $2, $3, $4, 'received', $5)`,
      [newRowId(now.getTime()), shop, intent.id, at, LATE_FULFILLMENT],
    );
  }
  return true;
}

/** PostgreSQL: the row and its first event; null when the fulfillment already had its row. */
export async function insertDeliveryOnPostgres(
  client: pg.PoolClient,
  row: IntakeRow & { at: Date },
): Promise<string | null> {
  // Prisma keeps DateTime as UTC in "timestamp(3)" columns; an ISO string's zone is ignored
  // there, so the UTC time is stored whatever the server's or this process's time zone.
  const at = row.at.toISOString();
  const id = newRowId(row.at.getTime());
  const inserted = await client.query(
    `INSERT INTO "Delivery" ("id", "shop", "orderId", "orderName", "fulfillmentId", "locationId",
       "source", "state", "stateReason", "environment", "reference", "attempts", "nextAttemptAt",
       "createdAt", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0, $12, $13, $13)
     ON CONFLICT DO NOTHING`,
    [
      id,
      row.shop,
      row.orderId,
      row.orderName,
      row.fulfillmentId,
      row.locationId,
      row.source,
      row.state,
      row.stateReason,
      row.environment,
      row.reference,
      row.state === "pending" ? at : null,
      at,
    ],
  );
  if ((inserted.rowCount ?? 0) === 0) return null;
  const event = firstEvent(row);
  await client.query(
    `INSERT INTO "DeliveryEvent" ("id", "shop", "deliveryId", "at", "kind", "message")
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [newRowId(row.at.getTime()), row.shop, id, at, event.kind, event.message],
  );
  return id;
}
