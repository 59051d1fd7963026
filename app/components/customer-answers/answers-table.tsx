import { BlockStack, Box, Button, IndexTable, InlineStack, Link, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import type { AskView } from "../../pages/customer-answers.server";
import { CopyLinkButton, ReleaseButton, WhatsAppChatButton } from "./ask-actions";
import { AnswerSummary, AskStateBadge, useReasons } from "./ask-words";

/**
 * Customer answers' rows: one order each, a condensed block on a phone, columns from a tablet
 * up. The columns' widths are fixed before the rows arrive, as the deliveries list's are, so the
 * table does not move as it loads and fits the admin's frame.
 */
const COLUMNS = [
  "8rem", // order: "#12345", and the customer's name below
  "10.5rem", // state: "Released without an answer"
  "10.5rem", // why: "Area not recognised · No block"
  "8.5rem", // asked: "Nov 28, 2026, 21:08"
  "auto", // answer: "Fixed to Salmiya, Block 4, Street 12, House 7"
  "14rem", // actions: Copy link, Release now, side by side in either language
];
const CSS = [
  ".answers-table table.Polaris-IndexTable__Table { table-layout: fixed; min-width: 58rem; }",
  ".answers-table .Polaris-IndexTable__TableCell { white-space: normal; vertical-align: top; }",
  ...COLUMNS.map(
    (width, i) =>
      `.answers-table table.Polaris-IndexTable__Table > thead > tr > th:nth-child(${i + 1}) { width: ${width}; }`,
  ),
].join("\n");

export function AnswersTableColumns(props: { children: ReactNode }) {
  return (
    <div className="answers-table">
      <style dangerouslySetInnerHTML={{ __html: CSS }} />
      {props.children}
    </div>
  );
}

/** The order, a link to it in Shopify, and who it is for. */
function OrderName(props: { ask: AskView }) {
  const { t } = useTranslation("answers");
  const { ask } = props;
  return (
    <BlockStack gap="050">
      <Link url={ask.orderAdminPath} target="_top" monochrome removeUnderline>
        <Text as="span" fontWeight="semibold">
          {ask.orderName ? <bdi translate="no">{ask.orderName}</bdi> : t("columns.order")}
        </Text>
      </Link>
      {ask.customer && (
        <Text as="span" variant="bodySm" tone="subdued" truncate>
          <bdi translate="no">{ask.customer}</bdi>
        </Text>
      )}
    </BlockStack>
  );
}

function Actions(props: { ask: AskView }) {
  const { t } = useTranslation("answers");
  const { ask } = props;
  return (
    <InlineStack gap="200" blockAlign="center">
      {ask.link ? (
        <CopyLinkButton link={ask.link} orderName={ask.orderName} />
      ) : (
        ask.linkEnded && (
          <Text as="span" tone="subdued" variant="bodySm">
            {t("answers:actions.linkEnded")}
          </Text>
        )
      )}
      {ask.whatsappChat && <WhatsAppChatButton url={ask.whatsappChat} orderName={ask.orderName} />}
      {ask.state === "asked" && <ReleaseButton askId={ask.id} orderName={ask.orderName} />}
      {ask.deliveryId && (
        <Button size="slim" variant="plain" url={`/app/deliveries/${ask.deliveryId}`}>
          {t("answers:actions.openDelivery")}
        </Button>
      )}
    </InlineStack>
  );
}

/** What came back, or while the customer can still answer, until when. */
function Answer(props: { ask: AskView; condensed?: boolean }) {
  const { t } = useTranslation("answers");
  const language = useLanguage();
  const { ask } = props;
  return (
    <BlockStack gap="050">
      {/* A phone's row says it waits in its badge already. */}
      {!(props.condensed && ask.state === "asked") && <AnswerSummary ask={ask} />}
      {ask.state === "asked" && ask.answerBy && (
        <Text as="span" variant="bodySm" tone="caution">
          {t("answers:answerBy", { at: formatDateTime(ask.answerBy, language) })}
        </Text>
      )}
    </BlockStack>
  );
}

export function AnswerRow(props: { ask: AskView; index: number; condensed: boolean }) {
  const { t } = useTranslation("answers");
  const language = useLanguage();
  const reasons = useReasons();
  const { ask, index } = props;
  const why = reasons(ask.reasons) || t("common:none");
  if (props.condensed) {
    return (
      <IndexTable.Row id={ask.id} position={index}>
        <Box padding="300">
          <BlockStack gap="200">
            <InlineStack align="space-between" gap="200" blockAlign="center">
              <OrderName ask={ask} />
              <AskStateBadge state={ask.state} />
            </InlineStack>
            <Text as="span" variant="bodySm">
              {why}
            </Text>
            <Text as="span" variant="bodySm" tone="subdued">
              {ask.askedAt
                ? t("answers:askedAt", { at: formatDateTime(ask.askedAt, language) })
                : t("answers:notAsked")}
            </Text>
            <Answer ask={ask} condensed />
            <Actions ask={ask} />
          </BlockStack>
        </Box>
      </IndexTable.Row>
    );
  }
  return (
    <IndexTable.Row id={ask.id} position={index}>
      <IndexTable.Cell>
        <OrderName ask={ask} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <AskStateBadge state={ask.state} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span" variant="bodySm">
          {why}
        </Text>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span" variant="bodySm">
          {ask.askedAt ? formatDateTime(ask.askedAt, language) : t("answers:notAsked")}
        </Text>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Answer ask={ask} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Actions ask={ask} />
      </IndexTable.Cell>
    </IndexTable.Row>
  );
}
