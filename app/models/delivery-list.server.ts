import { type Delivery, type Prisma } from "@prisma/client";
import prisma, { databaseProvider } from "../db.server";
import { ACTIVE_TRACKED_STATES } from "../deliveries/domain/courier-status";
import { ATTENTION_STATES, type DeliveryState, parseState } from "../deliveries/domain/states";
import { STUCK_AFTER_MS } from "../deliveries/domain/tracking-plan";
import { deliveryRow } from "./delivery-row.server";

/** The deliveries page: its filters, what needs the merchant's attention, and the search. */

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
