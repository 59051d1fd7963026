import { createHash } from "node:crypto";
import prisma from "../db.server";
import { Unreadable } from "../domain/json-column";
import { parseState, type DeliveryState } from "../domain/states";
import { courierExceptionRawColumn } from "../domain/records-columns";
import type { CourierException as WireException } from "../courier";
import { openSecondChance } from "./second-chance.server";

/**
 * The courier's exceptions as the app keeps them: one row per exception (by the courier's id, or a
 * digest of what it sent when it gives none), linked to the delivery whose courier order it names
 * when the app knows that order; unlinked ones are kept and listed all the same.
 */

export function exceptionKey(exception: WireException): string {
  const own = exception.raw.exceptionId ?? exception.raw.id;
  if (typeof own === "string" || typeof own === "number") return `id:${own}`;
  return `sha256:${createHash("sha256").update(JSON.stringify(exception.raw)).digest("hex")}`;
}

/** Saves the exceptions not seen before; returns how many were new. */
export async function saveCourierExceptions(
  shop: string,
  environment: string,
  exceptions: readonly WireException[],
  at = new Date(),
): Promise<number> {
  let added = 0;
  for (const exception of exceptions) {
    const key = exceptionKey(exception);
    const orderNumber = exception.raw.orderNumber;
    const refs = [exception.orderId, typeof orderNumber === "string" ? orderNumber : null].filter(
      (r): r is string => !!r,
    );
    const delivery = refs.length
      ? await prisma.delivery.findFirst({
          where: {
            shop,
            OR: [{ courierOrderId: { in: refs } }, { courierOrderNumber: { in: refs } }],
          },
          select: { id: true },
        })
      : null;
    const existing = await prisma.courierException.findUnique({
      where: { shop_key: { shop, key } },
      select: { id: true, deliveryId: true },
    });
    if (existing) {
      // A delivery recorded after the exception was first read is linked now.
      if (!existing.deliveryId && delivery)
        await prisma.courierException.update({
          where: { id: existing.id },
          data: { deliveryId: delivery.id },
        });
      continue;
    }
    await prisma.$transaction(async (tx) => {
      await tx.courierException.create({
        data: {
          shop,
          environment,
          key,
          courierOrderId: refs[0] ?? null,
          deliveryId: delivery?.id ?? null,
          type: exception.type,
          description: exception.description,
          happenedAt: exception.createdAt,
          raw: courierExceptionRawColumn.encode(exception.raw),
          firstSeenAt: at,
        },
      });
      // The shopper gets the link again, with the exception (issue 27, item 5).
      if (delivery)
        await openSecondChance(tx, {
          shop,
          deliveryId: delivery.id,
          cause: "courier_exception",
          detail: /address/i.test(exception.type ?? "") ? "courier_address_problem" : null,
          at,
        });
    });
    added += 1;
  }
  return added;
}

export interface ExceptionView {
  id: string;
  deliveryId: string | null;
  orderName: string | null;
  /** The linked delivery's state now; null when the exception names no delivery the app has. */
  deliveryState: DeliveryState | null;
  courierOrderId: string | null;
  type: string | null;
  description: string | null;
  descriptionArabic: string | null;
  happenedAt: string | null;
  firstSeenAt: Date;
}

function arabicOf(raw: string): string | null {
  const parsed = courierExceptionRawColumn.decode(raw);
  if (parsed instanceof Unreadable) return null;
  const text = parsed.descriptionAr ?? parsed.descriptionArabic ?? parsed.reasonAr;
  return typeof text === "string" ? text : null;
}

async function views(
  shop: string,
  rows: Awaited<ReturnType<typeof prisma.courierException.findMany>>,
): Promise<ExceptionView[]> {
  const ids = rows.map((r) => r.deliveryId).filter((id): id is string => id !== null);
  const deliveries = new Map(
    (
      await prisma.delivery.findMany({
        where: { shop, id: { in: ids } },
        select: { id: true, orderName: true, state: true },
      })
    ).map((d) => [d.id, d]),
  );
  return rows.map((r) => {
    const delivery = r.deliveryId ? deliveries.get(r.deliveryId) : undefined;
    return {
      id: r.id,
      deliveryId: r.deliveryId,
      orderName: delivery?.orderName ?? null,
      deliveryState: delivery ? parseState(delivery.state) : null,
      courierOrderId: r.courierOrderId,
      type: r.type,
      description: r.description,
      descriptionArabic: arabicOf(r.raw),
      happenedAt: r.happenedAt,
      firstSeenAt: r.firstSeenAt,
    };
  });
}

/** Exceptions stop asking for attention this long after the app first read them. */
export const EXCEPTION_ATTENTION_MS = 7 * 24 * 3_600_000;

/**
 * The exceptions that ask for the merchant's attention (the deliveries list's Needs attention):
 * read in the last week, and not about a parcel that has since been delivered or cancelled; one
 * the app cannot link to a delivery is listed too.
 */
export async function attentionCourierExceptions(shop: string, now = new Date(), take = 20) {
  const rows = await prisma.courierException.findMany({
    where: {
      shop,
      resolvedAt: null,
      firstSeenAt: { gte: new Date(now.getTime() - EXCEPTION_ATTENTION_MS) },
    },
    orderBy: { firstSeenAt: "desc" },
    take: take * 3,
  });
  return (await views(shop, rows))
    .filter(
      (e) => e.deliveryState === null || !["delivered", "cancelled"].includes(e.deliveryState),
    )
    .slice(0, take);
}

/** The newest exceptions of the shop, linked or not (Needs attention). */
export async function recentCourierExceptions(shop: string, take = 20) {
  const rows = await prisma.courierException.findMany({
    where: { shop, resolvedAt: null },
    orderBy: { firstSeenAt: "desc" },
    take,
  });
  return views(shop, rows);
}

export async function courierExceptionsOfDelivery(shop: string, deliveryId: string) {
  const rows = await prisma.courierException.findMany({
    where: { shop, deliveryId },
    orderBy: { firstSeenAt: "desc" },
  });
  return views(shop, rows);
}

/** Shops whose exceptions are due a read: a readable key is checked by the caller. */
export async function shopsDueForExceptions(now: Date, everyMs: number, take = 20) {
  return prisma.shopSettings.findMany({
    where: {
      uninstalledAt: null,
      courierApiKeySealed: { not: null },
      OR: [
        { exceptionsReadAt: null },
        { exceptionsReadAt: { lt: new Date(now.getTime() - everyMs) } },
      ],
    },
    select: { shop: true, courierEnvironment: true, exceptionsReadAt: true },
    orderBy: { exceptionsReadAt: "asc" },
    take,
  });
}

/** Compare-and-set, so two worker processes do not both read one shop's exceptions. */
export async function takeExceptionsRead(
  shop: string,
  previous: Date | null,
  now: Date,
): Promise<boolean> {
  const { count } = await prisma.shopSettings.updateMany({
    where: { shop, exceptionsReadAt: previous },
    data: { exceptionsReadAt: now },
  });
  return count === 1;
}

/**
 * Which of the courier's orders (by id or number) the shop has as deliveries: the reports page's
 * comparison of the courier's history with the app's deliveries.
 */
export async function knownCourierOrders(
  shop: string,
  ids: readonly string[],
  numbers: readonly string[],
): Promise<{ ids: Set<string>; numbers: Set<string> }> {
  const known = await prisma.delivery.findMany({
    where: {
      shop,
      OR: [{ courierOrderId: { in: [...ids] } }, { courierOrderNumber: { in: [...numbers] } }],
    },
    select: { courierOrderId: true, courierOrderNumber: true },
  });
  return {
    ids: new Set(known.flatMap((k) => (k.courierOrderId ? [k.courierOrderId] : []))),
    numbers: new Set(known.flatMap((k) => (k.courierOrderNumber ? [k.courierOrderNumber] : []))),
  };
}
