import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { translator } from "../../shared/i18n";
import {
  fetchShopperOrder,
  questionsKey,
  thankYouStep,
  type ThankYouApi,
} from "../../shared/shopper";

export default async () => {
  render(<ThankYouBlock />, document.body);
};

type Shown = { questions: ("address" | "cash")[]; link: string };

function ThankYouBlock() {
  // This target's API, typed by hand (shared/shopper.ts says why).
  const host = (globalThis as unknown as { shopify: ThankYouApi }).shopify;
  const [shown, setShown] = useState<Shown | null>(null);

  useEffect(() => {
    const { order, number } = host.orderConfirmation.value;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async (attempt: number) => {
      const answer = await fetchShopperOrder(
        host,
        { gid: order.id, confirmation: number ?? "" },
        "thank-you",
      ).catch(() => null);
      if (stopped) return;
      const step = thankYouStep(answer, attempt);
      if ("show" in step) setShown(step.show);
      else if ("retryInMs" in step) timer = setTimeout(() => void ask(attempt + 1), step.retryInMs);
    };
    // The confirmation number is the shopper's proof to the app; without it there is no answer.
    if (number) void ask(0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (!shown) return null;
  const t = translator(host.i18n);
  const key = questionsKey(shown.questions);
  return (
    <s-banner tone="warning" heading={t("heading")}>
      <s-stack direction="block" gap="base">
        <s-text>{t(`explain.${key}`)}</s-text>
        <s-button variant="primary" href={shown.link} target="_blank">
          {t(key === "cash" ? "buttonCash" : "button")}
        </s-button>
      </s-stack>
    </s-banner>
  );
}
