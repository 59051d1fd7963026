import type { PrismaClient } from "@prisma/client";

/**
 * What the webhook benchmark found in the database after the load, counted from the rows
 * themselves rather than trusted to the unique indexes: each bench order has one fulfillment, so
 * an order recorded twice (a second Delivery row, or a second first event on its timeline) is a
 * duplicate whatever the indexes say, and an acknowledged fulfillment without its row and first
 * event is lost.
 */
export interface IntakeAudit {
  /** Acknowledged fulfillments with no Delivery row, or whose row has no first event. */
  lost: number;
  /** Recordings beyond one per order: extra Delivery rows or extra first events. */
  duplicated: number;
  deliveries: number;
  firstEvents: number;
  /** Rows of fulfillments never acknowledged: answered after the load stopped listening. */
  unacknowledged: number;
}

/** The events intake writes once per delivery (ADR 0007): received, or skipped with a reason. */
const FIRST_EVENT_KINDS = ["received", "skipped"];

export async function auditIntake(
  prisma: PrismaClient,
  shop: string,
  acknowledged: ReadonlySet<string>,
): Promise<IntakeAudit> {
  const rows = await prisma.delivery.findMany({
    where: { shop },
    select: { id: true, orderId: true, fulfillmentId: true },
  });
  const events = await prisma.deliveryEvent.groupBy({
    by: ["deliveryId"],
    where: { shop, kind: { in: FIRST_EVENT_KINDS } },
    _count: { _all: true },
  });
  const eventsOf = new Map(events.map((e) => [e.deliveryId, e._count._all]));

  const byOrder = new Map<string, { rows: number; events: number }>();
  const eventsByFulfillment = new Map<string, number>();
  for (const row of rows) {
    const n = eventsOf.get(row.id) ?? 0;
    const order = byOrder.get(row.orderId) ?? { rows: 0, events: 0 };
    order.rows += 1;
    order.events += n;
    byOrder.set(row.orderId, order);
    if (row.fulfillmentId) {
      eventsByFulfillment.set(
        row.fulfillmentId,
        (eventsByFulfillment.get(row.fulfillmentId) ?? 0) + n,
      );
    }
  }
  let duplicated = 0;
  for (const order of byOrder.values()) duplicated += Math.max(order.rows, order.events, 1) - 1;
  let lost = 0;
  for (const fulfillmentId of acknowledged) {
    if (!eventsByFulfillment.get(fulfillmentId)) lost += 1;
  }
  return {
    lost,
    duplicated,
    deliveries: rows.length,
    firstEvents: [...eventsOf.values()].reduce((sum, n) => sum + n, 0),
    unacknowledged: rows.filter((r) => !r.fulfillmentId || !acknowledged.has(r.fulfillmentId))
      .length,
  };
}
