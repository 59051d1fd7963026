import { BlockStack, Box, Button, Card, Collapsible, Text } from "@shopify/polaris";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { DeliveryPageData } from "../../pages/delivery.server";

/**
 * What support and the merchant's developer may need, collapsed by default: the reference the
 * courier's history is searched by, the request as sent, the matcher's notes and the timeline as
 * recorded. These are records, not sentences for the page: shown as written (English, codes).
 */
export function TechnicalDetails(props: { technical: DeliveryPageData["technical"] }) {
  const { t } = useTranslation("delivery");
  const [open, setOpen] = useState(false);
  const { technical } = props;
  const row = (label: string, value: ReactNode) =>
    value === null || value === "" ? null : (
      <Text as="p" breakWord>
        {label}:{" "}
        <bdi translate="no" lang="en">
          {value}
        </bdi>
      </Text>
    );
  return (
    <Card>
      <BlockStack gap="200">
        <div>
          <Button
            variant="plain"
            disclosure={open ? "up" : "down"}
            onClick={() => setOpen(!open)}
            ariaExpanded={open}
            ariaControls="technical-details"
          >
            {open ? t("technical.hide") : t("technical.show")}
          </Button>
        </div>
        {/* A record, in English as written; the Arabic check leaves it out (ADR 0043, 0045). */}
        <Collapsible id="technical-details" open={open}>
          <div data-technical-record="">
            <BlockStack gap="200">
              <Text as="h2" variant="headingSm">
                {t("technical.title")}
              </Text>
              {row(t("technical.reference"), technical.reference)}
              {row(
                t("technical.environment"),
                technical.environment === "production"
                  ? t("technical.production")
                  : t("technical.sandbox"),
              )}
              {row(t("technical.attempts"), String(technical.attempts))}
              {row(t("technical.courierOrderId"), technical.courierOrderId)}
              {row(t("technical.courierStatus"), technical.courierStatus)}
              {row(t("technical.reason"), technical.stateReason)}
              {row(t("technical.lastError"), technical.lastError)}
              {technical.matchNotes.length > 0 && (
                <BlockStack gap="100">
                  <Text as="h3" variant="headingXs">
                    {t("technical.notes")}
                  </Text>
                  <ul translate="no" lang="en" dir="ltr" style={{ margin: 0 }}>
                    {technical.matchNotes.map((note, i) => (
                      <li key={i}>{note}</li>
                    ))}
                  </ul>
                </BlockStack>
              )}
              <BlockStack gap="100">
                <Text as="h3" variant="headingXs">
                  {t("technical.request")}
                </Text>
                {technical.request ? (
                  <Box overflowX="scroll">
                    <pre
                      translate="no"
                      lang="en"
                      dir="ltr"
                      style={{
                        whiteSpace: "pre-wrap",
                        fontSize: 12,
                        margin: 0,
                        wordBreak: "break-word",
                      }}
                    >
                      {JSON.stringify(technical.request, null, 2)}
                    </pre>
                  </Box>
                ) : technical.requestProblem ? (
                  <Text as="p" tone="caution">
                    {t("technical.requestUnreadable")}{" "}
                    <bdi translate="no" lang="en">
                      {technical.requestProblem}
                    </bdi>
                  </Text>
                ) : (
                  <Text as="p">—</Text>
                )}
              </BlockStack>
              <BlockStack gap="100">
                <Text as="h3" variant="headingXs">
                  {t("technical.log")}
                </Text>
                <ul translate="no" lang="en" dir="ltr" style={{ margin: 0 }}>
                  {technical.timeline.map((entry) => (
                    <li key={entry.id}>
                      <code>{entry.kind}</code> {entry.message}
                    </li>
                  ))}
                </ul>
              </BlockStack>
            </BlockStack>
          </div>
        </Collapsible>
      </BlockStack>
    </Card>
  );
}
