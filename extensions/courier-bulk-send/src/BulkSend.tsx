import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useState } from "preact/hooks";
import { createAppApi, numericId } from "../../shared/api";
import { runBulkSend, type OrderProgress, type SendProgress } from "../../shared/bulk-send";
import type { BadgeTone } from "../../shared/deliveries";
import { errorText, translator } from "../../shared/i18n";

export default async () => {
  render(<BulkSend />, document.body);
};

const SETTLED_TONES: Record<SendProgress, BadgeTone> = {
  created: "success",
  needs_address: "warning",
  needs_review: "warning",
  needs_attention: "warning",
  rejected: "critical",
  not_sent: "critical",
  cancelled: "critical",
  in_progress: "info",
};

function BulkSend() {
  const t = translator(shopify.i18n);
  const orderIds = shopify.data.selected.map((s) => s.id);
  const count = orderIds.length;
  const [rows, setRows] = useState<OrderProgress[] | null>(null);
  const [done, setDone] = useState(0);
  const [running, setRunning] = useState(false);
  /** Following stopped while some deliveries were still under way. */
  const [unsettled, setUnsettled] = useState(false);

  const start = async () => {
    setRunning(true);
    const final = await runBulkSend(createAppApi(shopify), orderIds, {
      onProgress: (next, finished) => {
        setRows(next);
        setDone(finished);
      },
      describeError: (error) => errorText(error, t),
    });
    setUnsettled(final.some((row) => row.phase === "following"));
    setRunning(false);
  };

  /** A badge in the merchant's language, then the app's own words for that order. */
  const outcome = (row: OrderProgress) => {
    if (row.phase === "waiting") return <s-text color="subdued">{t("outcome.waiting")}</s-text>;
    const [tone, word, detail]: [BadgeTone, string, string] =
      row.phase === "failed"
        ? ["critical", t("outcome.notSent"), row.message]
        : row.progress === null
          ? ["info", t("outcome.sent"), row.message]
          : [
              row.phase === "following" ? "info" : SETTLED_TONES[row.progress],
              t(`outcome.progress.${row.progress}`),
              row.message,
            ];
    return (
      <s-stack direction="inline" gap="small-200">
        <s-badge tone={tone}>{word}</s-badge>
        {detail ? <s-text>{detail}</s-text> : null}
      </s-stack>
    );
  };

  return (
    <s-admin-action heading={t("heading", { count })}>
      <s-stack direction="block" gap="base">
        {!rows ? <s-text>{t("intro", { count })}</s-text> : null}
        {rows ? <s-text>{t("progress", { done, total: count })}</s-text> : null}
        {unsettled ? <s-banner tone="info">{t("unsettled")}</s-banner> : null}
        {rows ? (
          <s-table>
            <s-table-header-row>
              <s-table-header>{t("column.order")}</s-table-header>
              <s-table-header>{t("column.outcome")}</s-table-header>
            </s-table-header-row>
            <s-table-body>
              {rows.map((row) => (
                <s-table-row key={row.orderId}>
                  <s-table-cell>{row.orderName ?? `#${numericId(row.orderId)}`}</s-table-cell>
                  <s-table-cell>{outcome(row)}</s-table-cell>
                </s-table-row>
              ))}
            </s-table-body>
          </s-table>
        ) : null}
      </s-stack>
      {rows === null || running ? (
        <s-button
          slot="primary-action"
          variant="primary"
          loading={running}
          disabled={running}
          onClick={start}
        >
          {t("button.send", { count })}
        </s-button>
      ) : null}
      <s-button slot="secondary-actions" onClick={() => shopify.close()}>
        {t("button.close")}
      </s-button>
    </s-admin-action>
  );
}
