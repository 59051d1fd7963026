import { Prisma } from "@prisma/client";
import prisma, { databaseProvider } from "../db.server";
import { eventDataColumn, type EventData } from "../domain/event-data";
import { FINAL_STATES, NOT_COLLECTING_STATES, parseState } from "../domain/states";
import {
  deliveryEventRow,
  deliveryRow,
  type DeliveryEventRow,
  type DeliveryRow,
} from "./delivery-row.server";
import { StaleDeliveryError } from "./delivery-state";

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
      ? // The pick is a materialized CTE, run once: as an IN (subquery) the planner may run it
        // again for each row it joins (a nested loop, as the list's indexes made it choose), and
        // with SKIP LOCKED each run finds other rows, so one claim took more than its limit.
        await prisma.$queryRaw<{ id: string }[]>`
          WITH "picked" AS MATERIALIZED (
            SELECT "id" FROM "Delivery" WHERE ${dueDeliveriesWhere(now)}
            ORDER BY "nextAttemptAt" ASC NULLS FIRST, "createdAt" ASC
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED
          )
          UPDATE "Delivery"
          SET "leaseOwner" = ${owner}, "leaseExpiresAt" = ${leaseExpiresAt},
            "leaseGeneration" = "leaseGeneration" + 1
          WHERE "id" IN (SELECT "id" FROM "picked") AND ${dueDeliveriesWhere(now)}
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

/**
 * The fence of the tracking write (ADR 0054): the row is still `created`, its tracking not
 * recorded, under the lease `owner` took with `generation`, and that lease now lasts until
 * `leaseExpiresAt`. False when the worker lost the row: nothing may be written to Shopify.
 */
export async function renewTrackingLease(
  shop: string,
  id: string,
  owner: string,
  generation: number,
  leaseExpiresAt: Date,
): Promise<boolean> {
  const { count } = await prisma.delivery.updateMany({
    where: {
      id,
      shop,
      state: "created",
      trackingPushedAt: null,
      leaseOwner: owner,
      leaseGeneration: generation,
    },
    data: { leaseExpiresAt },
  });
  return count === 1;
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

/**
 * A fulfillment's line items read so far (`Delivery.lineItemsRead`, encoded), kept on the row the
 * worker `owner` still holds, for the next attempt to go on from.
 */
export async function keepLineItemsRead(
  delivery: Pick<DeliveryRow, "shop" | "id">,
  owner: string,
  lineItemsRead: string,
): Promise<void> {
  await prisma.delivery.updateMany({
    where: { id: delivery.id, shop: delivery.shop, leaseOwner: owner, state: "pending" },
    data: { lineItemsRead },
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
