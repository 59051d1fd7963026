import { Badge, BlockStack, Card, InlineGrid, InlineStack, Text } from "@shopify/polaris";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { OrderMessage } from "../../models/shopper-message-status.server";
import { formatDateTime } from "../../i18n/format";
import type { Language } from "../../i18n/config";
import { useLanguage } from "../../i18n/language";

/** Meta's failure codes the catalog says in words; another code shows Meta's own text. */
const KNOWN_FAILURES = new Set([131026, 131049, 131050, 131047, 131051, 132001, 132015, 132016]);

const TONES = {
  read: "success",
  delivered: "success",
  sent: "info",
  failed: "critical",
  skipped: undefined,
  queued: "attention",
  sending: "attention",
  unconfirmed: "attention",
} as const;

/**
 * The order's WhatsApp messages to the customer (issue 27): what each was for, when, and what
 * became of it (delivered, read, failed and why, not sent and why, waiting for the morning).
 */
export function WhatsAppMessagesCard(props: { messages: readonly OrderMessage[] }) {
  const { t } = useTranslation("delivery");
  const language = useLanguage();
  if (props.messages.length === 0) return null;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("whatsapp.title")}
        </Text>
        <BlockStack as="ol" gap="300">
          {props.messages.map((message) => (
            <li key={message.id} data-whatsapp-message={message.state}>
              <InlineGrid columns={{ xs: 1, sm: "11rem 1fr" }} gap="100">
                <Text as="span" tone="subdued" variant="bodySm">
                  <time dateTime={message.createdAt}>
                    {formatDateTime(message.createdAt, language)}
                  </time>
                </Text>
                <BlockStack gap="100">
                  <InlineStack gap="200" blockAlign="center" wrap>
                    <Text as="p" fontWeight="semibold">
                      {t(`whatsapp.purpose.${message.purpose}`)}
                    </Text>
                    <Badge tone={TONES[message.state]}>
                      {t(`whatsapp.state.${message.state}`)}
                    </Badge>
                  </InlineStack>
                  <Text as="p" tone={message.state === "failed" ? "critical" : "subdued"} breakWord>
                    {statusLine(t, language, message)}
                  </Text>
                </BlockStack>
              </InlineGrid>
            </li>
          ))}
        </BlockStack>
      </BlockStack>
    </Card>
  );
}

function statusLine(t: TFunction, language: Language, message: OrderMessage): string {
  const at = (value: string | null) => (value ? formatDateTime(value, language) : "");
  const written = t(`whatsapp.language.${message.language === "ar" ? "ar" : "en"}`);
  switch (message.state) {
    case "read":
      return t("whatsapp.line.read", { at: at(message.readAt), written });
    case "delivered":
      return t("whatsapp.line.delivered", { at: at(message.deliveredAt), written });
    case "sent":
      return t("whatsapp.line.sent", { at: at(message.sentAt), written });
    case "failed":
      return t("whatsapp.line.failed", {
        at: at(message.failedAt),
        reason:
          message.failureCode !== null && KNOWN_FAILURES.has(message.failureCode)
            ? t(`whatsapp.failure.${message.failureCode}`)
            : (message.lastError ?? t("whatsapp.failure.unknown")),
      });
    case "skipped":
      return t(`whatsapp.skipped.${message.skipReason ?? "unknown"}`);
    case "queued":
      return message.waitingUntil
        ? t("whatsapp.line.waitingMorning", { at: at(message.waitingUntil) })
        : t("whatsapp.line.queued");
    case "unconfirmed":
      return t("whatsapp.line.unconfirmed");
    default:
      return t("whatsapp.line.sending");
  }
}
