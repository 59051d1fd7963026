import { Prisma, type Delivery } from "@prisma/client";
import prisma, { databaseProvider, sqliteConnection } from "../db.server";
import { durableTransaction } from "../db/sqlite-connection";
import { eventDataColumn, type EventData } from "../deliveries/domain/event-data";
import {
  ATTENTION_STATES,
  FINAL_STATES,
  NOT_COLLECTING_STATES,
  type DeliveryState,
  parseState,
} from "../deliveries/domain/states";
import { ACTIVE_TRACKED_STATES } from "../deliveries/domain/courier-status";
import { STUCK_AFTER_MS } from "../deliveries/domain/tracking-plan";
import { newRowId, sqliteTime } from "./delivery-ids.server";
import {
  deliveryEventRow,
  deliveryRow,
  type DeliveryEventRow,
  type DeliveryRow,
} from "./delivery-row.server";
import { StaleDeliveryError } from "./delivery-state.server";

/**
 * Deliveries: the durable record of each Shopify fulfillment sent (or not) to the courier, and
 * the work queue the worker leases rows from (ADR 0003). Every query is scoped by shop.
 */

export type { DeliveryEventRow, DeliveryRow } from "./delivery-row.server";
export type DeliveryWithEvents = DeliveryRow & { events: DeliveryEventRow[] };

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

/** The delivery of an order, other than `exceptId`, that collects its outstanding balance. */
export async function findBalanceCollector(shop: string, orderId: string, exceptId: string) {
  return prisma.delivery.findFirst({
    where: {
      shop,
      orderId,
      id: { not: exceptId },
      cashToCollect: { not: null },
      state: { notIn: [...NOT_COLLECTING_STATES] },
    },
    select: { id: true, orderName: true, fulfillmentId: true, cashToCollect: true },
  });
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
): Promise<DeliveryRow[]> {
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
  return rows
    .sort((a, b) => Number(b.nextAttemptAt === null) - Number(a.nextAttemptAt === null))
    .map(deliveryRow);
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
): Promise<DeliveryRow | null> {
  const { count } = await prisma.delivery.updateMany({
    where: { id, shop, OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }] },
    data: {
      leaseOwner: owner,
      leaseExpiresAt: new Date(now.getTime() + leaseMs),
      leaseGeneration: { increment: 1 },
    },
  });
  if (count !== 1) return null;
  const row = await prisma.delivery.findFirst({ where: { id, shop, leaseOwner: owner } });
  return row && deliveryRow(row);
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
  data?: EventData,
) {
  await prisma.deliveryEvent.create({
    data: {
      shop,
      deliveryId,
      kind,
      message,
      at,
      data: data === undefined ? null : eventDataColumn.encode(data),
    },
  });
}

/** A delivery of the shop; null when it has none of that id. */
export async function findDelivery(shop: string, id: string): Promise<DeliveryRow | null> {
  const row = await prisma.delivery.findFirst({ where: { shop, id } });
  return row && deliveryRow(row);
}

/** The shop's deliveries named by id or by order, oldest first. */
export async function findDeliveries(
  shop: string,
  named: { ids?: readonly string[]; orderIds?: readonly string[] },
): Promise<DeliveryRow[]> {
  const rows = await prisma.delivery.findMany({
    where: {
      shop,
      OR: [
        { id: { in: [...(named.ids ?? [])] } },
        { orderId: { in: [...(named.orderIds ?? [])] } },
      ],
    },
    orderBy: { createdAt: "asc" },
  });
  return rows.map(deliveryRow);
}

/** The shop's deliveries whose reference is `reference` or one of its retries (`…-r2`), oldest first. */
export async function findByReference(shop: string, reference: string): Promise<DeliveryRow[]> {
  const rows = await prisma.delivery.findMany({
    where: { shop, OR: [{ reference }, { reference: { startsWith: `${reference}-r` } }] },
    orderBy: { createdAt: "asc" },
  });
  return rows.map(deliveryRow);
}

/** Where each of these deliveries of the shop stands: the few fields a send follows, polled. */
export async function findDeliveryProgress(shop: string, ids: readonly string[]) {
  const rows = await prisma.delivery.findMany({
    where: { shop, id: { in: [...ids] } },
    select: {
      id: true,
      orderId: true,
      state: true,
      stateReason: true,
      fulfillmentId: true,
      courierOrderNumber: true,
    },
  });
  return rows.map((row) => ({ ...row, state: parseState(row.state) }));
}

/** The deliveries of one order (one per fulfillment), newest first. */
export async function listOrderDeliveries(shop: string, orderId: string): Promise<DeliveryRow[]> {
  const rows = await prisma.delivery.findMany({
    where: { shop, orderId },
    orderBy: { createdAt: "desc" },
  });
  return rows.map(deliveryRow);
}

export async function getDeliveryRow(shop: string, id: string): Promise<DeliveryRow> {
  return deliveryRow(await prisma.delivery.findFirstOrThrow({ where: { shop, id } }));
}

export async function getDelivery(shop: string, id: string): Promise<DeliveryWithEvents | null> {
  const row = await prisma.delivery.findFirst({
    where: { shop, id },
    include: { events: { orderBy: { at: "asc" } } },
  });
  return row && { ...deliveryRow(row), events: row.events.map(deliveryEventRow) };
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
    // A raw row's state too: the tracking sync reads its own.
    ACTIVE_TRACKED_STATES.includes(parseState(delivery.state)) &&
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
  return { deliveries: [...fromAttention, ...rest].map(deliveryRow), total, page, pageSize };
}
