import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { AppApiError, createAppApi, labelsSrc, type LabelSize } from "../../shared/api";
import type { Translate } from "../../shared/deliveries";
import { errorText, translator } from "../../shared/i18n";

export default async () => {
  render(<PrintLabels />, document.body);
};

type Check = { state: "checking" } | { state: "ready" } | { state: "failed"; message: string };

/** Why the app prints no labels for these orders, in the merchant's language. */
function labelsError(error: unknown, t: Translate): string {
  if (error instanceof AppApiError && error.status === 409) return t("error.noLabel");
  if (error instanceof AppApiError && error.status === 404) return t("error.notFound");
  return errorText(error, t);
}

function PrintLabels() {
  const t = translator(shopify.i18n);
  const orderIds = shopify.data.selected.map((s) => s.id);
  const count = orderIds.length;
  const [size, setSize] = useState<LabelSize>("A6");
  // The print preview shows whatever the app answers, an error's JSON too: the document is asked
  // for first, and given to the preview only when the app serves it.
  const [check, setCheck] = useState<Check>({ state: "checking" });
  useEffect(() => {
    const src = labelsSrc(orderIds, "A6");
    if (!src) {
      setCheck({ state: "failed", message: t("error.noLabel") });
      return;
    }
    createAppApi(shopify)
      .checkDocument(src)
      .then(
        () => setCheck({ state: "ready" }),
        (error: unknown) => setCheck({ state: "failed", message: labelsError(error, t) }),
      );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [orderIds.join(",")]);

  return (
    <s-admin-print-action src={check.state === "ready" ? labelsSrc(orderIds, size) : undefined}>
      <s-stack direction="block" gap="base">
        <s-text>{t("intro", { count })}</s-text>
        {check.state === "checking" ? <s-spinner accessibilityLabel={t("checking")} /> : null}
        {check.state === "failed" ? <s-banner tone="critical">{check.message}</s-banner> : null}
        {check.state === "ready" ? (
          <s-select
            label={t("size.label")}
            value={size}
            onChange={(event) => setSize(event.currentTarget.value === "4x6" ? "4x6" : "A6")}
          >
            <s-option value="A6">{t("size.a6")}</s-option>
            <s-option value="4x6">{t("size.4x6")}</s-option>
          </s-select>
        ) : null}
        {check.state === "ready" && count > 1 ? <s-text color="subdued">{t("note")}</s-text> : null}
      </s-stack>
    </s-admin-print-action>
  );
}
