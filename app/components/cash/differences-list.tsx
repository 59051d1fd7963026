import { Link as RemixLink } from "@remix-run/react";
import { BlockStack, Box, Divider, InlineStack, Text } from "@shopify/polaris";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import type { CashPageData } from "../../pages/cash.server";

/**
 * A statement's differences on a phone: one block each (what differs, the order, both amounts,
 * what to do) instead of a table that scrolls sideways.
 */
export function DifferencesList(props: {
  differences: CashPageData["differences"];
  money: (amount: string | null) => string;
}) {
  const { t } = useTranslation("cash");
  return (
    <BlockStack gap="300">
      {props.differences.map((d, i) => (
        <Fragment key={i}>
          {i > 0 && <Divider />}
          <BlockStack gap="100">
            <Text as="p" fontWeight="semibold">
              {d.line
                ? t("differences.onLine", { what: t(`differences.kinds.${d.kind}`), line: d.line })
                : t(`differences.kinds.${d.kind}`)}
            </Text>
            <InlineStack gap="200">
              {d.deliveryId ? (
                <RemixLink to={`/app/deliveries/${d.deliveryId}`}>
                  <bdi translate="no">{d.order ?? t("differences.openDelivery")}</bdi>
                </RemixLink>
              ) : null}
              <Text as="span" tone="subdued">
                <bdi translate="no">{d.courierOrderNumber}</bdi>
              </Text>
            </InlineStack>
            <Text as="p">
              {t("differences.columns.statement")}: {props.money(d.statement)} ·{" "}
              {t("differences.columns.expected")}: {props.money(d.expected)}
            </Text>
            <Box>
              <Text as="p" tone="subdued" variant="bodySm">
                {t(`differences.todo.${d.kind}`)}
              </Text>
            </Box>
          </BlockStack>
        </Fragment>
      ))}
    </BlockStack>
  );
}
