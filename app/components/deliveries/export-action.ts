import { useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useLanguage } from "../../i18n/language";
import { useCsvDownload } from "../csv-download";

/**
 * The deliveries list's "Export as CSV" (a Page secondary action): the rows of the list as it is
 * filtered now (tab, filters, search, sort; every page), in the page's language.
 */
export function useDeliveriesExportAction() {
  const { t } = useTranslation("deliveries");
  const language = useLanguage();
  const [searchParams] = useSearchParams();
  const { download, busy } = useCsvDownload();
  const exportList = async () => {
    const params = new URLSearchParams(searchParams);
    params.delete("after");
    params.delete("before");
    params.set("lang", language);
    const day = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    const ok = await download(`/app/exports/deliveries?${params}`, `deliveries-${day}.csv`);
    if (!ok) shopify.toast.show(t("export.failed"), { isError: true });
  };
  return { content: t("export.button"), loading: busy, onAction: () => void exportList() };
}
