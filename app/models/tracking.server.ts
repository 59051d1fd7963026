import { Prisma, type CourierStatusMapping } from "@prisma/client";
import { z } from "zod";
import prisma, { databaseProvider } from "../db.server";
import {
  ACTIVE_TRACKED_STATES,
  mappedStateSchema,
  shopifyEventStatusSchema,
  TRACKED_STATES,
  type ShopifyEventStatus,
  type StatusMeaning,
} from "../domain/courier-status";
import { deliveryRow, type DeliveryRow } from "./delivery-row.server";

/**
 * Tracking data: which deliveries are due for a look at the courier and the shop's status
 * mapping (the push credentials are in push-credentials.server.ts). Every query is scoped by
 * shop, but the claim, which works across the shops still installed.
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
): Promise<DeliveryRow[]> {
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
  if (ids.length === 0) return [];
  const leaseExpiresAt = new Date(now.getTime() + leaseMs);
  if (databaseProvider() === "postgresql") {
    // Several sync processes (ADR 0009): rows another claimer is leasing right now are passed
    // over rather than waited for; the ones it already leased no longer match.
    const due = Prisma.sql`"syncAt" <= ${now} AND "courierOrderId" IS NOT NULL
      AND "trackingPushedAt" IS NOT NULL
      AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ${now})`;
    await prisma.$executeRaw`
      UPDATE "Delivery" SET "leaseOwner" = ${owner}, "leaseExpiresAt" = ${leaseExpiresAt},
        "leaseGeneration" = "leaseGeneration" + 1
      WHERE "id" IN (
        SELECT "id" FROM "Delivery" WHERE "id" IN (${Prisma.join(ids)}) AND ${due}
        FOR UPDATE SKIP LOCKED
      ) AND ${due}`;
  } else {
    await prisma.delivery.updateMany({
      where: { id: { in: ids }, ...dueWhere(now) },
      data: { leaseOwner: owner, leaseExpiresAt, leaseGeneration: { increment: 1 } },
    });
  }
  const leased = await prisma.delivery.findMany({
    where: { id: { in: ids }, leaseOwner: owner, leaseExpiresAt },
    orderBy: { syncAt: "asc" },
  });
  return leased.map(deliveryRow);
}

/**
 * Leases one delivery for a push from the courier; null when someone else holds it, or when its
 * tracking number is not on Shopify yet (the delivery worker's until then).
 */
export async function leaseForPush(
  shop: string,
  id: string,
  owner: string,
  leaseMs: number,
  now = new Date(),
): Promise<DeliveryRow | null> {
  const { count } = await prisma.delivery.updateMany({
    where: {
      id,
      shop,
      trackingPushedAt: { not: null },
      OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }],
    },
    data: {
      leaseOwner: owner,
      leaseExpiresAt: new Date(now.getTime() + leaseMs),
      leaseGeneration: { increment: 1 },
    },
  });
  if (count !== 1) return null;
  const row = await prisma.delivery.findFirst({ where: { id, shop } });
  return row && deliveryRow(row);
}

async function installedShops(): Promise<string[]> {
  const rows = await prisma.shopSettings.findMany({
    where: { uninstalledAt: null },
    select: { shop: true },
  });
  return rows.map((r) => r.shop);
}

/** The delivery a courier order belongs to, in one shop. */
export async function findDeliveryByCourierOrder(
  shop: string,
  courierOrderId: string,
): Promise<DeliveryRow | null> {
  const row = await prisma.delivery.findFirst({ where: { shop, courierOrderId } });
  return row && deliveryRow(row);
}

/** Asks for a look at the courier as soon as the sync runs (a push arrived while leased). */
export async function syncSoon(shop: string, id: string, at = new Date()) {
  await prisma.delivery.updateMany({
    where: { id, shop, syncAt: { not: null } },
    data: { syncAt: at },
  });
}

// --- Status mapping --------------------------------------------------------------------------

/** What a `CourierStatusMapping` row says a status means, each column one of a closed set. */
const storedMapping = z.object({
  state: mappedStateSchema.nullable(),
  shopifyStatus: shopifyEventStatusSchema.nullable(),
  source: z.enum(["default", "merchant", "unmapped"]),
});

export type StatusMappingRow = Pick<CourierStatusMapping, "code" | "name" | "lastSeenAt"> &
  z.output<typeof storedMapping> & {
    /** Why what is stored for the status cannot be read; it is then unmapped. */
    problem: string | null;
  };

/**
 * A mapping as the app reads it. One the app cannot read (a hand edit, a value no longer
 * written) is unmapped, not guessed: its deliveries keep their state and Settings says why, until
 * the merchant chooses what it means again.
 */
function statusMappingRow(row: CourierStatusMapping): StatusMappingRow {
  const { code, name, lastSeenAt } = row;
  const parsed = storedMapping.safeParse(row);
  if (parsed.success) return { code, name, lastSeenAt, ...parsed.data, problem: null };
  const unknown = storedMapping
    .keyof()
    .options.filter((column) => !storedMapping.shape[column].safeParse(row[column]).success)
    .map((column) => `"${row[column]}"`);
  return {
    code,
    name,
    lastSeenAt,
    state: null,
    shopifyStatus: null,
    source: "unmapped",
    problem: `The app cannot read what was chosen for this status (${unknown.join(", ")}): choose what it means again.`,
  };
}

export async function listStatusMappings(shop: string): Promise<StatusMappingRow[]> {
  const rows = (await prisma.courierStatusMapping.findMany({ where: { shop } })).map(
    statusMappingRow,
  );
  // Unmapped first (they need the merchant), then in the order a parcel goes through them.
  const rank = ({ state }: StatusMappingRow) =>
    state === null ? -1 : state === "unchanged" ? 99 : TRACKED_STATES.indexOf(state);
  return rows.sort((a, b) => rank(a) - rank(b) || a.code.localeCompare(b.code));
}

/** What each status code means for the shop (null: not mapped), and the courier's names. */
export async function loadStatusMappings(
  shop: string,
): Promise<{ mappings: Map<string, StatusMeaning | null>; names: Map<string, string> }> {
  const rows = (await prisma.courierStatusMapping.findMany({ where: { shop } })).map(
    statusMappingRow,
  );
  return {
    mappings: new Map(
      rows.map((r): [string, StatusMeaning | null] => [
        r.code,
        r.state ? { state: r.state, shopify: r.shopifyStatus } : null,
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
    // The courier's name is kept up to date; what the status means is not touched.
    update: { ...(name ? { name } : {}), ...(seenAt ? { lastSeenAt: seenAt } : {}) },
  });
}

/**
 * The merchant's choices on Settings; `state: null` leaves a status unmapped. Only the statuses
 * whose meaning changed become the merchant's (the others keep following the defaults). The
 * followed deliveries now on a changed status are due at once, so they follow its new meaning
 * (planTrackingUpdate applies the current status again when it now moves the delivery).
 */
export async function saveStatusMappings(
  shop: string,
  entries: {
    code: string;
    state: StatusMappingRow["state"];
    shopifyStatus: ShopifyEventStatus | null;
  }[],
  now = new Date(),
): Promise<{ statuses: number; deliveries: number }> {
  const current = new Map(
    (await prisma.courierStatusMapping.findMany({ where: { shop } })).map((r) => [r.code, r]),
  );
  const changed = entries.filter((entry) => {
    const row = current.get(entry.code);
    const shopifyStatus = entry.state ? entry.shopifyStatus : null;
    return row && (row.state !== entry.state || row.shopifyStatus !== shopifyStatus);
  });
  await prisma.$transaction(
    changed.map((entry) =>
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
  const mapped = changed.filter((entry) => entry.state !== null).map((entry) => entry.code);
  const { count } = mapped.length
    ? await prisma.delivery.updateMany({
        where: {
          shop,
          courierStatus: { in: mapped },
          state: { in: [...ACTIVE_TRACKED_STATES] },
          syncAt: { not: null },
        },
        data: { syncAt: now },
      })
    : { count: 0 };
  return { statuses: changed.length, deliveries: count };
}

export async function saveMarkCodPaid(shop: string, markCodPaid: boolean) {
  await prisma.shopSettings.update({ where: { shop }, data: { markCodPaid } });
}
