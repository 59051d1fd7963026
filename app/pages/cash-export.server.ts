import type { CsvValue } from "../domain/csv";
import type { Language } from "../i18n/config";
import { fixedT } from "../i18n/i18next.server";
import { cashDeliveryBatches } from "../models/cash-ledger.server";
import { formatKwd } from "../domain/kwd";
import { cashStatus, expectedCash, kuwaitDay } from "../domain/settlements";

/**
 * The cash ledger as CSV (issue 16, ADR 0037): every cash-on-delivery delivery of the shop with
 * where its money is, in the merchant's language, read a page at a time.
 */
export async function cashLedgerExport(shop: string, language: Language) {
  const [t, tc] = await Promise.all([fixedT(language, "cash"), fixedT(language, "common")]);
  const header = [
    t("ledgerExport.order"),
    t("ledgerExport.courierNumber"),
    t("ledgerExport.deliveryStatus"),
    t("ledgerExport.cash"),
    t("ledgerExport.where"),
    t("ledgerExport.deliveredOn"),
    t("ledgerExport.settledOn"),
    t("ledgerExport.paidOn"),
  ];
  async function* batches(): AsyncGenerator<CsvValue[][]> {
    for await (const batch of cashDeliveryBatches(shop)) {
      yield batch.map((d) => [
        d.orderName,
        d.courierOrderNumber,
        tc(`states.${d.state}`),
        formatKwd(expectedCash(d)),
        t(`ledgerExport.status.${cashStatus(d)}`),
        d.deliveredAt ? kuwaitDay(d.deliveredAt) : null,
        d.settledAt ? kuwaitDay(d.settledAt) : null,
        d.paidMarkedAt ? kuwaitDay(d.paidMarkedAt) : null,
      ]);
    }
  }
  return { header, batches: batches() };
}
