import { DELIVERY_STATES, type DeliveryState } from "../states";
import { sumFils, type Fils } from "../kwd";
import { expectedCash, kuwaitDay, type LedgerDelivery } from "./reconcile";

/**
 * The cash ledger: every cash-on-delivery delivery and where its money is. "To collect" until the
 * courier delivers it, then "collected, not yet settled" until a statement pays it, then "settled".
 * A parcel that came back (failed, returned, cancelled) collected nothing.
 */
export const CASH_STATUSES = ["to_collect", "collected", "settled", "not_collected"] as const;
export type CashStatus = (typeof CASH_STATUSES)[number];

export const CASH_STATUS_LABELS: Record<CashStatus, string> = {
  to_collect: "To collect",
  collected: "Collected, not yet settled",
  settled: "Settled",
  not_collected: "Not collected",
};

const NOT_COLLECTED_STATES = new Set<string>(["returned", "cancelled", "skipped", "rejected"]);

/** The states whose cash is "to collect" (Home's figure and its link read the same set). */
export const TO_COLLECT_STATES: readonly DeliveryState[] = DELIVERY_STATES.filter(
  (state) => state !== "delivered" && !NOT_COLLECTED_STATES.has(state),
);

export function cashStatus(delivery: Pick<LedgerDelivery, "state" | "settlementId">): CashStatus {
  if (delivery.settlementId !== null) return "settled";
  if (delivery.state === "delivered") return "collected";
  if (NOT_COLLECTED_STATES.has(delivery.state)) return "not_collected";
  return "to_collect";
}

export interface LedgerTotals {
  toCollect: Fils;
  collected: Fils;
  settled: Fils;
}

export interface LedgerDayTotal extends LedgerTotals {
  /** The Kuwait day it was delivered on. */
  day: string;
  deliveries: number;
}

export function ledgerTotals(deliveries: readonly LedgerDelivery[]): LedgerTotals {
  const by = (status: CashStatus) =>
    sumFils(deliveries.filter((d) => cashStatus(d) === status).map(expectedCash));
  return { toCollect: by("to_collect"), collected: by("collected"), settled: by("settled") };
}

/** Delivered cash per Kuwait day, newest first: what was collected and how much of it is settled. */
export function ledgerByDay(deliveries: readonly LedgerDelivery[]): LedgerDayTotal[] {
  const days = new Map<string, LedgerDelivery[]>();
  for (const delivery of deliveries) {
    const status = cashStatus(delivery);
    if ((status !== "collected" && status !== "settled") || !delivery.deliveredAt) continue;
    const day = kuwaitDay(delivery.deliveredAt);
    days.set(day, [...(days.get(day) ?? []), delivery]);
  }
  return [...days.entries()]
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([day, list]) => ({ day, deliveries: list.length, ...ledgerTotals(list) }));
}
