import { Link as RemixLink } from "@remix-run/react";
import { Banner, BlockStack, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { formatDate } from "../i18n/format";
import { useLanguage } from "../i18n/language";

/**
 * Checkout rates the merchant turned on that Shopify does not serve (issue 28, ADR 0063): turned
 * off after a move to another plan, or refused on the plan. Says what the checkout shows instead
 * and how to get them back.
 */
export function CheckoutRatesBanner(props: {
  problem: "deactivated" | "plan_not_eligible";
  since: string | null;
}) {
  const { t } = useTranslation("home");
  const language = useLanguage();
  const key = props.problem === "deactivated" ? "turnedOff" : "refused";
  return (
    <Banner tone="critical" title={t(`home:checkoutRates.${key}.title`)}>
      <BlockStack gap="200">
        <Text as="p">
          {props.since
            ? t(`home:checkoutRates.${key}.since`, { date: formatDate(props.since, language) })
            : t(`home:checkoutRates.${key}.body`)}
        </Text>
        <Text as="p">{t("home:checkoutRates.howToTurnOn")}</Text>
        <Text as="p">
          <RemixLink to="/app/settings">{t("home:checkoutRates.openSettings")}</RemixLink>
        </Text>
      </BlockStack>
    </Banner>
  );
}
