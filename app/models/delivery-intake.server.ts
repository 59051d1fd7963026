import type Database from "better-sqlite3";
import type pg from "pg";
import {
  databaseProvider,
  outsidePrismaTransaction,
  postgresPool,
  sqliteConnection,
} from "../db.server";
import {
  DatabaseBusyError,
  isSqliteBusy,
  LOCK_WAIT_MS,
  lockRetryDelayMs,
  noteDatabaseBusy,
} from "../db/database-busy";
import { isConnectionLost } from "../db/postgres-errors";
import { durableTransaction } from "../db/sqlite-connection";
import { sqliteTime } from "./delivery-ids.server";
import {
  ATTACHABLE,
  attachIntentOnPostgres,
  insertDeliveryOnPostgres,
  type IntakeRow,
  sqliteIntakeWrites,
} from "./delivery-state";
import type { NewDelivery } from "./delivery-state";

/**
 * Webhook intake's writes, group-committed (ADR 0007). Every intake waiting on this thread is
 * decided and written in one durable transaction on Prisma's own connection, in raw SQL: the
 * shop's settings and pickup location are read in the same transaction as the row is written, a
 * fulfillment the app made itself is attached to its intent row, and any other fulfillment gets
 * its Delivery row and first event once (INSERT … ON CONFLICT DO NOTHING on the unique
 * (shop, fulfillment id) and (shop, reference)). Each caller's promise settles only after the
 * COMMIT is on disk: nothing acknowledged can be lost. On PostgreSQL (ADR 0009) each webhook is
 * its own transaction on a pooled connection instead ({@link commitOnPostgres}).
 */

/** What intake reads about the shop, in the transaction that writes the row. */
export interface IntakeShop {
  autoSend: boolean;
  hasCourierKey: boolean;
  courierEnvironment: string;
  /** The fulfillment's location has a confirmed pickup address. */
  pickupConfirmed: boolean;
}

export interface IntakeRequest {
  shop: string;
  orderId: string;
  fulfillmentId: string;
  locationId: string | null;
  /** The row to record, decided from the shop as read in the transaction. */
  decide(shop: IntakeShop): Omit<NewDelivery, "shop" | "orderId" | "fulfillmentId" | "locationId">;
}

export type IntakeResult =
  /** No settings row, or the shop uninstalled the app: nothing written. */
  | { kind: "ignored" }
  /** A "Send to courier" intent for the order took the fulfillment. */
  | { kind: "attached" }
  | {
      kind: "recorded";
      deliveryId: string;
      state: string;
      stateReason: string | null;
      /** False when the fulfillment already had its row (a redelivery or a concurrent twin). */
      created: boolean;
    };

interface Waiting {
  request: IntakeRequest;
  resolve: (result: IntakeResult) => void;
  reject: (error: unknown) => void;
  /** While another process holds the file, this intake waits until then, then is refused. */
  deadline: number;
}

let queue: Waiting[] = [];
let scheduled = false;
/** Tries in a row that found the file locked by another process (ADR 0053). */
let lockedTries = 0;

/** Records one fulfillment; resolves once it is durably committed with the others of its turn. */
export function commitIntake(request: IntakeRequest): Promise<IntakeResult> {
  if (databaseProvider() === "postgresql") return commitOnPostgres(request);
  return new Promise((resolve, reject) => {
    queue.push({ request, resolve, reject, deadline: Date.now() + LOCK_WAIT_MS });
    if (!scheduled) {
      scheduled = true;
      // After the requests that arrived in this turn of the event loop have queued theirs.
      setImmediate(() => void flush());
    }
  });
}

async function flush(): Promise<void> {
  let db: Database.Database;
  try {
    db = await sqliteConnection();
  } catch (error) {
    settleAll(error);
    return;
  }
  // A Prisma interactive transaction is open on the connection (it awaits between statements):
  // written now, these rows would commit or roll back with it. Wait for it to end, ahead of the
  // worker's next one (polling on a timer, intake could wait behind the worker's transactions
  // one after another; ADR 0016).
  if (db.inTransaction) {
    await outsidePrismaTransaction();
    if (db.inTransaction) {
      setImmediate(() => void flush());
      return;
    }
  }
  const batch = queue;
  queue = [];
  if (batch.length === 0) {
    scheduled = false;
    return;
  }
  let results: ({ ok: true; result: IntakeResult } | { ok: false; error: unknown })[] = [];
  try {
    const sql = statements(db);
    // Each intake in a savepoint of its own: one that fails takes nobody else's row with it.
    const one = db.transaction((request: IntakeRequest, at: string) => recordOne(sql, request, at));
    durableTransaction(db, () => {
      results = [];
      const at = sqliteTime(new Date());
      for (const { request } of batch) {
        try {
          results.push({ ok: true, result: one(request, at) });
        } catch (error) {
          results.push({ ok: false, error });
        }
      }
    });
  } catch (error) {
    if (isSqliteBusy(error)) {
      waitForTheLock(batch);
      return;
    }
    scheduled = false;
    // The commit itself failed: nothing of the batch is written, every caller hears so.
    for (const waiting of batch) waiting.reject(error);
    return;
  }
  lockedTries = 0;
  scheduled = false;
  batch.forEach((waiting, i) => {
    const outcome = results[i]!;
    if (outcome.ok) waiting.resolve(outcome.result);
    else waiting.reject(outcome.error);
  });
}

/**
 * Another process holds the file's write lock: nothing of the batch was written. Those that may
 * still wait go back ahead of the newcomers and the batch is tried again on a timer (the event
 * loop, and so every other request, runs meanwhile); those past their deadline are refused, and
 * Shopify, answered 503, sends them again.
 */
function waitForTheLock(batch: Waiting[]) {
  const now = Date.now();
  const refused = batch.filter((waiting) => waiting.deadline <= now);
  queue = [...batch.filter((waiting) => waiting.deadline > now), ...queue];
  for (const waiting of refused) waiting.reject(noteDatabaseBusy(new DatabaseBusyError()));
  lockedTries += 1;
  setTimeout(() => void flush(), lockRetryDelayMs(lockedTries));
}

function settleAll(error: unknown) {
  const batch = queue;
  queue = [];
  scheduled = false;
  for (const waiting of batch) waiting.reject(error);
}

function recordOne(sql: Statements, request: IntakeRequest, at: string): IntakeResult {
  const { shop, orderId, fulfillmentId, locationId } = request;
  const settings = sql.shop.get(locationId ?? "", shop) as ShopRow | undefined;
  if (!settings || settings.uninstalledAt !== null) return { kind: "ignored" };
  // A fulfillment the app made itself ("Send to courier") belongs to the row written before it.
  const intent = sql.intent.get(shop, orderId, locationId) as
    { id: string; state: string } | undefined;
  if (intent && sql.writes.attachIntent(shop, intent, fulfillmentId, at))
    return { kind: "attached" };

  const row = request.decide({
    autoSend: settings.autoSend === 1,
    hasCourierKey: settings.hasKey === 1,
    courierEnvironment: settings.courierEnvironment,
    pickupConfirmed: settings.pickup === 1,
  });
  const id = sql.writes.insertDelivery({ ...intakeRow(request, row), at });
  if (id === null) {
    const existing = sql.existing.get(shop, fulfillmentId, row.reference) as
      { id: string; state: string; stateReason: string | null } | undefined;
    if (!existing) throw new Error(`Delivery for ${fulfillmentId} neither inserted nor found.`);
    return { kind: "recorded", deliveryId: existing.id, ...existing, created: false };
  }
  return {
    kind: "recorded",
    deliveryId: id,
    state: row.state,
    stateReason: row.stateReason ?? null,
    created: true,
  };
}

/** The row to insert for a request, as decided from the shop. */
function intakeRow(request: IntakeRequest, row: ReturnType<IntakeRequest["decide"]>): IntakeRow {
  return {
    shop: request.shop,
    orderId: request.orderId,
    orderName: row.orderName ?? null,
    fulfillmentId: request.fulfillmentId,
    locationId: request.locationId,
    source: row.source,
    state: row.state,
    stateReason: row.stateReason ?? null,
    environment: row.environment,
    reference: row.reference,
  };
}

// --- PostgreSQL (ADR 0009) ---------------------------------------------------------------------

/**
 * The same decisions and writes, in one transaction per webhook on a connection of the pool:
 * PostgreSQL serves many connections at once and flushes the commits that arrive together in
 * one WAL write itself, so no queue is needed. Concurrent twins meet on the unique indexes: the
 * second INSERT waits for the first to commit, then does nothing, and reads the row it found.
 * COMMIT returns once the WAL is flushed (synchronous_commit on, the default), so an
 * acknowledged webhook survives a crash or power loss of the database server.
 */
async function commitOnPostgres(request: IntakeRequest): Promise<IntakeResult> {
  // A connection the server ended (a restart or failover) fails only the transaction it carried,
  // which committed nothing: it is run again on a new connection, so Shopify hears a 200 (issue 24).
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await commitOnceOnPostgres(request);
    } catch (error) {
      if (attempt >= 3 || !isConnectionLost(error)) throw error;
    }
  }
}

async function commitOnceOnPostgres(request: IntakeRequest): Promise<IntakeResult> {
  const client = await postgresPool().connect();
  let failure: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await recordOneOnPostgres(client, request, new Date());
    await client.query("COMMIT");
    return result;
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    // A connection that failed mid-transaction is closed rather than reused.
    client.release(failure);
  }
}

async function recordOneOnPostgres(
  client: pg.PoolClient,
  request: IntakeRequest,
  now: Date,
): Promise<IntakeResult> {
  const { shop, orderId, fulfillmentId, locationId } = request;
  const settings = (
    await client.query<{
      autoSend: boolean;
      hasKey: boolean;
      uninstalled: boolean;
      courierEnvironment: string;
      pickup: boolean;
    }>(
      `SELECT s."autoSend", s."courierApiKeySealed" IS NOT NULL AS "hasKey",
         s."uninstalledAt" IS NOT NULL AS "uninstalled", s."courierEnvironment",
         EXISTS (SELECT 1 FROM "PickupLocation" p WHERE p."shop" = s."shop" AND p."locationId" = $1)
           AS "pickup"
       FROM "ShopSettings" s WHERE s."shop" = $2`,
      [locationId ?? "", shop],
    )
  ).rows[0];
  if (!settings || settings.uninstalled) return { kind: "ignored" };
  // The webhook of a fulfillment "Send to courier" made belongs to the intent written before it
  // (app/actions/send.server.ts), from the same location, the oldest one, a waiting one before
  // a parked one: as the SQLite statements below. The update checks again what the read found: a
  // twin webhook that took the intent in between leaves this fulfillment to its own row.
  const intent = (
    await client.query<{ id: string; state: string }>(
      `SELECT "id", "state" FROM "Delivery"
       WHERE "shop" = $1 AND "orderId" = $2 AND "locationId" IS NOT DISTINCT FROM $3
         AND "source" IN ('manual', 'bulk') AND "fulfillmentId" IS NULL
         AND "state" IN ${ATTACHABLE}
       ORDER BY "state" <> 'pending', "createdAt", "id" LIMIT 1`,
      [shop, orderId, locationId],
    )
  ).rows[0];
  if (intent && (await attachIntentOnPostgres(client, shop, intent, fulfillmentId, now)))
    return { kind: "attached" };

  const row = request.decide({
    autoSend: settings.autoSend,
    hasCourierKey: settings.hasKey,
    courierEnvironment: settings.courierEnvironment,
    pickupConfirmed: settings.pickup,
  });
  const id = await insertDeliveryOnPostgres(client, { ...intakeRow(request, row), at: now });
  if (id === null) {
    const existing = (
      await client.query<{ id: string; state: string; stateReason: string | null }>(
        `SELECT "id", "state", "stateReason" FROM "Delivery"
         WHERE "shop" = $1 AND ("fulfillmentId" = $2 OR "reference" = $3) LIMIT 1`,
        [shop, fulfillmentId, row.reference],
      )
    ).rows[0];
    if (!existing) throw new Error(`Delivery for ${fulfillmentId} neither inserted nor found.`);
    return { kind: "recorded", deliveryId: existing.id, ...existing, created: false };
  }
  return {
    kind: "recorded",
    deliveryId: id,
    state: row.state,
    stateReason: row.stateReason ?? null,
    created: true,
  };
}

// --- SQLite statements -------------------------------------------------------------------------

interface ShopRow {
  autoSend: number;
  hasKey: number;
  uninstalledAt: string | null;
  courierEnvironment: string;
  pickup: number;
}

type Statements = ReturnType<typeof prepare>;
const prepared = new WeakMap<Database.Database, Statements>();

function statements(db: Database.Database): Statements {
  let sql = prepared.get(db);
  if (!sql) {
    sql = prepare(db);
    prepared.set(db, sql);
  }
  return sql;
}

function prepare(db: Database.Database) {
  // Plain numbers: Prisma's adapter turns on BigInt integers for the whole connection.
  const plain = (statement: Database.Statement) =>
    statement.reader ? statement.safeIntegers(false) : statement;
  return {
    shop: plain(
      db.prepare(`
        SELECT s."autoSend", s."courierApiKeySealed" IS NOT NULL AS "hasKey", s."uninstalledAt",
          s."courierEnvironment",
          EXISTS (SELECT 1 FROM "PickupLocation" p WHERE p."shop" = s."shop" AND p."locationId" = ?)
            AS "pickup"
        FROM "ShopSettings" s WHERE s."shop" = ?`),
    ),
    // The webhook of a fulfillment "Send to courier" made belongs to the intent written before it
    // (app/actions/send.server.ts), in the intake's transaction; the location must be the
    // one the intent fulfils from, or another fulfillment of the same order
    // arriving meanwhile (made in Shopify's admin) would take the intent's place. One intent
    // only, the oldest: two of one order at one location (two fulfillment orders there) take
    // one fulfillment each, by arrival. An intent still waiting comes before one parked in
    // needs_attention because its fulfillment was late ({@link ATTACHABLE}).
    intent: plain(
      db.prepare(`
        SELECT "id", "state" FROM "Delivery"
        WHERE "shop" = ? AND "orderId" = ? AND "locationId" IS ? AND "source" IN ('manual', 'bulk')
          AND "fulfillmentId" IS NULL AND "state" IN ${ATTACHABLE}
        ORDER BY "state" <> 'pending', "createdAt", "id" LIMIT 1`),
    ),
    existing: plain(
      db.prepare(`
        SELECT "id", "state", "stateReason" FROM "Delivery"
        WHERE "shop" = ? AND ("fulfillmentId" = ? OR "reference" = ?) LIMIT 1`),
    ),
    writes: sqliteIntakeWrites(db),
  };
}
