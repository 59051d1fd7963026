import type { NextStepFigures } from "../../domain/next-steps";
import { Prisma } from "@prisma/client";
import { z } from "zod";
import prisma, { databaseProvider } from "../../db.server";
import { TO_COLLECT_STATES } from "../../domain/settlements";
import { parseState, type DeliveryState } from "../../domain/states";
import { stuckWhere, TAB_STATES } from "./delivery-list.server";

/**
 * Home's figures (ADR 0041). Each one reads a bounded set of index entries, whatever the shop's
 * history: the deliveries still under way (states that a delivery leaves), or the outcomes of a
 * bounded period through (shop, state, lastMovedAt, createdAt). A final delivery's lastMovedAt is
 * when it reached its outcome (the sync sets it with the state, and nothing moves it after).
 */

/** Kuwait has no daylight saving time: UTC+3 all year. */
const KUWAIT_OFFSET_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
export const SERIES_DAYS = 14;

/** Midnight in Kuwait of the day `at` falls on, as an instant. */
export function kuwaitDayStart(at: Date): Date {
  const local = at.getTime() + KUWAIT_OFFSET_MS;
  return new Date(local - (((local % DAY_MS) + DAY_MS) % DAY_MS) - KUWAIT_OFFSET_MS);
}

/** The Kuwait date (YYYY-MM-DD) of an instant. */
export function kuwaitDate(at: Date): string {
  return new Date(at.getTime() + KUWAIT_OFFSET_MS).toISOString().slice(0, 10);
}

export const TO_SEND_STATES: readonly DeliveryState[] = ["pending", "ready", "creating", "unknown"];
export const AT_COURIER_STATES: readonly DeliveryState[] = ["created", "picked_up", "in_transit"];
const outcomeState = z.enum(["delivered", "failed", "returned"]);
const OUTCOME_STATES: readonly DeliveryState[] = outcomeState.options;
const STUCK_STATES: readonly DeliveryState[] = [
  "created",
  "picked_up",
  "in_transit",
  "out_for_delivery",
];

/** KWD as decimal text to fils (thousandths), exactly. */
export function toFils(amount: string | null): number {
  if (amount === null) return 0;
  const match = /^(-?)(\d+)(?:\.(\d{1,3}))?$/.exec(amount.trim());
  if (!match) return 0;
  const fils = Number(match[2]) * 1000 + Number((match[3] ?? "").padEnd(3, "0"));
  return match[1] === "-" ? -fils : fils;
}

export interface DayOutcomes {
  /** Kuwait date, YYYY-MM-DD. */
  date: string;
  delivered: number;
  failed: number;
  returned: number;
  /** Median minutes from the fulfilment (the delivery's creation) to delivery; null: none. */
  medianMinutes: number | null;
}

export interface Dashboard {
  toSend: number;
  attention: number;
  atCourier: number;
  outForDelivery: number;
  deliveredToday: number;
  failedOrReturnedToday: number;
  /** Fils. */
  cashToCollect: number;
  collectedToday: number;
  series: DayOutcomes[];
  /** What waits for the merchant, by state, and the stuck parcels (Home's next steps). */
  waiting: Omit<NextStepFigures, "cashDifferences">;
  /** When "today" began, for the links to the list. */
  todayStart: Date;
}

const dayRow = z.object({
  day: z.string(),
  state: outcomeState,
  n: z.coerce.number(),
  // Milliseconds; null when the group has no delivered row (PostgreSQL's FILTER).
  medianMs: z.coerce.number().nullable(),
});
const sumRow = z.object({ fils: z.coerce.number().nullable() });

const states = (list: readonly DeliveryState[]) =>
  Prisma.join(list.map((state) => Prisma.sql`${state}`));

/**
 * Outcomes a Kuwait day and state since `since`, with the median time from creation to the
 * outcome, aggregated by the database: one range of (shop, state, lastMovedAt, createdAt) per
 * outcome state, read from the index alone, and a few dozen rows back whatever the volume.
 */
async function outcomesByDay(shop: string, since: Date) {
  const rows =
    databaseProvider() === "postgresql"
      ? await prisma.$queryRaw<unknown[]>`
          SELECT to_char("lastMovedAt" + interval '3 hours', 'YYYY-MM-DD') AS "day", "state",
            COUNT(*) AS "n",
            percentile_cont(0.5) WITHIN GROUP (
              ORDER BY EXTRACT(EPOCH FROM ("lastMovedAt" - "createdAt")) * 1000
            ) AS "medianMs"
          FROM "Delivery"
          WHERE "shop" = ${shop} AND "state" IN (${states(OUTCOME_STATES)})
            AND "lastMovedAt" >= ${since}
          GROUP BY 1, 2`
      : // SQLite has no percentile: each group's middle row (or two) by a window's row number.
        await prisma.$queryRaw<unknown[]>`
          WITH "moved" AS (
            SELECT date("lastMovedAt", '+3 hours') AS "day", "state",
              ROUND((julianday("lastMovedAt") - julianday("createdAt")) * 86400000.0) AS "ms"
            FROM "Delivery"
            WHERE "shop" = ${shop} AND "state" IN (${states(OUTCOME_STATES)})
              AND "lastMovedAt" >= ${since}
          ), "ranked" AS (
            SELECT "day", "state", "ms",
              ROW_NUMBER() OVER (PARTITION BY "day", "state" ORDER BY "ms") AS "k",
              COUNT(*) OVER (PARTITION BY "day", "state") AS "n"
            FROM "moved"
          )
          SELECT "day", "state", MAX("n") AS "n",
            AVG(CASE WHEN "k" IN (("n" + 1) / 2, ("n" + 2) / 2) THEN "ms" END) AS "medianMs"
          FROM "ranked" GROUP BY "day", "state"`;
  return z.array(dayRow).parse(rows);
}

/**
 * The cash (fils) of the shop's deliveries in these states, moved since `since` if given, summed
 * by the database. Amounts are decimal text with at most three decimals (ADR 0035), so scaling by
 * 1,000 and rounding is exact; text that is not an amount counts nothing, as in `toFils`.
 */
async function cashSum(
  shop: string,
  list: readonly DeliveryState[],
  since?: Date,
): Promise<number> {
  const moved = since ? Prisma.sql`AND "lastMovedAt" >= ${since}` : Prisma.empty;
  const rows =
    databaseProvider() === "postgresql"
      ? await prisma.$queryRaw<unknown[]>`
          SELECT SUM(CASE WHEN "cashToCollect" ~ '^-?[0-9]+(\.[0-9]{1,3})?$'
            THEN ROUND(CAST("cashToCollect" AS NUMERIC) * 1000) ELSE 0 END)::bigint AS "fils"
          FROM "Delivery"
          WHERE "shop" = ${shop} AND "state" IN (${states(list)})
            AND "cashToCollect" IS NOT NULL ${moved}`
      : await prisma.$queryRaw<unknown[]>`
          SELECT SUM(CAST(ROUND(CAST("cashToCollect" AS REAL) * 1000) AS INTEGER)) AS "fils"
          FROM "Delivery"
          WHERE "shop" = ${shop} AND "state" IN (${states(list)})
            AND "cashToCollect" IS NOT NULL ${moved}`;
  return z.array(sumRow).parse(rows)[0]?.fils ?? 0;
}

/** The deliveries under way, by state, and how many tracked parcels are stuck. */
export interface UnderWay {
  /** How many deliveries are in these states (under-way states only). */
  count: (list: readonly DeliveryState[]) => number;
  stuck: number;
}

/**
 * The deliveries under way (states a delivery leaves: to send, at the courier, out for delivery,
 * needing the merchant) counted by state in one grouped query, and the stuck parcels: their size
 * is the work in flight, not the history (ADR 0041). Home's figures and the list's tab counts.
 */
export async function countUnderWay(shop: string, now = new Date()): Promise<UnderWay> {
  const [byState, stuck] = await Promise.all([
    prisma.delivery.groupBy({
      by: ["state"],
      where: {
        shop,
        state: {
          in: [
            ...new Set([
              ...TO_SEND_STATES,
              ...AT_COURIER_STATES,
              ...TAB_STATES.attention!,
              "out_for_delivery",
            ]),
          ],
        },
      },
      _count: { _all: true },
    }),
    prisma.delivery.count({
      where: { shop, state: { in: [...STUCK_STATES] }, ...stuckWhere(now) },
    }),
  ]);
  const count = (list: readonly DeliveryState[]) =>
    byState
      .filter((row) => list.includes(parseState(row.state)))
      .reduce((sum, row) => sum + row._count._all, 0);
  return { count, stuck };
}

/** The list's tabs that count their deliveries: those of work under way, bounded (ADR 0041). */
export type CountedTab = "attention" | "in_progress" | "out_for_delivery";

export function tabCounts(underWay: UnderWay): Record<CountedTab, number> {
  return {
    attention: underWay.count(TAB_STATES.attention!) + underWay.stuck,
    in_progress: underWay.count(TAB_STATES.in_progress!),
    out_for_delivery: underWay.count(TAB_STATES.out_for_delivery!),
  };
}

export async function getDashboard(shop: string, now = new Date()): Promise<Dashboard> {
  const todayStart = kuwaitDayStart(now);
  const seriesStart = new Date(todayStart.getTime() - (SERIES_DAYS - 1) * DAY_MS);
  const [underWay, cashToCollect, collectedToday, outcomes] = await Promise.all([
    countUnderWay(shop, now),
    cashSum(shop, TO_COLLECT_STATES),
    cashSum(shop, ["delivered"], todayStart),
    outcomesByDay(shop, seriesStart),
  ]);
  const { count } = underWay;

  const series: DayOutcomes[] = [];
  for (let i = 0; i < SERIES_DAYS; i += 1) {
    const date = kuwaitDate(new Date(seriesStart.getTime() + i * DAY_MS));
    const of = (state: z.infer<typeof outcomeState>) =>
      outcomes.find((row) => row.day === date && row.state === state);
    const delivered = of("delivered");
    series.push({
      date,
      delivered: delivered?.n ?? 0,
      failed: of("failed")?.n ?? 0,
      returned: of("returned")?.n ?? 0,
      medianMinutes:
        delivered?.medianMs == null ? null : Math.round(delivered.medianMs / 6_000) / 10,
    });
  }
  const today = series[series.length - 1]!;
  return {
    toSend: count(TO_SEND_STATES),
    attention: tabCounts(underWay).attention,
    atCourier: count(AT_COURIER_STATES),
    outForDelivery: count(["out_for_delivery"]),
    deliveredToday: today.delivered,
    failedOrReturnedToday: today.failed + today.returned,
    cashToCollect,
    collectedToday,
    series,
    waiting: {
      needsAddress: count(["needs_address"]),
      rejected: count(["rejected"]),
      needsReview: count(["needs_review"]),
      needsAttention: count(["needs_attention"]),
      failed: count(["failed"]),
      stuck: underWay.stuck,
    },
    todayStart,
  };
}

/** Home's setup steps beyond the courier connection: a pickup location, a first delivery sent. */
export async function getSetupProgress(
  shop: string,
): Promise<{ pickup: boolean; firstSent: boolean }> {
  const [pickup, sent] = await Promise.all([
    prisma.pickupLocation.findFirst({ where: { shop }, select: { id: true } }),
    prisma.delivery.findFirst({
      where: { shop, courierOrderId: { not: null } },
      select: { id: true },
    }),
  ]);
  return { pickup: pickup !== null, firstSent: sent !== null };
}
