import { z } from "zod";
import prisma from "../db.server";
import { parseState, type DeliveryState } from "../deliveries/domain/states";
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
/** Still to be delivered, so their cash is still to be collected. */
const COLLECTING_STATES: readonly DeliveryState[] = [
  ...TO_SEND_STATES,
  ...AT_COURIER_STATES,
  "out_for_delivery",
  "needs_address",
  "needs_review",
  "needs_attention",
  "rejected",
  "failed",
];
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
  /** When "today" began, for the links to the list. */
  todayStart: Date;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function getDashboard(shop: string, now = new Date()): Promise<Dashboard> {
  const todayStart = kuwaitDayStart(now);
  const seriesStart = new Date(todayStart.getTime() - (SERIES_DAYS - 1) * DAY_MS);
  const [byState, stuck, collecting, outcomes] = await Promise.all([
    prisma.delivery.groupBy({
      by: ["state"],
      where: { shop, state: { in: [...new Set([...COLLECTING_STATES, ...TO_SEND_STATES])] } },
      _count: { _all: true },
    }),
    prisma.delivery.count({
      where: { shop, state: { in: [...STUCK_STATES] }, ...stuckWhere(now) },
    }),
    prisma.delivery.findMany({
      where: { shop, state: { in: [...COLLECTING_STATES] }, cashToCollect: { not: null } },
      select: { cashToCollect: true },
    }),
    prisma.delivery.findMany({
      where: { shop, state: { in: [...OUTCOME_STATES] }, lastMovedAt: { gte: seriesStart } },
      select: { state: true, lastMovedAt: true, createdAt: true, cashToCollect: true },
    }),
  ]);
  const count = (states: readonly DeliveryState[]) =>
    byState
      .filter((row) => states.includes(parseState(row.state)))
      .reduce((sum, row) => sum + row._count._all, 0);

  const days = new Map<string, DayOutcomes & { minutes: number[] }>();
  for (let i = 0; i < SERIES_DAYS; i += 1) {
    const date = kuwaitDate(new Date(seriesStart.getTime() + i * DAY_MS));
    days.set(date, {
      date,
      delivered: 0,
      failed: 0,
      returned: 0,
      medianMinutes: null,
      minutes: [],
    });
  }
  let deliveredToday = 0;
  let failedOrReturnedToday = 0;
  let collectedToday = 0;
  for (const row of outcomes) {
    const at = row.lastMovedAt!;
    const day = days.get(kuwaitDate(at));
    if (!day) continue;
    const state = outcomeState.parse(row.state);
    day[state] += 1;
    const today = at >= todayStart;
    if (state === "delivered") {
      day.minutes.push((at.getTime() - row.createdAt.getTime()) / 60_000);
      if (today) {
        deliveredToday += 1;
        collectedToday += toFils(row.cashToCollect);
      }
    } else if (today) {
      failedOrReturnedToday += 1;
    }
  }
  return {
    toSend: count(TO_SEND_STATES),
    attention: count(TAB_STATES.attention!) + stuck,
    atCourier: count(AT_COURIER_STATES),
    outForDelivery: count(["out_for_delivery"]),
    deliveredToday,
    failedOrReturnedToday,
    cashToCollect: collecting.reduce((sum, row) => sum + toFils(row.cashToCollect), 0),
    collectedToday,
    series: [...days.values()].map(({ minutes, ...day }) => ({
      ...day,
      medianMinutes: median(minutes),
    })),
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
