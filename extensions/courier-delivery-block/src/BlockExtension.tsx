import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import type { OrderDeliveriesResponse } from "../../../app/api-contract";
import { appPage, createAppApi } from "../../shared/api";
import { deliveryRow } from "../../shared/deliveries";
import { errorText, translator } from "../../shared/i18n";

export default async () => {
  render(<DeliveryBlock />, document.body);
};

/** What the last button pressed came to, said in the tone of its outcome. */
interface Notice {
  tone: "success" | "info" | "critical";
  text: string;
}

function DeliveryBlock() {
  const t = translator(shopify.i18n);
  const api = createAppApi(shopify);
  const orderId = shopify.data.selected[0]?.id ?? "";
  const [order, setOrder] = useState<OrderDeliveriesResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  /** The action under way ("send", or the id of the delivery being cancelled). */
  const [busy, setBusy] = useState<string | null>(null);
  /** The delivery whose Cancel was pressed and waits to be confirmed. */
  const [confirming, setConfirming] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setOrder(await api.orderDeliveries(orderId));
      setError(null);
    } catch (e) {
      setError(errorText(e, t));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [orderId]);
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (name: string, work: () => Promise<Notice>) => {
    setBusy(name);
    setNotice(null);
    try {
      setNotice(await work());
    } catch (e) {
      setNotice({ tone: "critical", text: errorText(e, t) });
    }
    setBusy(null);
    setConfirming(null);
    await load();
  };

  if (error)
    return (
      <s-admin-block heading={t("heading")}>
        <s-stack direction="block" gap="base">
          <s-banner tone="critical" heading={t("error.load")}>
            {error}
          </s-banner>
          <s-button
            onClick={() => {
              setError(null);
              setOrder(null);
              void load();
            }}
          >
            {t("button.retry")}
          </s-button>
        </s-stack>
      </s-admin-block>
    );
  if (!order)
    return (
      <s-admin-block heading={t("heading")}>
        <s-spinner accessibilityLabel={t("loading")} />
      </s-admin-block>
    );

  return (
    <s-admin-block heading={t("heading")}>
      <s-stack direction="block" gap="base">
        {notice ? <s-banner tone={notice.tone}>{notice.text}</s-banner> : null}
        {order.deliveries.length === 0 ? <s-text>{t("none")}</s-text> : null}
        {order.deliveries.length === 0 && !order.send.possible && order.send.reason ? (
          <s-text color="subdued">{order.send.reason}</s-text>
        ) : null}
        {order.deliveries.map((delivery) => {
          const row = deliveryRow(delivery, t);
          return (
            <s-section key={row.id}>
              <s-stack direction="block" gap="small-200">
                <s-stack direction="inline" gap="small-200">
                  <s-badge tone={row.tone}>{row.state}</s-badge>
                  {row.courierOrderNumber ? (
                    row.trackingUrl ? (
                      <s-link href={row.trackingUrl} target="_blank">
                        {row.courierOrderNumber}
                      </s-link>
                    ) : (
                      <s-text type="strong">{row.courierOrderNumber}</s-text>
                    )
                  ) : null}
                </s-stack>
                <s-text>{row.cash}</s-text>
                {row.problem ? <s-banner tone="warning">{row.problem}</s-banner> : null}
                {confirming === row.id ? (
                  <s-banner tone="warning" heading={t("cancel.confirm")}>
                    <s-button
                      slot="secondary-actions"
                      tone="critical"
                      loading={busy === row.id}
                      disabled={busy !== null}
                      onClick={() =>
                        act(row.id, async () => {
                          const outcome = await api.cancel(row.id);
                          if (!outcome.ok) return { tone: "critical", text: outcome.error };
                          return outcome.state === "cancelled"
                            ? { tone: "success", text: t("cancel.done") }
                            : { tone: "info", text: outcome.message };
                        })
                      }
                    >
                      {t("button.confirmCancel")}
                    </s-button>
                    <s-button
                      slot="secondary-actions"
                      disabled={busy !== null}
                      onClick={() => setConfirming(null)}
                    >
                      {t("button.keep")}
                    </s-button>
                  </s-banner>
                ) : null}
                <s-button-group>
                  {row.buttons.map((button) =>
                    button === "fix_address" ? (
                      // The admin opens the app's page for an `app:` link; a block's
                      // navigation.navigate only opens other extensions.
                      <s-button
                        key={button}
                        slot="secondary-actions"
                        href={appPage(delivery.fixAddressPath ?? "/app/address-review")}
                      >
                        {t("button.fixAddress")}
                      </s-button>
                    ) : button === "print_label" ? (
                      <s-button
                        key={button}
                        slot="secondary-actions"
                        href={appPage(`/app/labels?deliveryIds=${row.id}`)}
                      >
                        {t("button.printLabel")}
                      </s-button>
                    ) : confirming === row.id ? null : (
                      <s-button
                        key={button}
                        slot="secondary-actions"
                        tone="critical"
                        disabled={busy !== null}
                        onClick={() => {
                          setNotice(null);
                          setConfirming(row.id);
                        }}
                      >
                        {t("button.cancel")}
                      </s-button>
                    ),
                  )}
                </s-button-group>
              </s-stack>
            </s-section>
          );
        })}
        {order.send.possible ? (
          <s-button
            variant="primary"
            loading={busy === "send"}
            disabled={busy !== null}
            onClick={() =>
              act("send", async () => {
                const [outcome] = (await api.send([orderId])).outcomes;
                return outcome?.ok
                  ? { tone: "success", text: t("send.sent") }
                  : { tone: "critical", text: outcome?.error ?? t("send.failed") };
              })
            }
          >
            {t("button.send")}
          </s-button>
        ) : null}
      </s-stack>
    </s-admin-block>
  );
}
