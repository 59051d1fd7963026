import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useState } from "preact/hooks";
import { labelsSrc, type LabelSize } from "../../shared/api";
import { translator } from "../../shared/i18n";

export default async () => {
  render(<PrintLabels />, document.body);
};

function PrintLabels() {
  const t = translator(shopify.i18n);
  const orderIds = shopify.data.selected.map((s) => s.id);
  const [size, setSize] = useState<LabelSize>("A6");
  return (
    <s-admin-print-action src={labelsSrc(orderIds, size)}>
      <s-stack direction="block" gap="base">
        <s-text>{t("intro", { count: orderIds.length })}</s-text>
        <s-select
          label={t("size.label")}
          value={size}
          onChange={(event) => setSize(event.currentTarget.value === "4x6" ? "4x6" : "A6")}
        >
          <s-option value="A6">{t("size.a6")}</s-option>
          <s-option value="4x6">{t("size.4x6")}</s-option>
        </s-select>
      </s-stack>
    </s-admin-print-action>
  );
}
