import { Badge, Text } from "@shopify/polaris";
import { Trans, useTranslation } from "react-i18next";
import type { AskState } from "../../domain/shopper-ask";
import { formatDateTime } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import type { AskView } from "../../pages/customer-answers.server";
import type { StateTone } from "../delivery-state";

/**
 * An ask in the merchant's words, the same on Customer answers and the delivery page: its state
 * as a badge, why the customer was asked, and what they answered ("Fixed to Salmiya, Block 4,
 * Street 12"). What the customer typed is data: isolated and not translated.
 */

/** Amber while the order waits for its customer, green once answered, grey otherwise. */
export function askTone(state: AskState): StateTone {
  if (state === "asked") return "attention";
  if (state === "answered") return "success";
  if (state === "expired") return "warning";
  if (state === "checking") return "info";
  return undefined;
}

export function AskStateBadge(props: { state: AskState }) {
  const { t } = useTranslation("answers");
  return <Badge tone={askTone(props.state)}>{t(`answers:states.${props.state}`)}</Badge>;
}

/** "No block · Area not sure", in the page's language. */
export function useReasons(): (reasons: readonly string[]) => string {
  const { t, i18n } = useTranslation("answers");
  return (reasons) =>
    reasons
      .filter((reason) => i18n.exists(`answers:reasons.${reason}`))
      .map((reason) => t(`answers:reasons.${reason}`))
      .join(" · ");
}

/** The answered place on one line: the area in the page's language, then the parts. */
export function AnsweredPlace(props: { answer: NonNullable<AskView["answer"]> }) {
  const { t } = useTranslation("answers");
  const language = useLanguage();
  const { answer } = props;
  const separator = language === "ar" ? "، " : ", ";
  const pieces = answer.parts.map(({ part, value }) => t(`answers:parts.${part}`, { value }));
  return (
    <>
      {answer.area && <bdi>{answer.area[language] || answer.area.en}</bdi>}
      {answer.area && pieces.length > 0 && separator}
      <bdi translate="no">{pieces.join(separator)}</bdi>
    </>
  );
}

/**
 * What came back, as one sentence, with when (and who, when it was not the customer); without
 * the place where it is shown beside (the delivery page's card).
 */
export function AnswerSummary(props: { ask: AskView; withPlace?: boolean }) {
  const { t } = useTranslation("answers");
  const language = useLanguage();
  const { ask } = props;
  const answer = ask.answer;
  if (!answer || ask.state !== "answered") {
    return (
      <Text as="span" tone="subdued">
        {ask.state === "asked"
          ? t("answers:answer.none")
          : ask.state === "expired" && ask.answerBy
            ? t("answers:answer.noneBy", { at: formatDateTime(ask.answerBy, language) })
            : t("common:none")}
      </Text>
    );
  }
  const cashAlso = answer.kind !== "cash_only" && answer.cashConfirmed;
  return (
    <>
      <Text as="span" breakWord>
        {answer.kind === "fixed" && props.withPlace === false ? (
          t("answers:answer.fixedShort")
        ) : answer.kind === "fixed" ? (
          <Trans
            t={t}
            i18nKey="answers:answer.fixed"
            components={{
              place: (
                <strong>
                  <AnsweredPlace answer={answer} />
                </strong>
              ),
            }}
          />
        ) : (
          t(`answers:answer.${answer.kind}`)
        )}
        {cashAlso && ` · ${t("answers:answer.cashAlso")}`}
      </Text>
      {ask.answeredAt && (
        <Text as="span" tone="subdued" variant="bodySm">
          {t("answers:answeredAt", { at: formatDateTime(ask.answeredAt, language) })}
          {ask.source === "merchant" && ` · ${t("answers:answer.byMerchant")}`}
        </Text>
      )}
      {ask.updatingShopify && (
        <Text as="span" tone="subdued" variant="bodySm">
          {t("answers:answer.updatingShopify")}
        </Text>
      )}
    </>
  );
}
