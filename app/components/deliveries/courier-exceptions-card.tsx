import { Link as RemixLink } from "@remix-run/react";
import { Badge, BlockStack, Card, InlineStack, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import type { ExceptionItem } from "../../pages/reports.server";
import { formatDateTime } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";

/**
 * The courier's exceptions (a failed attempt, an address it could not find...) as the courier
 * wrote them, in the page's language when the courier gave that language, else in the one it
 * gave (marked with its direction). `showOrder` links each to its delivery, or says the app does
 * not know the courier's order. Nothing is drawn when there is none, unless `emptyText` is given.
 */
export function CourierExceptionsCard(props: {
  exceptions: readonly ExceptionItem[];
  showOrder?: boolean;
  title?: string;
  intro?: string;
  emptyText?: string;
}) {
  const { t } = useTranslation("exceptions");
  if (props.exceptions.length === 0 && !props.emptyText) return null;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {props.title ?? t("title")}
        </Text>
        {props.intro && (
          <Text as="p" tone="subdued">
            {props.intro}
          </Text>
        )}
        {props.exceptions.length === 0 ? (
          <Text as="p" tone="subdued">
            {props.emptyText}
          </Text>
        ) : (
          <BlockStack gap="300" as="ul">
            {props.exceptions.map((e) => (
              <ExceptionRow key={e.id} exception={e} showOrder={!!props.showOrder} />
            ))}
          </BlockStack>
        )}
        {props.exceptions.length > 0 && (
          <Text as="p" tone="subdued" variant="bodySm">
            {t("source")}
          </Text>
        )}
      </BlockStack>
    </Card>
  );
}

function ExceptionRow({
  exception: e,
  showOrder,
}: {
  exception: ExceptionItem;
  showOrder: boolean;
}) {
  const { t } = useTranslation("exceptions");
  const language = useLanguage();
  const own = language === "ar" ? e.descriptionArabic : e.description;
  const other = language === "ar" ? e.description : e.descriptionArabic;
  const text = own ?? other ?? e.type;
  const when =
    e.happenedAt && !Number.isNaN(Date.parse(e.happenedAt)) ? e.happenedAt : e.firstSeenAt;
  return (
    <li style={{ listStyle: "none" }}>
      <BlockStack gap="100">
        <InlineStack gap="200" blockAlign="center" wrap>
          {showOrder &&
            (e.deliveryId ? (
              <RemixLink to={`/app/deliveries/${e.deliveryId}`}>
                <span translate="no" dir="ltr">
                  {e.orderName ?? e.courierOrderId ?? t("delivery")}
                </span>
              </RemixLink>
            ) : (
              <InlineStack gap="100" blockAlign="center">
                <span translate="no" dir="ltr">
                  {e.courierOrderId ?? "—"}
                </span>
                <Badge tone="attention">{t("notInApp")}</Badge>
              </InlineStack>
            ))}
          <Text as="span" tone="subdued" variant="bodySm">
            {formatDateTime(when, language)}
          </Text>
        </InlineStack>
        {text ? (
          // The courier's own words: in their own direction, not translated by the browser.
          <Text as="p">
            <span translate="no" dir="auto">
              {text}
            </span>
          </Text>
        ) : (
          <Text as="p" tone="subdued">
            {t("noDescription")}
          </Text>
        )}
      </BlockStack>
    </li>
  );
}
