import { BlockStack, Card, InlineGrid, InlineStack, Link, Text, TextField } from "@shopify/polaris";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import type { AskView } from "../../pages/customer-answers.server";
import { CopyLinkButton, ReleaseButton, WhatsAppChatButton } from "../customer-answers/ask-actions";
import {
  AnsweredPlace,
  AnswerSummary,
  AskStateBadge,
  useReasons,
} from "../customer-answers/ask-words";

/**
 * The delivery page's "Customer's answer" (issue 26): what the order's customer was asked and
 * why, their link to copy or send on WhatsApp, and what they answered: the place, notes for the driver, the pin on a
 * map, the phone masked. "Release now" while the order still waits for them.
 */
function Fact(props: { label: string; children: ReactNode }) {
  return (
    <BlockStack gap="050">
      <Text as="span" tone="subdued" variant="bodySm">
        {props.label}
      </Text>
      <Text as="span" breakWord>
        {props.children}
      </Text>
    </BlockStack>
  );
}

export function CustomerAnswerCard(props: { ask: AskView | null }) {
  const { t } = useTranslation(["answers", "delivery"]);
  const language = useLanguage();
  const reasons = useReasons();
  const { ask } = props;
  if (!ask) return null;
  const answer = ask.state === "answered" ? ask.answer : null;
  const when = (at: string) => formatDateTime(at, language);
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t("answers:card.title")}
          </Text>
          <AskStateBadge state={ask.state} />
        </InlineStack>
        <Text as="p" tone="subdued">
          {t(`answers:stateHelp.${ask.state}`)}
        </Text>
        <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
          <Fact label={t("answers:card.why")}>{reasons(ask.reasons) || t("common:none")}</Fact>
          <Fact label={t("answers:columns.asked")}>
            {ask.askedAt ? when(ask.askedAt) : t("answers:notAsked")}
            {ask.state === "asked" && ask.answerBy && (
              <>
                <br />
                {t("answers:answerBy", { at: when(ask.answerBy) })}
              </>
            )}
          </Fact>
        </InlineGrid>
        {answer && (
          <BlockStack gap="300">
            <BlockStack gap="050">
              <Text as="span" tone="subdued" variant="bodySm">
                {t("answers:card.answer")}
              </Text>
              <AnswerSummary ask={ask} withPlace={false} />
            </BlockStack>
            <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
              {answer.kind !== "cash_only" && (
                <Fact label={t("answers:card.address")}>
                  <AnsweredPlace answer={answer} />
                </Fact>
              )}
              {answer.notes && (
                <Fact label={t("answers:card.notes")}>
                  <bdi translate="no">{answer.notes}</bdi>
                </Fact>
              )}
              {answer.pin && (
                <Fact label={t("answers:card.pin")}>
                  <Link url={answer.pin} target="_blank">
                    {t("answers:card.openMap")}
                  </Link>
                </Fact>
              )}
              {answer.phone && (
                <Fact label={t("answers:card.phone")}>
                  <span dir="ltr" translate="no" data-masked-phone>
                    {answer.phone}
                  </span>
                </Fact>
              )}
            </InlineGrid>
          </BlockStack>
        )}
        {ask.link ? (
          // A web address reads left to right, on an Arabic page too.
          <div className="customer-link">
            <style>{".customer-link input { direction: ltr; }"}</style>
            <TextField
              label={t("answers:card.link")}
              value={ask.link}
              readOnly
              autoComplete="off"
              helpText={t("answers:card.linkHelp")}
              connectedRight={<CopyLinkButton link={ask.link} orderName={ask.orderName} />}
              onFocus={(event) => (event?.target as HTMLInputElement | undefined)?.select()}
            />
          </div>
        ) : (
          ask.linkEnded && (
            <Text as="p" tone="subdued">
              {t("answers:actions.linkEnded")}
            </Text>
          )
        )}
        {ask.state === "asked" && (
          <InlineStack gap="200">
            {ask.whatsappChat && (
              <WhatsAppChatButton url={ask.whatsappChat} orderName={ask.orderName} />
            )}
            <ReleaseButton askId={ask.id} orderName={ask.orderName} />
          </InlineStack>
        )}
      </BlockStack>
    </Card>
  );
}
