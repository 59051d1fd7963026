import { Badge, BlockStack, Box, Card, InlineGrid, Link, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { DeliveryPageData } from "../../pages/delivery.server";
import { PhoneLink } from "../phone-link";
import type { MatchLevel } from "../../domain/match-explanation";
import { formatKwd, formatNumber } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import { areaName, governorateName } from "../../i18n/place-names";
import { useSentence } from "./sentence";

/**
 * The delivery page's cards about the parcel itself: the customer, the address as placed and how
 * sure the match was, the parcel, the payment. What a customer typed is data: isolated in its own
 * direction and marked not to be translated.
 */

/** A label over its value; an empty value shows a dash. */
function Fact(props: { label: string; children: ReactNode; data?: boolean }) {
  return (
    <BlockStack gap="050">
      <Text as="span" tone="subdued" variant="bodySm">
        {props.label}
      </Text>
      <Text as="span" breakWord>
        {props.children === null || props.children === "" ? (
          "—"
        ) : props.data ? (
          <bdi translate="no">{props.children}</bdi>
        ) : (
          props.children
        )}
      </Text>
    </BlockStack>
  );
}

export function CustomerCard(props: { customer: DeliveryPageData["customer"]; erased: boolean }) {
  const { t } = useTranslation("delivery");
  const { customer } = props;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("customer.title")}
        </Text>
        {props.erased ? (
          <Text as="p" tone="subdued">
            {t("customer.erased")}
          </Text>
        ) : (
          <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
            <Fact label={t("customer.name")} data>
              {customer.name}
            </Fact>
            <Fact label={t("customer.phone")}>
              {customer.phone && <PhoneLink phone={customer.phone} />}
            </Fact>
          </InlineGrid>
        )}
        {customer.typed && (
          <Fact label={t("customer.typed")} data>
            {customer.typed}
          </Fact>
        )}
      </BlockStack>
    </Card>
  );
}

const LEVEL_TONE: Record<MatchLevel, "success" | "info" | "warning" | "critical" | undefined> = {
  merchant: "info",
  remembered: "info",
  sure: "success",
  unsure: "warning",
  none: "critical",
  unknown: undefined,
};

export function AddressCard(props: {
  address: DeliveryPageData["address"];
  match: DeliveryPageData["match"];
}) {
  const { t } = useTranslation("delivery");
  const language = useLanguage();
  const say = useSentence();
  const { address, match } = props;
  const placed = address.area !== null;
  const parts = [
    "block",
    "street",
    "avenue",
    "house",
    "building",
    "floor",
    "apartment",
    "paci",
  ] as const;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("address.title")}
        </Text>
        {placed ? (
          <InlineGrid columns={{ xs: 2, sm: 4 }} gap="300">
            <Fact label={t("address.area")}>
              {address.area && <bdi>{areaName(address.area, language)}</bdi>}
            </Fact>
            <Fact label={t("address.governorate")}>
              {address.governorate && <bdi>{governorateName(address.governorate, language)}</bdi>}
            </Fact>
            {parts.map((part) => (
              <Fact key={part} label={t(`address.${part}`)} data>
                {address[part]}
              </Fact>
            ))}
          </InlineGrid>
        ) : (
          <Text as="p" tone="subdued">
            {t("address.notPlaced")}
          </Text>
        )}
        <Box borderBlockStartWidth="025" borderColor="border" paddingBlockStart="300">
          <BlockStack gap="200">
            <BlockStack gap="100" inlineAlign="start">
              <Text as="h3" variant="headingSm">
                {t("match.title")}
              </Text>
              <Badge tone={LEVEL_TONE[match.level]}>{t(`match.level.${match.level}`)}</Badge>
            </BlockStack>
            {match.sentences.map((sentence) => (
              <Text as="p" key={sentence.key}>
                {say(sentence)}
              </Text>
            ))}
          </BlockStack>
        </Box>
      </BlockStack>
    </Card>
  );
}

export function ParcelCard(props: {
  parcel: DeliveryPageData["parcel"];
  payment: DeliveryPageData["payment"];
}) {
  const { t } = useTranslation("delivery");
  const language = useLanguage();
  const { parcel, payment } = props;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("parcel.title")}
        </Text>
        {parcel ? (
          <InlineGrid columns={{ xs: 1, sm: "2fr 1fr 1fr" }} gap="300">
            <Fact label={t("parcel.items")} data>
              {parcel.items}
            </Fact>
            <Fact label={t("parcel.weight")}>
              {t("parcel.weightValue", { weight: formatNumber(parcel.weightKg, language) })}
            </Fact>
            <Fact label={t("parcel.value")}>{formatKwd(parcel.value, language)}</Fact>
          </InlineGrid>
        ) : (
          <Text as="p" tone="subdued">
            {t("parcel.unknown")}
          </Text>
        )}
        <Box borderBlockStartWidth="025" borderColor="border" paddingBlockStart="300">
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {t("payment.title")}
            </Text>
            <PaymentLine payment={payment} />
          </BlockStack>
        </Box>
      </BlockStack>
    </Card>
  );
}

/** Who collects the order's balance: this delivery, another one of the order, or nobody. */
function PaymentLine({ payment }: { payment: DeliveryPageData["payment"] }) {
  const { t } = useTranslation("delivery");
  const language = useLanguage();
  if (payment.cashToCollect) {
    return (
      <Text as="p">{t("payment.cod", { amount: formatKwd(payment.cashToCollect, language) })}</Text>
    );
  }
  if (payment.collectedBy) {
    return (
      <BlockStack gap="100">
        <Text as="p">{t("payment.collectedElsewhere")}</Text>
        <Link url={`/app/deliveries/${payment.collectedBy.id}`}>{t("payment.otherDelivery")}</Link>
      </BlockStack>
    );
  }
  if (!payment.known) {
    return (
      <Text as="p" tone="subdued">
        {t("payment.unknown")}
      </Text>
    );
  }
  return <Text as="p">{t("payment.prepaid")}</Text>;
}
