import { RATE_OUTCOMES, type RateOutcome } from "../domain/checkout-rates";
import { kuwaitDay } from "../domain/working-days";
import { reportLines, type ReportLine, type ReportRowInput } from "../domain/report-lines";
import { deliveriesAtCourierInPeriod } from "../models/read/period-counts.server";
import { listRateTallies } from "../models/checkout-rates.server";
import {
  attentionCourierExceptions,
  courierExceptionsOfDelivery,
  type ExceptionView,
} from "../models/courier-exceptions.server";

/**
 * The courier's exceptions (issue 16, ADR 0039) as the pages show them: on a delivery's page
 * (app/routes/app.deliveries.$id.tsx), under Needs attention on the deliveries list, and on the
 * Courier reports page. Plain data: the card (components/deliveries/courier-exceptions-card.tsx)
 * picks the description in the page's language. Below them, the report of checkout's rates.
 */
export interface ExceptionItem {
  id: string;
  deliveryId: string | null;
  orderName: string | null;
  courierOrderId: string | null;
  type: string | null;
  description: string | null;
  descriptionArabic: string | null;
  happenedAt: string | null;
  firstSeenAt: string;
}

export function exceptionItem(view: ExceptionView): ExceptionItem {
  return {
    id: view.id,
    deliveryId: view.deliveryId,
    orderName: view.orderName,
    courierOrderId: view.courierOrderId,
    type: view.type,
    description: view.description,
    descriptionArabic: view.descriptionArabic,
    happenedAt: view.happenedAt,
    firstSeenAt: view.firstSeenAt.toISOString(),
  };
}

/** What the courier reported about one delivery, newest first. */
export async function deliveryExceptionItems(
  shop: string,
  deliveryId: string,
): Promise<ExceptionItem[]> {
  return (await courierExceptionsOfDelivery(shop, deliveryId)).map(exceptionItem);
}

/** The exceptions that ask for the merchant's attention now (the list's Needs attention tab). */
export async function attentionExceptionItems(shop: string, now = new Date()) {
  return (await attentionCourierExceptions(shop, now)).map(exceptionItem);
}

/** How many checkout rate requests had each outcome, and the areas behind them (issue 28). */
export interface CheckoutRatesReport {
  since: string;
  requests: number;
  byOutcome: Record<RateOutcome, number>;
  /** Gazetteer English names, most asked first, with their counts. */
  mostAsked: { area: string; count: number }[];
  fellBack: { area: string; count: number }[];
}

const TOP_AREAS = 5;

function topAreas(counts: Map<string, number>) {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, TOP_AREAS)
    .map(([area, count]) => ({ area, count }));
}

/** What checkout asked for in the last 30 Kuwaiti days, today included. */
export async function checkoutRatesReport(shop: string, now = new Date()) {
  const since = kuwaitDay(new Date(now.getTime() - 29 * 86_400_000));
  const tallies = await listRateTallies(shop, since);
  const byOutcome = Object.fromEntries(RATE_OUTCOMES.map((o) => [o, 0])) as Record<
    RateOutcome,
    number
  >;
  const asked = new Map<string, number>();
  const fellBack = new Map<string, number>();
  let requests = 0;
  for (const tally of tallies) {
    requests += tally.count;
    byOutcome[tally.outcome] += tally.count;
    if (tally.area === "") continue;
    asked.set(tally.area, (asked.get(tally.area) ?? 0) + tally.count);
    if (tally.outcome === "fallback")
      fellBack.set(tally.area, (fellBack.get(tally.area) ?? 0) + tally.count);
  }
  return {
    since,
    requests,
    byOutcome,
    mostAsked: topAreas(asked),
    fellBack: topAreas(fellBack),
  } satisfies CheckoutRatesReport;
}

/** The courier's report for the period, with the app's own counts beside its figures. */
export async function reportWithAppCounts(
  shop: string,
  from: string,
  to: string,
  rows: readonly ReportRowInput[] | null,
): Promise<ReportLine[] | null> {
  if (rows === null) return null;
  return reportLines(rows, await deliveriesAtCourierInPeriod(shop, from, to));
}
