import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import type { OrderDeliveriesResponse } from "../../../app/api-contract";
import { appPage, createAppApi } from "../../shared/api";
import { deliveryRow } from "../../shared/deliveries";
import { translator } from "../../shared/i18n";

export default async () => {
  render(<DeliveryBlock />, document.body);
};

function DeliveryBlock() {
  const t = translator(shopify.i18n);
  const api = createAppApi(shopify);
  const orderId = shopify.data.selected[0]?.id ?? "";
  const [order, setOrder] = useState<OrderDeliveriesResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setOrder(await api.orderDeliveries(orderId));
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [orderId]);
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (work: () => Promise<string>) => {
    setBusy(true);
    try {
      setNotice(await work());
    } catch (e) {
      setNotice(e instanceof Error ? e.message : String(e));
    }
    setBusy(false);
    await load();
  };

  if (error)
    return (
      <s-admin-block heading={t("heading")}>
        <s-banner tone="critical">{error}</s-banner>
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
        {notice ? <s-banner tone="info">{notice}</s-banner> : null}
        {order.deliveries.length === 0 ? <s-text>{t("none")}</s-text> : null}
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
                <s-button-group>
                  {row.buttons.map((button) =>
                    button === "fix_address" ? (
                      <s-button
                        key={button}
                        slot="secondary-actions"
                        onClick={() =>
                          shopify.navigation.navigate(
                            appPage(delivery.fixAddressPath ?? "/app/address-review"),
                          )
                        }
                      >
                        {t("button.fixAddress")}
                      </s-button>
                    ) : button === "print_label" ? (
                      <s-button
                        key={button}
                        slot="secondary-actions"
                        onClick={() =>
                          shopify.navigation.navigate(appPage(`/app/labels?deliveryIds=${row.id}`))
                        }
                      >
                        {t("button.printLabel")}
                      </s-button>
                    ) : (
                      <s-button
                        key={button}
                        slot="secondary-actions"
                        tone="critical"
                        disabled={busy}
                        onClick={() =>
                          act(async () => {
                            const outcome = await api.cancel(row.id);
                            return outcome.ok
                              ? outcome.state === "cancelled"
                                ? t("cancel.done")
                                : outcome.message
                              : outcome.error;
                          })
                        }
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
            disabled={busy}
            onClick={() =>
              act(async () => {
                const [outcome] = (await api.send([orderId])).outcomes;
                return outcome?.ok ? t("send.sent") : (outcome?.error ?? t("send.failed"));
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
