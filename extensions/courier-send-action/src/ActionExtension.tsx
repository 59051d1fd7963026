import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { appPage, createAppApi } from "../../shared/api";
import { quoteLines, sendActionModel, type SendActionModel } from "../../shared/deliveries";
import { translator } from "../../shared/i18n";

export default async () => {
  render(<SendAction />, document.body);
};

function SendAction() {
  const t = translator(shopify.i18n);
  const api = createAppApi(shopify);
  const orderId = shopify.data.selected[0]?.id ?? "";
  const [model, setModel] = useState<SendActionModel | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    (async () => {
      try {
        const order = await api.orderDeliveries(orderId);
        const quote = order.send.possible ? await api.quote(orderId) : null;
        setModel(sendActionModel(order, quote));
      } catch (e) {
        setModel({ kind: "nothing", reason: e instanceof Error ? e.message : String(e) });
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
      setOutcome({ ok: false, message: e instanceof Error ? e.message : String(e) });
    }
    setBusy(false);
  };

  const heading = model?.kind === "fix_address" ? t("heading.fix") : t("heading.send");
  return (
    <s-admin-action heading={heading}>
      <s-stack direction="block" gap="base">
        {!model ? <s-spinner accessibilityLabel={t("loading")} /> : null}
        {outcome ? (
          <s-banner tone={outcome.ok ? "success" : "critical"}>{outcome.message}</s-banner>
        ) : null}
        {model?.kind === "fix_address" ? <s-text>{model.problem ?? t("fix.body")}</s-text> : null}
        {model?.kind === "send"
          ? quoteLines(model.quote, t).map((line, i) => <s-text key={i}>{line}</s-text>)
          : null}
        {model?.kind === "nothing" ? <s-text>{model.reason}</s-text> : null}
      </s-stack>
      {model?.kind === "fix_address" ? (
        <s-button
          slot="primary-action"
          onClick={() => shopify.navigation?.navigate?.(appPage(model.path))}
        >
          {t("button.fixAddress")}
        </s-button>
      ) : null}
      {model?.kind === "send" && !outcome?.ok ? (
        <s-button slot="primary-action" variant="primary" disabled={busy} onClick={send}>
          {t("button.send")}
        </s-button>
      ) : null}
      <s-button slot="secondary-actions" onClick={() => shopify.close()}>
        {t("button.close")}
      </s-button>
    </s-admin-action>
  );
}
