import type { CsvValue } from "../domain/csv";
import { getCourierAccount } from "../models/courier-account.server";
import { listQueryOf, readListParams } from "../models/read/delivery-list-params";
import { isStuck, listDeliveryPages, type ListRow } from "../models/read/delivery-list.server";
import { getPlaceNames } from "../models/place-names.server";
import type { DeliveryState } from "../domain/states";
import { recognizeStatus } from "../domain/courier-status";
import { loadStatusMappings } from "../models/tracking.server";
import { typedPlaceName, typedPlacesOf } from "../models/read/typed-places.server";

/**
 * The deliveries list as CSV rows (issue 16, ADR 0037): the rows the list page shows for the same
 * URL (tab, filters, search, sort), every page of them from the first, read a page at a time. The
 * words (column titles, states, reasons) are given by the caller in the page's language
 * (list-export.server.ts), so this module needs no translation machinery.
 */

const kuwaitTime = (at: Date) =>
  new Date(at.getTime() + 3 * 3_600_000).toISOString().slice(0, 16).replace("T", " ");

export interface ExportWords {
  header: string[];
  state: (state: DeliveryState) => string;
  stuck: string;
  reason: (reason: string) => string;
  areaLanguage: "en" | "ar";
}

export interface DeliveriesExport {
  header: string[];
  batches: AsyncGenerator<CsvValue[][]>;
  fileName: string;
}

export async function deliveriesExportRows(
  shop: string,
  search: URLSearchParams,
  words: ExportWords,
  now = new Date(),
): Promise<DeliveriesExport> {
  const params = readListParams(search);
  // From the first row whatever page the merchant was on.
  const { after: _after, before: _before, ...query } = listQueryOf(shop, params, now);
  const account = await getCourierAccount(shop);
  const [places, statuses] = await Promise.all([
    getPlaceNames(shop, account.environment),
    loadStatusMappings(shop),
  ]);
  const areaName = new Map(places.areas.map((a) => [a.id, a[words.areaLanguage]]));
  // The courier's status in words (issue 29): the state it means for the shop (Settings), else
  // the one the app recognizes; one that means neither reads as the courier's own name for it.
  const statusWords = new Map<string, string>();
  const courierStatusInWords = (code: string | null) => {
    if (code === null) return null;
    let said = statusWords.get(code);
    if (said === undefined) {
      const name = statuses.names.get(code) ?? null;
      const meaning = statuses.mappings.has(code)
        ? statuses.mappings.get(code)
        : recognizeStatus(code, name);
      said = meaning && meaning.state !== "unchanged" ? words.state(meaning.state) : (name ?? code);
      statusWords.set(code, said);
    }
    return said;
  };
  async function* batches(): AsyncGenerator<CsvValue[][]> {
    for await (const rows of listDeliveryPages(query)) {
      // Waiting for its address, a delivery has no courier area yet: where its address points.
      const typed = await typedPlacesOf(
        shop,
        rows.filter((r) => r.areaId === null && r.state === "needs_address").map((r) => r.id),
      );
      yield rows.map((row: ListRow) => {
        return [
          row.orderName,
          row.customerName,
          row.areaId === null
            ? (typedPlaceName(typed.get(row.id))?.[words.areaLanguage] ?? null)
            : (areaName.get(row.areaId) ?? null),
          row.cashToCollect,
          isStuck(row, now) ? words.stuck : words.state(row.state),
          row.stateReason === null ? null : words.reason(row.stateReason),
          row.courierOrderNumber,
          courierStatusInWords(row.courierStatus),
          row.courierStatus,
          row.trackingUrl,
          kuwaitTime(row.createdAt),
          kuwaitTime(row.updatedAt),
        ];
      });
    }
  }
  return {
    header: words.header,
    batches: batches(),
    fileName: `deliveries-${kuwaitTime(now).slice(0, 10)}.csv`,
  };
}
