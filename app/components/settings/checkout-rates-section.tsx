import { Form } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import type {
  CheckoutRatesActionResult,
  CheckoutRatesSectionData,
} from "../../pages/checkout-rates-settings.server";
import { formatNumber, formatTimeAgo } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import { areaName } from "../../i18n/place-names";
import { AnnotatedSection } from "../annotated-section";
import { RateChoicesCard } from "./checkout-rates-choices";

/**
 * Settings' "Checkout rates" (issue 28): whether Shopify shows the app's rate at checkout, why
 * not when Shopify refused, the merchant's choices with a preview of what a shopper reads, and
 * how much of the courier's price table is known yet.
 */

type Busy = FormDataEntryValue | null | undefined;

export function CheckoutRatesSection(props: {
  rates: CheckoutRatesSectionData;
  result: CheckoutRatesActionResult | undefined;
  busyIntent: Busy;
}) {
  const { rates, result, busyIntent } = props;
  const { t } = useTranslation("settings");
  return (
    <div data-settings-section="checkout-rates">
      <AnnotatedSection
        title={t("checkoutRates.title")}
        description={t("checkoutRates.description")}
      >
        <BlockStack gap="400">
          <StatusCard rates={rates} result={result} busyIntent={busyIntent} />
          <PriceTableCard rates={rates} />
          <RateChoicesCard rates={rates} result={result} busyIntent={busyIntent} />
        </BlockStack>
      </AnnotatedSection>
    </div>
  );
}

function StatusCard(props: {
  rates: CheckoutRatesSectionData;
  result: CheckoutRatesActionResult | undefined;
  busyIntent: Busy;
}) {
  const { rates, result, busyIntent } = props;
  const { t } = useTranslation("settings");
  // What Shopify said just now wins over what was stored before.
  const refusal = result && !result.ok && "problem" in result ? result : null;
  const problem = refusal?.problem ?? rates.problem;
  const detail = refusal ? refusal.detail : rates.problemDetail;
  const serving = rates.enabled && problem === null;
  const busy = busyIntent === "rates-on" || busyIntent === "rates-off";
  return (
    <div data-rates-status>
      <Card>
        <BlockStack gap="300">
          <InlineStack gap="200" blockAlign="center" wrap>
            <Text as="h3" variant="headingSm">
              {t("checkoutRates.status.title")}
            </Text>
            {serving ? (
              <Badge tone="success">{t("checkoutRates.status.on")}</Badge>
            ) : problem !== null ? (
              <Badge tone="critical">{t("checkoutRates.status.problem")}</Badge>
            ) : (
              <Badge>{t("checkoutRates.status.off")}</Badge>
            )}
          </InlineStack>
          <Text as="p">
            {serving ? t("checkoutRates.status.onText") : t("checkoutRates.status.offText")}
          </Text>
          {problem !== null && (
            <Banner tone="critical" title={t(`checkoutRates.problems.${problem}.title`)}>
              <BlockStack gap="200">
                <Text as="p">{t(`checkoutRates.problems.${problem}.what`)}</Text>
                {problem === "refused" && detail && (
                  <details>
                    <summary>{t("checkoutRates.problems.technical")}</summary>
                    {/* Shopify's own words: data, as Shopify wrote them. */}
                    <Text as="p" tone="subdued">
                      <bdi translate="no">{detail}</bdi>
                    </Text>
                  </details>
                )}
              </BlockStack>
            </Banner>
          )}
          {serving && (
            <Banner tone="info" title={t("checkoutRates.next.title")}>
              <Text as="p">{t("checkoutRates.next.steps")}</Text>
            </Banner>
          )}
          {!rates.hasCourierKey && !rates.enabled && (
            <Text as="p" tone="subdued">
              {t("checkoutRates.status.noKey")}
            </Text>
          )}
          <InlineStack gap="300">
            <Form method="post">
              <input type="hidden" name="intent" value={rates.enabled ? "rates-off" : "rates-on"} />
              <Button submit variant={rates.enabled ? "secondary" : "primary"} loading={busy}>
                {rates.enabled
                  ? t("checkoutRates.status.turnOff")
                  : t("checkoutRates.status.turnOn")}
              </Button>
            </Form>
            {rates.enabled && problem !== null && (
              <Form method="post">
                <input type="hidden" name="intent" value="rates-on" />
                <Button submit variant="primary" loading={busy}>
                  {t("checkoutRates.status.tryAgain")}
                </Button>
              </Form>
            )}
          </InlineStack>
        </BlockStack>
      </Card>
    </div>
  );
}

function PriceTableCard({ rates }: { rates: CheckoutRatesSectionData }) {
  const { t } = useTranslation("settings");
  const language = useLanguage();
  const { table } = rates;
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h3" variant="headingSm">
          {t("checkoutRates.table.title")}
        </Text>
        {table.pricedAreas === 0 ? (
          <Text as="p">{t("checkoutRates.table.empty")}</Text>
        ) : (
          <>
            <Text as="p">
              {t(
                table.pickupArea
                  ? "checkoutRates.table.known"
                  : "checkoutRates.table.knownNoPickup",
                {
                  n: formatNumber(table.pricedAreas, language),
                  m: formatNumber(table.areas, language),
                  pickup: table.pickupArea ? areaName(table.pickupArea, language) : "",
                },
              )}
            </Text>
            {table.refreshedAt && (
              <Text as="p" tone="subdued">
                {t("checkoutRates.table.refreshed", {
                  ago: formatTimeAgo(table.refreshedAt, rates.now, language),
                })}
              </Text>
            )}
            {table.pricedAreas < table.areas && (
              <Text as="p" tone="subdued">
                {t("checkoutRates.table.rest")}
              </Text>
            )}
          </>
        )}
      </BlockStack>
    </Card>
  );
}
