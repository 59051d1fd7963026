import { randomBytes } from "node:crypto";
import type { Delivery, Prisma } from "@prisma/client";
import prisma from "../db.server";
import type { StatusMeaning, TrackedState, ShopifyEventStatus } from "../deliveries/tracking";
import { env } from "../env.server";
import { openSecret, sealSecret } from "../security/secret-box";

/**
 * Tracking data: which deliveries are due for a look at the courier, the shop's status mapping,
 * and the credentials of the courier's status pushes. Every query is scoped by shop, but the
 * claim, which works across the shops still installed.
 */

/** Rows the sync follows: a due `syncAt`, no live lease, the shop still installed. */
function dueWhere(now: Date): Prisma.DeliveryWhereInput {
  return {
    syncAt: { lte: now },
    courierOrderId: { not: null },
    trackingPushedAt: { not: null },
    OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }],
  };
}

/**
 * Leases up to `limit` deliveries due for tracking, fairly across shops: each shop with due rows
 * gets an equal share (at least `perShopMin`), oldest due first, so one busy shop does not fill a
 * pass while the others wait. One conditional update claims the batch (rows another worker leased
 * in between are not matched), then the rows this claim won are read back by their lease.
 */
export async function claimDueTracking(
  owner: string,
  limit: number,
  leaseMs: number,
  now = new Date(),
  perShopMin = 1,
): Promise<Delivery[]> {
  const installed = await installedShops();
  const due = await prisma.delivery.groupBy({
    by: ["shop"],
    where: { ...dueWhere(now), shop: { in: installed } },
    _min: { syncAt: true },
    orderBy: { _min: { syncAt: "asc" } },
    take: limit,
  });
  if (due.length === 0) return [];
  const share = Math.max(perShopMin, Math.ceil(limit / due.length));
  const ids: string[] = [];
  const more: string[] = [];
  const rowsOf = (shop: string, skip: number, take: number) =>
    prisma.delivery.findMany({
      where: { ...dueWhere(now), shop },
      orderBy: { syncAt: "asc" },
      skip,
      take,
      select: { id: true },
    });
  for (const { shop } of due) {
    if (ids.length >= limit) break;
    const rows = await rowsOf(shop, 0, Math.min(share, limit - ids.length));
    ids.push(...rows.map((r) => r.id));
    if (rows.length === share) more.push(shop);
  }
  // What the quieter shops left goes to the busy ones, oldest due first.
  for (const shop of more) {
    if (ids.length >= limit) break;
    const rows = await rowsOf(shop, share, limit - ids.length);
    ids.push(...rows.map((r) => r.id));
  }
  const leaseExpiresAt = new Date(now.getTime() + leaseMs);
  await prisma.delivery.updateMany({
    where: { id: { in: ids }, ...dueWhere(now) },
    data: { leaseOwner: owner, leaseExpiresAt },
  });
  return prisma.delivery.findMany({
    where: { id: { in: ids }, leaseOwner: owner, leaseExpiresAt },
    orderBy: { syncAt: "asc" },
  });
}

/** Leases one delivery for a push from the courier; null when someone else holds it. */
export async function leaseForPush(
  shop: string,
  id: string,
  owner: string,
  leaseMs: number,
  now = new Date(),
): Promise<Delivery | null> {
  const { count } = await prisma.delivery.updateMany({
    where: { id, shop, OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }] },
    data: { leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + leaseMs) },
  });
  return count === 1 ? prisma.delivery.findFirst({ where: { id, shop } }) : null;
}

async function installedShops(): Promise<string[]> {
  const rows = await prisma.shopSettings.findMany({
    where: { uninstalledAt: null },
    select: { shop: true },
  });
  return rows.map((r) => r.shop);
}

/** The delivery a courier order belongs to, in one shop. */
export async function findDeliveryByCourierOrder(shop: string, courierOrderId: string) {
  return prisma.delivery.findFirst({ where: { shop, courierOrderId } });
}

/** Asks for a look at the courier as soon as the sync runs (a push arrived while leased). */
export async function syncSoon(shop: string, id: string, at = new Date()) {
  await prisma.delivery.updateMany({
    where: { id, shop, syncAt: { not: null } },
    data: { syncAt: at },
  });
}

// --- Status mapping --------------------------------------------------------------------------

export interface StatusMappingRow {
  code: string;
  name: string | null;
  state: TrackedState | "unchanged" | null;
  shopifyStatus: ShopifyEventStatus | null;
  source: "default" | "merchant" | "unmapped";
  lastSeenAt: Date | null;
}

export async function listStatusMappings(shop: string): Promise<StatusMappingRow[]> {
  const rows = await prisma.courierStatusMapping.findMany({
    where: { shop },
    orderBy: [{ state: "asc" }, { code: "asc" }],
  });
  return rows.map((r) => ({
    code: r.code,
    name: r.name,
    state: r.state as StatusMappingRow["state"],
    shopifyStatus: r.shopifyStatus as ShopifyEventStatus | null,
    source: r.source as StatusMappingRow["source"],
    lastSeenAt: r.lastSeenAt,
  }));
}

/** What each status code means for the shop (null: not mapped), and the courier's names. */
export async function loadStatusMappings(
  shop: string,
): Promise<{ mappings: Map<string, StatusMeaning | null>; names: Map<string, string> }> {
  const rows = await prisma.courierStatusMapping.findMany({ where: { shop } });
  return {
    mappings: new Map(
      rows.map((r): [string, StatusMeaning | null] => [
        r.code,
        r.state
          ? {
              state: r.state as StatusMeaning["state"],
              shopify: r.shopifyStatus as ShopifyEventStatus | null,
            }
          : null,
      ]),
    ),
    names: new Map(rows.flatMap((r) => (r.name ? [[r.code, r.name] as [string, string]] : []))),
  };
}

/**
 * Records a status the app has met (in the master data or in tracking) with its recognized
 * meaning, or as unmapped. A mapping that exists already, the merchant's above all, is kept.
 */
export async function rememberStatus(
  shop: string,
  code: string,
  name: string | null,
  meaning: StatusMeaning | null,
  seenAt: Date | null,
) {
  await prisma.courierStatusMapping.upsert({
    where: { shop_code: { shop, code } },
    create: {
      shop,
      code,
      name,
      state: meaning?.state ?? null,
      shopifyStatus: meaning?.shopify ?? null,
      source: meaning ? "default" : "unmapped",
      lastSeenAt: seenAt,
    },
    update: seenAt ? { lastSeenAt: seenAt } : {},
  });
}

/** The merchant's choices on Settings; `state: null` leaves a status unmapped. */
export async function saveStatusMappings(
  shop: string,
  entries: {
    code: string;
    state: StatusMappingRow["state"];
    shopifyStatus: ShopifyEventStatus | null;
  }[],
) {
  await prisma.$transaction(
    entries.map((entry) =>
      prisma.courierStatusMapping.updateMany({
        where: { shop, code: entry.code },
        data: {
          state: entry.state,
          shopifyStatus: entry.state ? entry.shopifyStatus : null,
          source: entry.state ? "merchant" : "unmapped",
        },
      }),
    ),
  );
}

// --- The courier's status pushes -------------------------------------------------------------

const secretContext = (shop: string) => `shop:${shop}|courier-webhook-secret`;

export interface PushCredentials {
  token: string;
  secret: string;
}

/** Turns pushes on (or gives a new URL and secret: the old ones stop working at once). */
export async function createPushCredentials(shop: string): Promise<PushCredentials> {
  const token = randomBytes(18).toString("base64url");
  const secret = randomBytes(24).toString("base64url");
  await prisma.shopSettings.update({
    where: { shop },
    data: {
      courierWebhookToken: token,
      courierWebhookSecretSealed: sealSecret(secret, secretContext(shop), env().ENCRYPTION_KEYS),
    },
  });
  return { token, secret };
}

export async function removePushCredentials(shop: string) {
  await prisma.shopSettings.update({
    where: { shop },
    data: { courierWebhookToken: null, courierWebhookSecretSealed: null },
  });
}

/** The shop's push URL token and secret, or null when pushes are off. */
export async function readPushCredentials(shop: string): Promise<PushCredentials | null> {
  const settings = await prisma.shopSettings.findUnique({
    where: { shop },
    select: { courierWebhookToken: true, courierWebhookSecretSealed: true },
  });
  if (!settings?.courierWebhookToken || !settings.courierWebhookSecretSealed) return null;
  return {
    token: settings.courierWebhookToken,
    secret: openSecret(
      settings.courierWebhookSecretSealed,
      secretContext(shop),
      env().ENCRYPTION_KEYS,
    ),
  };
}

/** Which installed shop a push URL belongs to, with its secret. */
export async function shopForPushToken(
  token: string,
): Promise<{ shop: string; secret: string } | null> {
  const settings = await prisma.shopSettings.findUnique({
    where: { courierWebhookToken: token },
    select: { shop: true, uninstalledAt: true, courierWebhookSecretSealed: true },
  });
  if (!settings || settings.uninstalledAt || !settings.courierWebhookSecretSealed) return null;
  return {
    shop: settings.shop,
    secret: openSecret(
      settings.courierWebhookSecretSealed,
      secretContext(settings.shop),
      env().ENCRYPTION_KEYS,
    ),
  };
}

export async function saveMarkCodPaid(shop: string, markCodPaid: boolean) {
  await prisma.shopSettings.update({ where: { shop }, data: { markCodPaid } });
}
