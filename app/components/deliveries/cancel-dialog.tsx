import { Link as RemixLink, useFetcher } from "@remix-run/react";
import { Banner, BlockStack, Button, ChoiceList, InlineStack, Modal, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CancelChoices, CancelPageResult } from "../../pages/cancel-dialog.server";
import { formatKwd } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import { useNotice } from "../notice";

export type FulfillmentChoice = "cancel" | "keep";

/**
 * "Cancel delivery?" (ADR 0044): says what cancelling does, in the merchant's words, and asks
 * what becomes of the order in Shopify: kept fulfilled, or its fulfillment cancelled too so it
 * can be sent again. The delivery's page uses it for one delivery; the list for a selection.
 */
export function CancelDialog({
  open,
  onClose,
  onConfirm,
  loading = false,
  orderName = null,
  count,
  atCourier = true,
  withDriver = false,
  cashToCollect = null,
  hasFulfillment = true,
}: {
  open: boolean;
  onClose: () => void;
  onConfirm: (fulfillment: FulfillmentChoice) => void;
  loading?: boolean;
  /** One delivery: its order's name. */
  orderName?: string | null;
  /** A selection from the list: how many (the dialog then speaks of each one). */
  count?: number;
  atCourier?: boolean;
  /** The driver has the parcel: say plainly that the courier will most likely refuse. */
  withDriver?: boolean;
  cashToCollect?: string | null;
  hasFulfillment?: boolean;
}) {
  const { t } = useTranslation(["cancel"]);
  const language = useLanguage();
  const [choice, setChoice] = useState<FulfillmentChoice[]>([]);
  useEffect(() => {
    if (open) setChoice(hasFulfillment ? [] : ["keep"]);
  }, [open, hasFulfillment]);
  const bulk = count !== undefined;
  const title = bulk
    ? t("cancel:dialog.titleMany", { count })
    : orderName
      ? t("cancel:dialog.titleOne", { order: orderName })
      : t("cancel:dialog.titleThis");
  const chosen = choice[0];
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      primaryAction={{
        content: bulk ? t("cancel:dialog.confirmMany") : t("cancel:dialog.confirm"),
        destructive: true,
        disabled: !chosen,
        loading,
        onAction: () => chosen && onConfirm(chosen),
      }}
      secondaryActions={[{ content: t("cancel:dialog.back"), onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          <Text as="p">
            {bulk
              ? t("cancel:dialog.whatMany")
              : withDriver
                ? t("cancel:dialog.withDriver")
                : atCourier
                  ? t("cancel:dialog.atCourier")
                  : t("cancel:dialog.notSent")}
          </Text>
          {!bulk && cashToCollect && (
            <Text as="p">
              {t("cancel:dialog.cash", { amount: formatKwd(cashToCollect, language) })}
            </Text>
          )}
          {hasFulfillment && (
            <ChoiceList
              title={t("cancel:dialog.question")}
              choices={[
                {
                  label: t("cancel:dialog.keep"),
                  value: "keep",
                  helpText: t("cancel:dialog.keepHelp"),
                },
                {
                  label: t("cancel:dialog.cancelFulfillment"),
                  value: "cancel",
                  helpText: t("cancel:dialog.cancelFulfillmentHelp"),
                },
              ]}
              selected={choice}
              onChange={(value) => setChoice(value as FulfillmentChoice[])}
            />
          )}
          {!chosen && hasFulfillment && (
            <Text as="p" tone="subdued">
              {t("cancel:dialog.choose")}
            </Text>
          )}
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}

/**
 * The delivery page's cancel actions: "Cancel delivery" with its dialog while it can be cancelled;
 * once cancelled, "Send again" when the order is unfulfilled in Shopify again, or "Cancel the
 * Shopify fulfillment" when it was kept. Posts to /app/deliveries/:id/cancel; the page's data is
 * read again afterwards (Remix revalidates after a fetcher's action).
 */
export function CancelDelivery({
  id,
  orderName,
  choices,
}: {
  id: string;
  orderName: string | null;
  choices: CancelChoices;
}) {
  const { t } = useTranslation(["cancel"]);
  const fetcher = useFetcher<CancelPageResult>();
  const [open, setOpen] = useState(false);
  const busy = fetcher.state !== "idle";
  const busyIntent = busy ? fetcher.formData?.get("intent") : null;
  const submit = (form: Record<string, string>) =>
    fetcher.submit(form, { method: "post", action: `/app/deliveries/${id}/cancel` });
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data) setOpen(false);
  }, [fetcher.state, fetcher.data]);

  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const actions =
    choices.canCancel ||
    choices.canSendAgain ||
    choices.fulfillment === "kept" ||
    choices.sentAgainAs !== null;
  if (!actions && !result) return null;
  return (
    <BlockStack gap="300">
      {result && <CancelResultBanner result={result} />}
      {choices.fulfillment === "kept" && !choices.canSendAgain && (
        <Text as="p" tone="subdued">
          {t("cancel:after.kept")}
        </Text>
      )}
      {choices.canSendAgain && (
        <Text as="p" tone="subdued">
          {t("cancel:after.unfulfilled")}
        </Text>
      )}
      {choices.sentAgainAs && !result && (
        <Text as="p" tone="subdued">
          {t("cancel:after.sentAgain")}{" "}
          <RemixLink to={`/app/deliveries/${choices.sentAgainAs}`}>
            {t("cancel:result.openNew")}
          </RemixLink>
        </Text>
      )}
      <InlineStack gap="200">
        {choices.canSendAgain && (
          <Button
            variant="primary"
            loading={busyIntent === "send_again"}
            disabled={busy}
            onClick={() => submit({ intent: "send_again" })}
          >
            {t("cancel:after.sendAgain")}
          </Button>
        )}
        {choices.fulfillment === "kept" && (
          <Button
            loading={busyIntent === "cancel_fulfillment"}
            disabled={busy}
            onClick={() => submit({ intent: "cancel_fulfillment" })}
          >
            {t("cancel:after.cancelFulfillment")}
          </Button>
        )}
        {choices.canCancel && (
          <Button tone="critical" onClick={() => setOpen(true)}>
            {t("cancel:button")}
          </Button>
        )}
      </InlineStack>
      <CancelDialog
        open={open}
        onClose={() => setOpen(false)}
        loading={busyIntent === "cancel"}
        onConfirm={(fulfillment) => submit({ intent: "cancel", fulfillment })}
        orderName={orderName}
        atCourier={choices.atCourier}
        withDriver={choices.withDriver}
        cashToCollect={choices.cashToCollect}
        hasFulfillment={choices.hasFulfillment}
      />
    </BlockStack>
  );
}

function CancelResultBanner({ result }: { result: CancelPageResult }) {
  const { t } = useTranslation(["cancel"]);
  const say = useNotice();
  if (!result.ok) {
    return (
      <Banner tone="critical" title={t("cancel:result.failed")}>
        <span dir="auto">{say(result.error)}</span>
      </Banner>
    );
  }
  if (result.intent === "send_again") {
    return (
      <Banner tone="success" title={t("cancel:result.sentAgain")}>
        <RemixLink to={`/app/deliveries/${result.deliveryId}`}>
          {t("cancel:result.openNew")}
        </RemixLink>
      </Banner>
    );
  }
  const tone =
    result.fulfillment === "not_cancelled"
      ? "warning"
      : result.state === "requested"
        ? "info"
        : "success";
  const title =
    result.state === "requested"
      ? t("cancel:result.requested")
      : result.intent === "cancel_fulfillment"
        ? t("cancel:result.fulfillmentOnly")
        : t("cancel:result.cancelled");
  const body = {
    cancelled: t("cancel:result.fulfillmentCancelled"),
    kept: t("cancel:result.fulfillmentKept"),
    later: t("cancel:result.fulfillmentLater"),
    not_cancelled: t("cancel:result.fulfillmentNotCancelled"),
  }[result.fulfillment];
  return (
    <Banner tone={tone} title={title}>
      <BlockStack gap="100">
        <Text as="p">{body}</Text>
        {result.message && (
          <Text as="p" tone="subdued">
            <span dir="auto">{say(result.message)}</span>
          </Text>
        )}
      </BlockStack>
    </Banner>
  );
}
