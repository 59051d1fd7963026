import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { QuoteResponse } from "../../../app/api-contract";
import { appPage, createAppApi } from "../../shared/api";
import { quoteLines, sendActionModel, type SendActionModel } from "../../shared/deliveries";
import { errorText, translator } from "../../shared/i18n";

export default async () => {
  render(<SendAction />, document.body);
};

function SendAction() {
  const t = translator(shopify.i18n);
  const api = createAppApi(shopify);
  const orderId = shopify.data.selected[0]?.id ?? "";
  const [model, setModel] = useState<SendActionModel | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    (async () => {
      try {
        const order = await api.orderDeliveries(orderId);
        // A price only for an order that can go now, not one whose address waits to be fixed.
        // No price does not keep the order from going: the merchant is told and may send.
        const waiting = order.deliveries.some((d) => d.actions.fixAddress);
        const quote =
          order.send.possible && !waiting
            ? await api
                .quote(orderId)
                .catch((e): QuoteResponse => ({ ok: false, error: errorText(e, t) }))
            : null;
        setModel(sendActionModel(order, quote));
      } catch (e) {
        setLoadError(errorText(e, t));
      }
    })();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [orderId]);

  const send = async () => {
    setBusy(true);
    try {
      const [result] = (await api.send([orderId])).outcomes;
      setOutcome(
        result?.ok
          ? { ok: true, message: t("send.sent") }
          : { ok: false, message: result?.error ?? t("send.failed") },
      );
    } catch (e) {
      setOutcome({ ok: false, message: errorText(e, t) });
    }
    setBusy(false);
  };

  const heading = model?.kind === "fix_address" ? t("heading.fix") : t("heading.send");
  return (
    <s-admin-action heading={heading}>
      <s-stack direction="block" gap="base">
        {!model && !loadError ? <s-spinner accessibilityLabel={t("loading")} /> : null}
        {loadError ? (
          <s-banner tone="critical" heading={t("error.load")}>
            {loadError}
          </s-banner>
        ) : null}
        {outcome ? (
          <s-banner tone={outcome.ok ? "success" : "critical"}>{outcome.message}</s-banner>
        ) : null}
        {model?.kind === "fix_address" ? <s-text>{model.problem ?? t("fix.body")}</s-text> : null}
        {model?.kind === "send" && model.quote.ok
          ? quoteLines(model.quote, t).map((line, i) => <s-text key={i}>{line}</s-text>)
          : null}
        {model?.kind === "send" && !model.quote.ok ? (
          <s-banner tone="warning" heading={t("quote.failed")}>
            {model.quote.error}
          </s-banner>
        ) : null}
        {model?.kind === "nothing" ? <s-text>{model.reason || t("nothing")}</s-text> : null}
      </s-stack>
      {model?.kind === "fix_address" ? (
        // The admin opens the app's page for an `app:` link (an action has no navigation API).
        <s-button slot="primary-action" variant="primary" href={appPage(model.path)}>
          {t("button.fixAddress")}
        </s-button>
      ) : null}
      {model?.kind === "send" && !outcome?.ok ? (
        <s-button
          slot="primary-action"
          variant="primary"
          loading={busy}
          disabled={busy}
          onClick={send}
        >
          {t("button.send")}
        </s-button>
      ) : null}
      <s-button slot="secondary-actions" onClick={() => shopify.close()}>
        {t("button.close")}
      </s-button>
    </s-admin-action>
  );
}
