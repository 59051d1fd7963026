import { Link as RemixLink, useFetcher } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Box,
  Button,
  IndexTable,
  InlineStack,
  Spinner,
  Text,
} from "@shopify/polaris";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { QuoteOutcome } from "../../actions/quote.server";
import type { SendActionResult, SendPageOrder } from "../../pages/send.server";
import type { SendProgress, SendStatus } from "../../actions/send-status.server";
import { formatDateTime, formatKwd } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import { areaName, cityName } from "../../i18n/place-names";
import { reasonOnPage, translateMessage } from "../../i18n/messages";
import { useNotice } from "../notice";
import { progressOf, type RowOutcome } from "./use-send-run";

const TONE: Record<SendProgress, "success" | "critical" | "warning" | "info" | undefined> = {
  created: "success",
  rejected: "critical",
  needs_address: "warning",
  needs_review: "warning",
  needs_attention: "warning",
  not_sent: "critical",
  cancelled: undefined,
  in_progress: "info",
};

/** One order of the Send page: a stack on a phone, columns from a tablet up. */
export function SendOrderRow({
  order,
  index,
  selected,
  disabled,
  outcome,
  condensed,
  selectionQuote,
}: {
  order: SendPageOrder;
  index: number;
  selected: boolean;
  disabled: boolean;
  outcome: RowOutcome | undefined;
  condensed: boolean;
  /** Its price from "Price the selection", until its own "Ask again". */
  selectionQuote: QuoteOutcome | undefined;
}) {
  const { t } = useTranslation(["send"]);
  const language = useLanguage();
  const amount =
    order.currency === "KWD"
      ? formatKwd(order.amount, language)
      : `${order.amount} ${order.currency}`;
  const payment = order.payment ? t(`send:payment.${order.payment}`) : "—";
  // The place in the page's language; the country only when it is not Kuwait.
  const place = [
    order.city ? cityName(order.city, language) : null,
    order.country && order.country !== "KW" ? countryName(order.country, language) : null,
  ]
    .filter(Boolean)
    .join(language === "ar" ? "، " : ", ");
  const name = (
    <Text as="span" fontWeight="semibold">
      <bdi translate="no">{order.name}</bdi>
    </Text>
  );
  const row = {
    id: order.id,
    position: index,
    selected,
    disabled,
    accessibilityLabel: t("send:select", { order: order.name }),
  };
  // A phone: one cell beside the checkbox (Polaris's condensed list cannot select rows).
  if (condensed) {
    return (
      <IndexTable.Row {...row}>
        <IndexTable.Cell>
          <Wraps>
            <BlockStack gap="200">
              <InlineStack align="space-between" gap="200" blockAlign="center">
                {name}
                <Text as="span" tone="subdued" variant="bodySm">
                  {formatDateTime(order.createdAt, language)}
                </Text>
              </InlineStack>
              <Text as="span" variant="bodySm">
                <bdi translate="no">{order.customer ?? "—"}</bdi>
                {place && (
                  <>
                    {" · "}
                    <bdi translate="no">{place}</bdi>
                  </>
                )}
              </Text>
              <InlineStack gap="200" blockAlign="center">
                <Text as="span" numeric>
                  {amount}
                </Text>
                <Badge tone={order.payment === "paid" ? "success" : "attention"}>{payment}</Badge>
              </InlineStack>
              <Quote order={order} fromSelection={selectionQuote} />
              <Interactive>
                <OrderOutcome outcome={outcome} />
              </Interactive>
            </BlockStack>
          </Wraps>
        </IndexTable.Cell>
      </IndexTable.Row>
    );
  }
  return (
    <IndexTable.Row {...row}>
      <IndexTable.Cell>
        <BlockStack gap="050">
          {name}
          <Text as="span" tone="subdued" variant="bodySm">
            {formatDateTime(order.createdAt, language)}
          </Text>
        </BlockStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Box maxWidth="200px">
          <BlockStack gap="050">
            <Text as="span" truncate>
              <bdi translate="no">{order.customer ?? "—"}</bdi>
            </Text>
            {place && (
              <Text as="span" tone="subdued" variant="bodySm" truncate>
                <bdi translate="no">{place}</bdi>
              </Text>
            )}
          </BlockStack>
        </Box>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span" alignment="end" numeric>
          {amount}
        </Text>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Badge tone={order.payment === "paid" ? "success" : "attention"}>{payment}</Badge>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Box minWidth="120px" maxWidth="220px">
          <Quote order={order} fromSelection={selectionQuote} />
        </Box>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Box minWidth="160px" maxWidth="300px">
          <Interactive>
            <OrderOutcome outcome={outcome} />
          </Interactive>
        </Box>
      </IndexTable.Cell>
    </IndexTable.Row>
  );
}

/** "Get price": the courier's price for this order, shown in its row. */
function Quote({
  order,
  fromSelection,
}: {
  order: SendPageOrder;
  fromSelection: QuoteOutcome | undefined;
}) {
  const { t } = useTranslation(["send"]);
  const say = useNotice();
  const language = useLanguage();
  const quoter = useFetcher<SendActionResult>({ key: `quote-${order.id}` });
  const answer = (quoter.data?.intent === "quote" ? quoter.data.quote : null) ?? fromSelection;
  const button = (
    <Button
      variant="plain"
      accessibilityLabel={t("send:quote.label", { order: order.name })}
      loading={quoter.state !== "idle"}
      onClick={() => quoter.submit({ intent: "quote", orderId: order.id }, { method: "post" })}
    >
      {answer ? t("send:quote.again") : t("send:quote.button")}
    </Button>
  );
  if (!answer) return <Interactive>{button}</Interactive>;
  return (
    <Interactive>
      <BlockStack gap="050">
        {answer.ok ? (
          <>
            <Text as="span" fontWeight="semibold">
              {answer.price === null
                ? t("send:quote.noPrice")
                : answer.currency === "KWD" || answer.currency === null
                  ? formatKwd(answer.price, language)
                  : `${answer.price} ${answer.currency}`}
            </Text>
            <Text as="span" tone="subdued" variant="bodySm">
              {t(answer.basis.weightKnown ? "send:quote.weight" : "send:quote.defaultWeight", {
                kg: answer.basis.weightKg,
              })}
              {" · "}
              {answer.basis.cashOnDelivery
                ? t("send:quote.collect", { amount: formatKwd(answer.basis.value, language) })
                : t("send:quote.declared", { amount: formatKwd(answer.basis.value, language) })}
            </Text>
            <Text as="span" tone="subdued" variant="bodySm">
              <bdi translate="no">{answer.basis.pickupName}</bdi>
              {answer.basis.pickupArea && ` (${areaName(answer.basis.pickupArea, language)})`}
              {` ${t("send:quote.arrow")} `}
              {answer.basis.area[language]}
            </Text>
          </>
        ) : (
          <Text as="span" tone="caution" variant="bodySm">
            <span dir="auto">{say(answer.error)}</span>
          </Text>
        )}
        <InlineStack>{button}</InlineStack>
      </BlockStack>
    </Interactive>
  );
}

/** A country's name in the page's language ("SA" → "Saudi Arabia" / "المملكة العربية السعودية"). */
function countryName(code: string, language: "en" | "ar"): string {
  try {
    return new Intl.DisplayNames([language], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** A row's buttons and links act on their own: a click on them does not select the row. */
function Interactive({ children }: { children: React.ReactNode }) {
  return (
    <div
      style={{ whiteSpace: "normal", textAlign: "start" }}
      onClick={(event) => event.stopPropagation()}
    >
      {children}
    </div>
  );
}

/** Table cells do not wrap their text; these words do, inside their row. */
function Wraps({ children }: { children: React.ReactNode }) {
  return <div style={{ whiteSpace: "normal", textAlign: "start", minWidth: 0 }}>{children}</div>;
}

/** What became of an order once sent, in words that wrap inside the row. */
export function OrderOutcome({ outcome }: { outcome: RowOutcome | undefined }) {
  const { t, i18n } = useTranslation(["send"]);
  const language = useLanguage();
  const say = useNotice();
  if (!outcome) return null;
  if (outcome.phase === "queued")
    return (
      <Text as="span" tone="subdued">
        {t("send:outcome.queued")}
      </Text>
    );
  if (outcome.phase === "sending")
    return (
      <InlineStack gap="100" blockAlign="center">
        <Spinner size="small" accessibilityLabel={t("send:outcome.sending")} />
        <Text as="span">{t("send:outcome.sending")}</Text>
      </InlineStack>
    );
  const progress = progressOf(outcome);
  const { text, number, reason } =
    outcome.phase === "refused"
      ? { text: null, number: null, reason: say(outcome.message) }
      : outcomeWords(t, outcome.status);
  // A recorded reason in the page's language (reasonOnPage); a refusal's notice as it is.
  const shownReason =
    typeof reason === "string" && outcome.phase !== "refused"
      ? reasonOnPage(t, (key) => i18n.exists(key), language, outcome.status?.state ?? "", reason)
      : typeof reason === "string"
        ? translateMessage(t, reason)
        : reason;
  // The courier's number is data: it stays as written, in its own direction.
  const words = number ? (
    <>
      {text} <bdi translate="no">{number}</bdi>
    </>
  ) : (
    text
  );
  return (
    <BlockStack gap="100">
      <InlineStack>
        <Badge tone={TONE[progress]}>{t(`send:progress.${progress}`)}</Badge>
      </InlineStack>
      {text &&
        (outcome.deliveryId ? (
          <RemixLink to={`/app/deliveries/${outcome.deliveryId}`}>
            <Text as="span" breakWord>
              {words}
            </Text>
          </RemixLink>
        ) : (
          <Text as="span" breakWord>
            {words}
          </Text>
        ))}
      {shownReason && (
        <Text as="span" tone="subdued" variant="bodySm" breakWord>
          <span dir="auto">{shownReason}</span>
        </Text>
      )}
      {!text && outcome.deliveryId && (
        <RemixLink to={`/app/deliveries/${outcome.deliveryId}`}>{t("send:outcome.open")}</RemixLink>
      )}
    </BlockStack>
  );
}

function outcomeWords(
  t: TFunction,
  status: SendStatus | null,
): { text: string; number: string | null; reason: string | null } {
  const words = (text: string, reason: string | null = null) => ({ text, number: null, reason });
  if (!status) return words(t("send:outcome.fulfilled"));
  const reason = status.reason;
  switch (status.progress) {
    case "created":
      return {
        text: t("send:outcome.created"),
        number: status.courierOrderNumber ?? "?",
        reason: null,
      };
    case "rejected":
    case "needs_address":
    case "needs_review":
    case "needs_attention":
    case "not_sent":
    case "cancelled":
      return words(t(`send:outcome.${status.progress}`), reason);
    default:
      switch (status.state) {
        case "pending":
          return words(
            status.fulfilled ? t("send:outcome.preparing") : t("send:outcome.confirming"),
          );
        case "ready":
          return words(t("send:outcome.ready"));
        case "creating":
          return words(t("send:outcome.creating"));
        case "unknown":
          return words(t("send:outcome.checking"));
        default:
          return words(t(`common:states.${status.state}`));
      }
  }
}
