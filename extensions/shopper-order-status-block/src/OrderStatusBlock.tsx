import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { translator } from "../../shared/i18n";
import {
  fetchShopperOrder,
  kuwaitDate,
  orderStatusShown,
  questionsKey,
  type OrderStatusShown,
  type OrderStatusApi,
} from "../../shared/shopper";

export default async () => {
  render(<OrderStatusBlock />, document.body);
};

function OrderStatusBlock() {
  // This target's API, typed by hand (shared/shopper.ts says why).
  const host = (globalThis as unknown as { shopify: OrderStatusApi }).shopify;
  const [shown, setShown] = useState<OrderStatusShown | null>(null);

  useEffect(() => {
    const order = host.order.value;
    let stopped = false;
    // One question: by the time a shopper opens the order status page the app has checked it.
    if (order?.confirmationNumber) {
      fetchShopperOrder(
        host,
        { gid: order.id, confirmation: order.confirmationNumber },
        "order-status",
      )
        .then((answer) => !stopped && setShown(orderStatusShown(answer)))
        .catch(() => {});
    }
    return () => {
      stopped = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (!shown) return null;
  const t = translator(host.i18n);
  return (
    <s-section heading={t("heading")}>
      <s-stack direction="block" gap="base">
        <s-text type="strong">{t(`status.${shown.status}`)}</s-text>
        {shown.expectedDay ? (
          <s-text>
            {t("expected", {
              day: host.i18n.formatDate(kuwaitDate(shown.expectedDay), {
                weekday: "long",
                day: "numeric",
                month: "long",
                timeZone: "Asia/Kuwait",
              }),
            })}
          </s-text>
        ) : null}
        {shown.link?.kind === "answer" ? (
          <s-banner tone="warning">{t(`question.${questionsKey(shown.questions)}`)}</s-banner>
        ) : null}
        {shown.link ? (
          <s-button
            variant={shown.link.kind === "answer" ? "primary" : "secondary"}
            href={shown.link.href}
            target="_blank"
          >
            {t(shown.link.kind === "answer" ? "button.answer" : "button.follow")}
          </s-button>
        ) : null}
      </s-stack>
    </s-section>
  );
}
