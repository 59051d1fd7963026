import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useState } from "preact/hooks";
import { createAppApi, numericId } from "../../shared/api";
import { runBulkSend, type OrderProgress } from "../../shared/bulk-send";
import { translator } from "../../shared/i18n";

export default async () => {
  render(<BulkSend />, document.body);
};

function BulkSend() {
  const t = translator(shopify.i18n);
  const orderIds = shopify.data.selected.map((s) => s.id);
  const [rows, setRows] = useState<OrderProgress[] | null>(null);
  const [done, setDone] = useState(0);
  const [running, setRunning] = useState(false);

  const start = async () => {
    setRunning(true);
    await runBulkSend(createAppApi(shopify), orderIds, {
      onProgress: (next, finished) => {
        setRows(next);
        setDone(finished);
      },
    });
    setRunning(false);
  };

  return (
    <s-admin-action heading={t("heading", { count: orderIds.length })}>
      <s-stack direction="block" gap="base">
        {!rows ? <s-text>{t("intro", { count: orderIds.length })}</s-text> : null}
        {rows ? <s-text>{t("progress", { done, total: orderIds.length })}</s-text> : null}
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
                  <s-table-cell>
                    {row.phase === "waiting" ? (
                      t("outcome.waiting")
                    ) : row.phase === "failed" ? (
                      <s-badge tone="critical">{row.message}</s-badge>
                    ) : (
                      <s-badge
                        tone={row.phase === "following" ? "info" : row.good ? "success" : "warning"}
                      >
                        {row.message || t("outcome.sent")}
                      </s-badge>
                    )}
                  </s-table-cell>
                </s-table-row>
              ))}
            </s-table-body>
          </s-table>
        ) : null}
      </s-stack>
      <s-button
        slot="primary-action"
        variant="primary"
        disabled={running || rows !== null}
        onClick={start}
      >
        {t("button.send", { count: orderIds.length })}
      </s-button>
      <s-button slot="secondary-actions" onClick={() => shopify.close()}>
        {t("button.close")}
      </s-button>
    </s-admin-action>
  );
}
