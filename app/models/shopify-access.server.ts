import { Prisma } from "@prisma/client";
import prisma from "../db.server";

/**
 * The shop's hold on renewing its expiring offline token (ADR 0015): one process at a time, across
 * every web and worker process, by a compare-and-set on the shop's settings row. A hold lapses at
 * `until`, so a process that died while renewing does not keep the others waiting for ever.
 * True when `holder` has it now.
 */
export async function takeTokenRenewal(
  shop: string,
  holder: string,
  until: Date,
  now = new Date(),
): Promise<boolean> {
  await ensureSettingsRow(shop);
  // One UPDATE with the condition in its WHERE: SQLite runs it under its single writer lock, and
  // PostgreSQL re-checks the WHERE on the locked row after a concurrent update, so one wins.
  const { count } = await prisma.shopSettings.updateMany({
    where: {
      shop,
      OR: [{ shopifyTokenRenewalUntil: null }, { shopifyTokenRenewalUntil: { lt: now } }],
    },
    data: { shopifyTokenRenewalBy: holder, shopifyTokenRenewalUntil: until },
  });
  return count === 1;
}

/** Lets go of the hold, if `holder` still has it. */
export async function releaseTokenRenewal(shop: string, holder: string): Promise<void> {
  await prisma.shopSettings.updateMany({
    where: { shop, shopifyTokenRenewalBy: holder },
    data: { shopifyTokenRenewalBy: null, shopifyTokenRenewalUntil: null },
  });
}

export interface ShopifyAccess {
  /** When Shopify refused to renew the shop's token; null while access works. */
  lostAt: Date | null;
  /** What Shopify said, in words. */
  reason: string | null;
  /** Someone holds the renewal until then (null: nobody). */
  renewalUntil: Date | null;
}

export async function getShopifyAccess(shop: string): Promise<ShopifyAccess> {
  const row = await prisma.shopSettings.findUnique({
    where: { shop },
    select: {
      shopifyAccessLostAt: true,
      shopifyAccessLostReason: true,
      shopifyTokenRenewalUntil: true,
    },
  });
  return {
    lostAt: row?.shopifyAccessLostAt ?? null,
    reason: row?.shopifyAccessLostReason ?? null,
    renewalUntil: row?.shopifyTokenRenewalUntil ?? null,
  };
}

/** Shopify refused to renew the token: the merchant must authorise the app again. */
export async function markShopifyAccessLost(shop: string, reason: string, at = new Date()) {
  await prisma.shopSettings.updateMany({
    where: { shop },
    data: { shopifyAccessLostAt: at, shopifyAccessLostReason: reason.slice(0, 500) },
  });
}

/** A new token was obtained (token exchange or renewal). True when access had been lost. */
export async function clearShopifyAccessLost(shop: string): Promise<boolean> {
  const { count } = await prisma.shopSettings.updateMany({
    where: { shop, shopifyAccessLostAt: { not: null } },
    data: { shopifyAccessLostAt: null, shopifyAccessLostReason: null },
  });
  return count > 0;
}

/** The hold lives on the settings row; a shop with a session but no row yet gets a bare one. */
async function ensureSettingsRow(shop: string): Promise<void> {
  if (await prisma.shopSettings.findUnique({ where: { shop }, select: { id: true } })) return;
  try {
    await prisma.shopSettings.create({ data: { shop } });
  } catch (error) {
    // Another process created it first.
    if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) {
      throw error;
    }
  }
}
