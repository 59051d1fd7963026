import type { FulfillmentCheck } from "@prisma/client";
import prisma from "../db.server";

/**
 * The check for fulfillments whose webhook never came, per shop (ADR 0013): when it is due, and
 * how far it has looked. Every query is scoped by shop; the row is deleted with the shop.
 */

/**
 * Gives every installed shop without one a check row: it looks from `at` on, first at `firstAt`.
 * A few shops, read once a minute at most by each worker.
 */
export async function ensureFulfillmentChecks(at: Date, firstAt: Date): Promise<void> {
  const [shops, checks] = await Promise.all([
    prisma.shopSettings.findMany({ where: { uninstalledAt: null }, select: { shop: true } }),
    prisma.fulfillmentCheck.findMany({ select: { shop: true } }),
  ]);
  const known = new Set(checks.map((c) => c.shop));
  for (const { shop } of shops) {
    if (known.has(shop)) continue;
    // Another worker may create it at the same moment: either row is the same.
    await prisma.fulfillmentCheck
      .create({ data: { shop, checkedUntil: at, recoverFrom: at, nextCheckAt: firstAt } })
      .catch(() => undefined);
  }
}

/**
 * Takes up to `limit` due checks: each is moved to `until` first, conditionally on the time read,
 * so of several workers one takes it; one that stops mid-check leaves it for `until`.
 */
export async function claimDueFulfillmentChecks(
  at: Date,
  until: Date,
  limit: number,
): Promise<FulfillmentCheck[]> {
  const due = await prisma.fulfillmentCheck.findMany({
    where: { nextCheckAt: { lte: at } },
    orderBy: { nextCheckAt: "asc" },
    take: limit,
  });
  const taken: FulfillmentCheck[] = [];
  for (const check of due) {
    const { count } = await prisma.fulfillmentCheck.updateMany({
      where: { shop: check.shop, nextCheckAt: check.nextCheckAt },
      data: { nextCheckAt: until },
    });
    if (count === 1) taken.push(check);
  }
  return taken;
}

/**
 * A check ended: done up to `checkedUntil` (with automatic sending off, nothing made before
 * `recoverFrom` is recorded later), or failed (`lastError`, and when to try again).
 */
export async function finishFulfillmentCheck(
  shop: string,
  result:
    | { checkedUntil: Date; at: Date; recoverFrom?: Date }
    | { lastError: string; at: Date; retryAt: Date | null },
): Promise<void> {
  await prisma.fulfillmentCheck.updateMany({
    where: { shop },
    data:
      "checkedUntil" in result
        ? {
            checkedUntil: result.checkedUntil,
            lastCheckAt: result.at,
            lastError: null,
            ...(result.recoverFrom ? { recoverFrom: result.recoverFrom } : {}),
          }
        : {
            lastCheckAt: result.at,
            lastError: result.lastError.slice(0, 500),
            ...(result.retryAt ? { nextCheckAt: result.retryAt } : {}),
          },
  });
}

/** Automatic sending was just turned on: what was fulfilled before is not the check's to send. */
export async function recoverFulfillmentsFrom(shop: string, at: Date): Promise<void> {
  await prisma.fulfillmentCheck.updateMany({ where: { shop }, data: { recoverFrom: at } });
}

/** Of `fulfillmentIds`, those the shop already has a delivery for. */
export async function fulfillmentsWithDeliveries(
  shop: string,
  fulfillmentIds: readonly string[],
): Promise<Set<string>> {
  if (fulfillmentIds.length === 0) return new Set();
  const rows = await prisma.delivery.findMany({
    where: { shop, fulfillmentId: { in: [...fulfillmentIds] } },
    select: { fulfillmentId: true },
  });
  return new Set(rows.map((r) => r.fulfillmentId).filter((id): id is string => id !== null));
}

/** Deliveries the check recorded for the shop and sent on (not skipped): the home page's count. */
export function countRecoveredFulfillments(shop: string): Promise<number> {
  return prisma.delivery.count({
    where: { shop, source: "recovered", state: { not: "skipped" } },
  });
}
