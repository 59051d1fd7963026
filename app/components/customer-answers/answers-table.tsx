import { BlockStack, Box, Button, IndexTable, InlineStack, Link, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import type { AskView } from "../../pages/customer-answers.server";
import { CopyLinkButton, ReleaseButton } from "./ask-actions";
import { AnswerSummary, AskStateBadge, useReasons } from "./ask-words";

/**
 * Customer answers' rows: one order each, a condensed block on a phone, columns from a tablet
 * up. The columns' widths are fixed before the rows arrive, as the deliveries list's are, so the
 * table does not move as it loads and fits the admin's frame.
 */
const COLUMNS = ["7rem", "13rem", "auto", "10rem", "auto", "11rem"];
const CSS = [
  ".answers-table table.Polaris-IndexTable__Table { table-layout: fixed; min-width: 52rem; }",
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

function OrderName(props: { ask: AskView }) {
  const { t } = useTranslation("answers");
  return (
    <Link url={props.ask.orderAdminPath} target="_top" monochrome removeUnderline>
      <Text as="span" fontWeight="semibold">
        {props.ask.orderName ? <bdi translate="no">{props.ask.orderName}</bdi> : t("columns.order")}
      </Text>
    </Link>
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
      {ask.state === "asked" && <ReleaseButton askId={ask.id} orderName={ask.orderName} />}
      {ask.deliveryId && (
        <Button size="slim" variant="plain" url={`/app/deliveries/${ask.deliveryId}`}>
          {t("answers:actions.openDelivery")}
        </Button>
      )}
    </InlineStack>
  );
}

/** When the customer was asked and, while they can answer, until when. */
function Times(props: { ask: AskView }) {
  const { t } = useTranslation("answers");
  const language = useLanguage();
  const { ask } = props;
  return (
    <BlockStack gap="050">
      <Text as="span" variant="bodySm">
        {ask.askedAt ? formatDateTime(ask.askedAt, language) : t("answers:notAsked")}
      </Text>
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
            {ask.state === "asked" && ask.answerBy && (
              <Text as="span" variant="bodySm" tone="caution">
                {t("answers:answerBy", { at: formatDateTime(ask.answerBy, language) })}
              </Text>
            )}
            {ask.state !== "asked" && (
              <BlockStack gap="050">
                <AnswerSummary ask={ask} />
              </BlockStack>
            )}
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
        <Times ask={ask} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <BlockStack gap="050">
          <AnswerSummary ask={ask} />
        </BlockStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Actions ask={ask} />
      </IndexTable.Cell>
    </IndexTable.Row>
  );
}
