import { BlockStack, Box, Card, InlineGrid, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import type { DeliveryPageData } from "../../pages/delivery.server";
import { formatDateTime } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import { RefusedFields } from "./refused-fields";
import { useSentence } from "./sentence";

/**
 * The timeline in sentences, oldest first: each entry's kind and data through the catalog
 * (ADR 0043), and the courier's own words, when it sent any, quoted as data beneath.
 */
export function DeliveryTimeline(props: { events: DeliveryPageData["events"] }) {
  const { t } = useTranslation("delivery");
  const language = useLanguage();
  const say = useSentence();
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("timeline.title")}
        </Text>
        <BlockStack as="ol" gap="300">
          {props.events.map((event) => (
            <li key={event.id}>
              <InlineGrid columns={{ xs: 1, sm: "11rem 1fr" }} gap="100">
                <Text as="span" tone="subdued" variant="bodySm">
                  <time dateTime={event.at}>{formatDateTime(event.at, language)}</time>
                </Text>
                <BlockStack gap="100">
                  <Text as="p" breakWord>
                    {say(event.sentence)}
                  </Text>
                  {event.refused.length > 0 && <RefusedFields fields={event.refused} compact />}
                  {event.refused.length === 0 && event.courierSaid && (
                    <Box>
                      <Text as="p" tone="subdued" variant="bodySm" breakWord>
                        {t("timeline.courierSaid")} <bdi translate="no">“{event.courierSaid}”</bdi>
                      </Text>
                    </Box>
                  )}
                </BlockStack>
              </InlineGrid>
            </li>
          ))}
        </BlockStack>
      </BlockStack>
    </Card>
  );
}
