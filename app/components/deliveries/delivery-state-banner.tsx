import { Form } from "@remix-run/react";
import { Banner, BlockStack, Button, InlineStack, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { DeliveryPageData } from "../../pages/delivery.server";
import type { DeliveryState } from "../../domain/states";
import { longWaitSentence } from "../../domain/waits";
import { formatDateTime } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import { translateMessage } from "../../i18n/messages";
import { stateTone } from "../delivery-state";
import type { Notice } from "../../domain/notices";
import { useNotice } from "../notice";
import { RefusedFields } from "./refused-fields";
import { useSentence } from "./sentence";

/** States whose page says why the delivery waits or ended, and what the merchant can do. */
const EXPLAINED: readonly DeliveryState[] = [
  "rejected",
  "needs_address",
  "needs_review",
  "needs_attention",
  "unknown",
  "failed",
  "returned",
  "skipped",
];

// Entries whose catalog sentence is general: the service's own reason says more.
const GENERAL = new Set([
  "timeline.kind.needs_attention",
  "timeline.kind.skipped",
  "timeline.kind.waiting",
  "timeline.kind.needs_address",
]);

/**
 * A service's sentence through the `messages` catalog (ADR 0040). One it has no translation for
 * is shown as written and not marked as data or as English: the Arabic page check finds it
 * (ADR 0045).
 */
function Recorded(props: { text: string }) {
  const { t } = useTranslation("delivery");
  return (
    <Text as="p">
      <span dir="auto">{translateMessage(t, props.text)}</span>
    </Text>
  );
}

export function StateBanner(props: {
  delivery: DeliveryPageData["delivery"];
  reason: DeliveryPageData["reason"];
}) {
  const { t } = useTranslation("delivery");
  const say = useSentence();
  const { delivery, reason } = props;
  if (!EXPLAINED.includes(delivery.state)) return null;
  const tone = stateTone(delivery.state);
  // The entry's sentence where the writer chose one (the state's own says the rest); the
  // service's reason where the entry's sentence is only its kind's general one.
  const chosen = reason?.sentence?.key.startsWith("timeline.text.") ? reason.sentence : null;
  const showRecorded =
    reason?.recorded && (reason.sentence === null || GENERAL.has(reason.sentence.key));
  const canRetry = delivery.state === "rejected" || delivery.state === "needs_review";
  return (
    <Banner tone={tone === "success" || tone === "attention" ? "info" : (tone ?? "info")}>
      <BlockStack gap="200">
        <Text as="p" fontWeight="semibold">
          {t(`why.${delivery.state}`, { defaultValue: "" })}
        </Text>
        {chosen && <Text as="p">{say(chosen)}</Text>}
        {showRecorded && reason?.recorded && <Recorded text={reason.recorded} />}
        {reason && reason.refused.length > 0 ? (
          <RefusedFields fields={reason.refused} />
        ) : (
          reason?.courierSaid && (
            <Text as="p" tone="subdued">
              {t("timeline.courierSaid")} <bdi translate="no">“{reason.courierSaid}”</bdi>
            </Text>
          )
        )}
        <InlineStack gap="200" blockAlign="center" align="start">
          {delivery.fixable && (
            <Button url={`/app/deliveries/${delivery.id}/fix`} variant="primary">
              {t("actions.fix")}
            </Button>
          )}
          {delivery.waitsForReview && (
            <Button url="/app/address-review">{t("actions.review")}</Button>
          )}
          {(canRetry || delivery.state === "needs_attention") && (
            <Form method="post">
              <input type="hidden" name="intent" value="retry" />
              <Button submit>
                {delivery.state === "needs_attention" ? t("actions.tryAgain") : t("actions.retry")}
              </Button>
            </Form>
          )}
        </InlineStack>
        {delivery.state === "needs_review" && <MarkCreatedForm />}
      </BlockStack>
    </Banner>
  );
}

/**
 * A delivery that has waited half an hour or more for Shopify or the courier without failing
 * (issue 24): what for and since when; it goes on by itself, so there is nothing to press.
 */
export function WaitingLong(props: { waiting: DeliveryPageData["waitingLong"] }) {
  const say = useSentence();
  const { waiting } = props;
  if (!waiting) return null;
  return (
    <Banner tone="warning">
      <Text as="p">{say(longWaitSentence(waiting))}</Text>
    </Banner>
  );
}

/** "Mark created": the merchant found the order at the courier and gives its number. */
function MarkCreatedForm() {
  const { t } = useTranslation("delivery");
  const [number, setNumber] = useState("");
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="mark_created" />
      <InlineStack gap="200" blockAlign="end">
        <TextField
          label={t("actions.markCreatedLabel")}
          name="courierOrder"
          value={number}
          onChange={setNumber}
          autoComplete="off"
          helpText={t("actions.markCreatedHelp")}
        />
        <Button submit disabled={number.trim() === ""}>
          {t("actions.markCreated")}
        </Button>
      </InlineStack>
    </Form>
  );
}

/** What the last action on the page did: its error or its outcome, in the page's language. */
export function ActionOutcome(props: {
  result: { ok: boolean; error?: Notice; message?: Notice } | undefined;
}) {
  const { t } = useTranslation("delivery");
  const say = useNotice();
  const { result } = props;
  if (!result) return null;
  if (!result.ok && result.error) {
    return (
      <Banner tone="critical">
        <Text as="p">
          <span dir="auto">{say(result.error)}</span>
        </Text>
      </Banner>
    );
  }
  if (!result.ok) return null;
  return (
    <Banner tone={result.message ? "info" : "success"}>
      {result.message ? (
        <Text as="p">
          <span dir="auto">{say(result.message)}</span>
        </Text>
      ) : (
        t("outcome.done")
      )}
    </Banner>
  );
}

/** A cancellation asked for and not yet carried out. */
export function CancelRequested(props: { at: string | null; state: DeliveryState }) {
  const { t } = useTranslation("delivery");
  const language = useLanguage();
  if (!props.at || props.state === "cancelled") return null;
  return (
    <Banner tone="info">{t("cancelRequested", { at: formatDateTime(props.at, language) })}</Banner>
  );
}
