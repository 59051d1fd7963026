import type { CsvValue } from "../exports/csv";
import { fixedT } from "../i18n/i18next.server";
import type { Language } from "../i18n/config";
import { translateMessage } from "../i18n/messages";
import { getCourierAccount } from "../models/courier-account.server";
import { listQueryOf, readListParams } from "../models/delivery-list-params";
import { isStuck, listDeliveryPages, type ListRow } from "../models/delivery-list.server";
import { getPlaceNames } from "../models/place-names.server";
import { deliveryExportDetails } from "../models/record-exports.server";

/**
 * The deliveries list as CSV (issue 16, ADR 0037): the rows the list page shows for the same URL
 * (tab, filters, search, sort), every page of them from the first, in the merchant's language;
 * streamed by app/routes/app.exports.deliveries.ts a page at a time.
 */

const kuwaitTime = (at: Date) =>
  new Date(at.getTime() + 3 * 3_600_000).toISOString().slice(0, 16).replace("T", " ");

export interface DeliveriesExport {
  header: string[];
  batches: AsyncGenerator<CsvValue[][]>;
  fileName: string;
}

export async function deliveriesExport(
  shop: string,
  search: URLSearchParams,
  language: Language,
  now = new Date(),
): Promise<DeliveriesExport> {
  const params = readListParams(search);
  // From the first row whatever page the merchant was on.
  const { after: _after, before: _before, ...query } = listQueryOf(shop, params, now);
  const [t, tm, tc] = await Promise.all([
    fixedT(language, "deliveries"),
    fixedT(language, "messages"),
    fixedT(language, "common"),
  ]);
  const account = await getCourierAccount(shop);
  const places = await getPlaceNames(shop, account.environment);
  const areaName = new Map(places.areas.map((a) => [a.id, a[language]]));
  const header = [
    t("export.order"),
    t("export.customer"),
    t("export.area"),
    t("export.cash"),
    t("export.status"),
    t("export.reason"),
    t("export.courierNumber"),
    t("export.courierStatus"),
    t("export.trackingLink"),
    t("export.created"),
    t("export.lastChange"),
  ];
  async function* batches(): AsyncGenerator<CsvValue[][]> {
    for await (const rows of listDeliveryPages(query)) {
      const details = await deliveryExportDetails(
        shop,
        rows.map((r) => r.id),
      );
      yield rows.map((row: ListRow) => {
        const more = details.get(row.id);
        return [
          row.orderName,
          row.customerName,
          row.areaId === null ? null : (areaName.get(row.areaId) ?? null),
          row.cashToCollect,
          isStuck(row, now) ? t("stuck") : tc(`states.${row.state}`),
          row.stateReason === null ? null : translateMessage(tm, row.stateReason),
          row.courierOrderNumber,
          more?.courierStatus ?? null,
          more?.trackingUrl ?? null,
          kuwaitTime(row.createdAt),
          more ? kuwaitTime(more.updatedAt) : null,
        ];
      });
    }
  }
  return {
    header,
    batches: batches(),
    fileName: `deliveries-${kuwaitTime(now).slice(0, 10)}.csv`,
  };
}
