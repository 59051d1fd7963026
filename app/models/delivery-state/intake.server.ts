import { Prisma } from "@prisma/client";
import type Database from "better-sqlite3";
import type pg from "pg";
import prisma from "../../db.server";
import { parseState, type DeliveryState } from "../../domain/states";
import { newRowId } from "../delivery-ids.server";
import { deliveryRow, type DeliveryRow } from "../delivery-row.server";
import { assertMove } from "./transition.server";

/**
 * A fulfillment's row and first event: one at a time through Prisma ({@link recordDelivery}), or
 * in webhook intake's own transaction (ADR 0007) in raw SQL, on SQLite and on PostgreSQL.
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
