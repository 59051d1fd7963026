import { Link as RemixLink } from "@remix-run/react";
import { BlockStack, Box, Card, InlineGrid, InlineStack, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { findArea } from "../../addresses/gazetteer";
import type { RateOutcome } from "../../domain/checkout-rates";
import type { CheckoutRatesReport } from "../../pages/reports.server";
import { formatNumber, formatPercent, formatShopperDay } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";

/**
 * Reports' "Checkout rates, last 30 days" (issue 28): how checkout's rate requests were answered
 * (the courier's price, the fallback, no rate) and the areas behind them, with what to do.
 */

/** The outcomes in the order a merchant reads them: priced, then each kind of fallback, then none. */
const ORDER: readonly RateOutcome[] = [
  "priced",
  "fallback",
  "not_placed",
  "too_heavy",
  "free",
  "hidden",
  "outside_kuwait",
];

export function CheckoutRatesReportCard({ report }: { report: CheckoutRatesReport }) {
  const { t } = useTranslation("reports");
  const language = useLanguage();
  const number = (n: number) => formatNumber(n, language);
  const area = (nameEn: string) => {
    const found = findArea(nameEn);
    return found ? (language === "ar" ? found.nameAr : found.nameEn) : nameEn;
  };
  const areaList = (rows: CheckoutRatesReport["mostAsked"], label: string) => (
    <BlockStack gap="100">
      <Text as="h3" variant="headingSm">
        {label}
      </Text>
      <ol style={{ margin: 0, paddingInlineStart: "1.25rem" }}>
        {rows.map((row) => (
          <li key={row.area}>
            <InlineStack gap="200" align="space-between" wrap={false}>
              <Text as="span">{area(row.area)}</Text>
              <Text as="span" tone="subdued" numeric>
                {number(row.count)}
              </Text>
            </InlineStack>
          </li>
        ))}
      </ol>
    </BlockStack>
  );
  return (
    <div data-report="checkout-rates">
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {t("checkoutRates.title")}
          </Text>
          {report.requests === 0 ? (
            <Text as="p" tone="subdued">
              {t("checkoutRates.empty")}{" "}
              <RemixLink to="/app/settings">{t("checkoutRates.toSettings")}</RemixLink>
            </Text>
          ) : (
            <>
              <Text as="p" tone="subdued">
                {t("checkoutRates.intro", {
                  n: number(report.requests),
                  since: formatShopperDay(report.since, language),
                })}
              </Text>
              <InlineStack gap="200" blockAlign="baseline" wrap>
                <Text as="p" variant="headingXl" numeric>
                  {formatPercent(report.byOutcome.priced / report.requests, language)}
                </Text>
                <Text as="p">{t("checkoutRates.headline")}</Text>
              </InlineStack>
              <Box maxWidth="36rem">
                <BlockStack gap="100">
                  {ORDER.filter((o) => report.byOutcome[o] > 0 || o === "priced").map((outcome) => (
                    <InlineStack key={outcome} gap="200" align="space-between" wrap={false}>
                      <Text as="span">{t(`checkoutRates.outcomes.${outcome}`)}</Text>
                      <Text as="span" numeric fontWeight="semibold">
                        {t("checkoutRates.share", {
                          share: formatPercent(
                            report.byOutcome[outcome] / report.requests,
                            language,
                          ),
                          n: number(report.byOutcome[outcome]),
                        })}
                      </Text>
                    </InlineStack>
                  ))}
                </BlockStack>
              </Box>
              <InlineGrid columns={{ xs: 1, sm: 2 }} gap="400">
                {report.mostAsked.length > 0 &&
                  areaList(report.mostAsked, t("checkoutRates.mostAsked"))}
                {report.fellBack.length > 0 &&
                  areaList(report.fellBack, t("checkoutRates.fellBack"))}
              </InlineGrid>
              {(report.fellBack.length > 0 || report.byOutcome.not_placed > 0) && (
                <Box background="bg-surface-secondary" padding="300" borderRadius="200">
                  <BlockStack gap="100">
                    {report.fellBack.length > 0 && (
                      <Text as="p">{t("checkoutRates.advice.fellBack")}</Text>
                    )}
                    {report.byOutcome.not_placed > 0 && (
                      <Text as="p">{t("checkoutRates.advice.notPlaced")}</Text>
                    )}
                  </BlockStack>
                </Box>
              )}
            </>
          )}
        </BlockStack>
      </Card>
    </div>
  );
}
