import { Banner } from "@shopify/polaris";
import { useTranslation } from "react-i18next";

/** Shopify would not renew the app's access (ADR 0015); shown on Home and Settings. */
export function ShopifyAccessLostBanner({ reason }: { reason: string }) {
  const { t } = useTranslation("common");
  return (
    <Banner tone="critical" title={t("common:shopifyAccessLost.title")}>
      <p>{t("common:shopifyAccessLost.body")}</p>
      {/* Shopify's own words for the refusal, as it gave them. */}
      {reason && (
        <p dir="auto" translate="no">
          {reason}
        </p>
      )}
    </Banner>
  );
}
