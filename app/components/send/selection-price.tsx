import { BlockStack, Card, List, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import type { QuoteOutcome } from "../../actions/quote.server";
import { quoteTotal } from "../../domain/quote-total";
import { formatKwd } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import { useNotice } from "../notice";

/** The selection's courier prices: their total, and the orders the courier did not price. */
export function SelectionPrice(props: {
  pending: boolean;
  asked: number;
  quotes: { orderId: string; quote: QuoteOutcome }[];
  orderName: (id: string) => string;
}) {
  const { t } = useTranslation(["send"]);
  const language = useLanguage();
  const say = useNotice();
  const total = quoteTotal(props.quotes.map((q) => q.quote));
  const unpriced = props.quotes.filter((q) => !q.quote.ok || q.quote.price === null);
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingSm">
          {t("send:selection.title")}
        </Text>
        {props.pending ? (
          <Text as="p" tone="subdued">
            {t("send:selection.pending", { count: props.asked })}
          </Text>
        ) : (
          <>
            <Text as="p" variant="headingMd" id="selection-total">
              {t("send:selection.total", {
                count: total.priced,
                amount: formatKwd(total.totalKwd, language),
              })}
            </Text>
            {unpriced.length > 0 && (
              <BlockStack gap="100">
                <Text as="p">{t("send:selection.unpriced", { count: unpriced.length })}</Text>
                <List>
                  {unpriced.map(({ orderId, quote }) => (
                    <List.Item key={orderId}>
                      <bdi translate="no">{props.orderName(orderId)}</bdi>
                      {": "}
                      <span dir="auto">
                        {quote.ok ? t("send:quote.noPrice") : say(quote.error)}
                      </span>
                    </List.Item>
                  ))}
                </List>
              </BlockStack>
            )}
          </>
        )}
      </BlockStack>
    </Card>
  );
}
