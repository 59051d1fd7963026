import { Banner, BlockStack, Button, Card, InlineGrid, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import type { DeliveryPageData } from "../../pages/delivery.server";
import { formatDateTime } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import { withData } from "./sentence";

/**
 * The courier's side of a delivery: its order number, the tracking page, its status in words
 * (the state it means, and the courier's own name for it as data), when the app last asked and
 * will ask next, and what the Shopify order shows.
 */
export function CourierCard(props: { courier: DeliveryPageData["courier"] }) {
  const { t } = useTranslation(["delivery", "settings", "common"]);
  const language = useLanguage();
  const when = (at: string) => formatDateTime(at, language);
  const { courier } = props;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("delivery:courier.title")}
        </Text>
        <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
          <BlockStack gap="050">
            <Text as="span" tone="subdued" variant="bodySm">
              {t("delivery:courier.number")}
            </Text>
            <Text as="span" fontWeight="semibold">
              {courier.number ? (
                <bdi translate="no">{courier.number}</bdi>
              ) : (
                t("delivery:courier.notYet")
              )}
            </Text>
          </BlockStack>
          <BlockStack gap="050">
            <Text as="span" tone="subdued" variant="bodySm">
              {t("delivery:courier.status")}
            </Text>
            <Text as="span">
              {courier.statusState
                ? t(`common:states.${courier.statusState}`, { defaultValue: "—" })
                : t("delivery:courier.noStatus")}
              {courier.statusAt &&
                ` (${t("delivery:courier.since", { at: when(courier.statusAt) })})`}
            </Text>
          </BlockStack>
        </InlineGrid>
        {courier.statusName && (
          <Text as="p" tone="subdued">
            {withData(t("delivery:courier.courierName", { name: "\u0001name\u0001" }), {
              name: courier.statusName,
            })}
          </Text>
        )}
        {courier.trackingUrl && (
          <div>
            <Button url={courier.trackingUrl} target="_blank" variant="plain">
              {t("delivery:courier.tracking")}
            </Button>
          </div>
        )}
        {courier.stuck && <Banner tone="warning">{t("delivery:courier.stuck")}</Banner>}
        {courier.lastLookAt && (
          <Text as="p" tone="subdued" variant="bodySm">
            {t("delivery:courier.lastLook", { at: when(courier.lastLookAt) })}{" "}
            {courier.nextLookAt
              ? t("delivery:courier.nextLook", { at: when(courier.nextLookAt) })
              : courier.final
                ? t("delivery:courier.final")
                : ""}
          </Text>
        )}
        {courier.shopifyStatus && (
          <Text as="p">
            {t("delivery:courier.shopify", {
              status: t(`settings:shopifyStatus.${courier.shopifyStatus}`),
            })}
          </Text>
        )}
        {courier.shopifyOwed && (
          <Text as="p" tone="caution">
            {courier.shopifyOwed.status
              ? t("delivery:courier.shopifyOwed", {
                  status: t(`settings:shopifyStatus.${courier.shopifyOwed.status}`),
                })
              : t("delivery:courier.shopifyOwedUnreadable")}
          </Text>
        )}
        {courier.paidMarkedAt && (
          <Text as="p">{t("delivery:courier.paid", { at: when(courier.paidMarkedAt) })}</Text>
        )}
      </BlockStack>
    </Card>
  );
}
