import { encodeCursor } from "../models/read/delivery-list";
import { listQueryOf, readListParams } from "../models/read/delivery-list-params";
import { isStuck, listDeliveryPage } from "../models/read/delivery-list.server";
import { typedPlaceName, typedPlacesOf } from "../models/read/typed-places.server";
import { getCourierAccount } from "../models/courier-account.server";
import { countUnderWay, tabCounts } from "../models/read/dashboard.server";
import { getPlaceNames } from "../models/place-names.server";
import type { AdminGraphql } from "../shopify/graphql";
import { cancelDelivery } from "../actions/cancel.server";
import { attentionExceptionItems } from "./reports.server";
import { retryDelivery } from "../actions/retry.server";
import type { Notice } from "../domain/notices";
import { longWait } from "../domain/waits";
import { failedDeliveriesAnswered } from "../models/second-chance.server";

/**
 * The deliveries list's page (app/routes/app.deliveries._index.tsx): one keyset page of rows as
 * the page shows them (ADR 0041), and its bulk "Send again" and "Cancel".
 */

/** At most this many deliveries are sent again or cancelled in one go. */
export const MAX_BULK = 50;

/** The list's page for the URL's parameters, with area names in both languages. */
export async function loadDeliveryListPage(
  shop: string,
  search: URLSearchParams,
  now = new Date(),
) {
  const params = readListParams(search);
  const account = await getCourierAccount(shop);
  const [page, places, exceptions, underWay] = await Promise.all([
    listDeliveryPage(listQueryOf(shop, params, now)),
    getPlaceNames(shop, account.environment),
    // Needs attention also lists what the courier reported (issue 16).
    params.tab === "attention" ? attentionExceptionItems(shop, now) : [],
    // The tabs of work under way say how many they hold: one grouped count of the states a
    // delivery leaves, as Home's figures (ADR 0041, 0046); tabs of history are not counted.
    countUnderWay(shop, now),
  ]);
  // Failed deliveries whose customer answered since (issue 27): the merchant can send them again.
  const answered = await failedDeliveriesAnswered(
    shop,
    page.rows.filter((d) => d.state === "failed").map((d) => d.id),
  );
  // Both languages: the page shows its own (the layout decides it).
  const areaName = new Map(places.areas.map((a) => [a.id, { en: a.en, ar: a.ar }]));
  // Waiting for its address, a delivery has no courier area yet: the place its address points
  // to, the recognised area in both languages or the city as the shopper typed it.
  const typed = await typedPlacesOf(
    shop,
    page.rows.filter((d) => d.areaId === null && d.state === "needs_address").map((d) => d.id),
  );
  const placeOf = (d: (typeof page.rows)[number]) => {
    if (d.areaId !== null) return areaName.get(d.areaId) ?? null;
    return typedPlaceName(typed.get(d.id));
  };
  return {
    params,
    tabCounts: tabCounts(underWay),
    rows: page.rows.map((d) => ({
      id: d.id,
      orderName: d.orderName,
      customer: d.customerName,
      area: placeOf(d),
      cod: d.cashToCollect,
      state: d.state,
      reason: d.stateReason,
      stuck: isStuck(d, now),
      customerAnswered: answered.has(d.id),
      waitingLong: longWait(d, now),
      courierNumber: d.courierOrderNumber,
      createdAt: d.createdAt.toISOString(),
    })),
    next: page.next ? encodeCursor(page.next) : null,
    previous: page.previous ? encodeCursor(page.previous) : null,
    searchTruncated: page.searchTruncated,
    finishedTruncated: page.finishedTruncated,
    governorates: places.governorates,
    areas: places.areas,
    exceptions,
  };
}

export type ListPageData = Awaited<ReturnType<typeof loadDeliveryListPage>>;
export type ListPageRow = ListPageData["rows"][number];

export type BulkOutcome = { id: string; ok: boolean; message: Notice | null };

/** Bulk "Send again" and "Cancel": the same functions as the delivery's page, one by one. */
export async function retryOrCancelDeliveries(
  shop: string,
  admin: AdminGraphql,
  intent: "retry" | "cancel",
  ids: readonly string[],
  { cancelFulfillment = false }: { cancelFulfillment?: boolean } = {},
): Promise<BulkOutcome[]> {
  const outcomes: BulkOutcome[] = [];
  for (const id of ids.slice(0, MAX_BULK)) {
    const outcome =
      intent === "cancel"
        ? await cancelDelivery(shop, id, "cancelled by the merchant in the app", {
            admin,
            cancelFulfillment,
          })
        : await retryDelivery(shop, admin, id);
    outcomes.push({
      id,
      ok: outcome.ok,
      message: outcome.ok ? ("message" in outcome && outcome.message) || null : outcome.error,
    });
  }
  return outcomes;
}
