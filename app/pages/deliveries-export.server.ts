import type { Language } from "../i18n/config";
import { fixedT } from "../i18n/i18next.server";
import { translateMessage } from "../i18n/messages";
import { deliveriesExportRows, type DeliveriesExport } from "./deliveries-export-rows.server";

/** The deliveries list's CSV export in the merchant's language (list-export-rows.server.ts). */
export async function deliveriesExport(
  shop: string,
  search: URLSearchParams,
  language: Language,
  now = new Date(),
): Promise<DeliveriesExport> {
  const [t, tm, tc] = await Promise.all([
    fixedT(language, "deliveries"),
    fixedT(language, "messages"),
    fixedT(language, "common"),
  ]);
  const header = [
    t("export.order"),
    t("export.customer"),
    t("export.area"),
    t("export.cash"),
    t("export.status"),
    t("export.reason"),
    t("export.courierNumber"),
    t("export.courierStatus"),
    t("export.courierStatusCode"),
    t("export.trackingLink"),
    t("export.created"),
    t("export.lastChange"),
  ];
  return deliveriesExportRows(
    shop,
    search,
    {
      header,
      state: (state) => tc(`states.${state}`),
      stuck: t("stuck"),
      reason: (reason) => translateMessage(tm, reason),
      areaLanguage: language,
    },
    now,
  );
}
