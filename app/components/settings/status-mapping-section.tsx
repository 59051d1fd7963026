import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  FormLayout,
  InlineStack,
  Select,
  Text,
} from "@shopify/polaris";
import { useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { SHOPIFY_EVENT_STATUSES, TRACKED_STATES } from "../../domain/courier-status";
import type { SettingsPageData } from "../../pages/settings.server";
import { useLanguage } from "../../i18n/language";
import { AnnotatedSection } from "../annotated-section";

export type Choice = { state: string; shopify: string };

/** "“<status>” in the app": the courier's word marked as data, the sentence in the page's words. */
function StatusLabel(props: { i18nKey: "mapping.inApp" | "mapping.onShopify"; status: string }) {
  const { t } = useTranslation("settings");
  return (
    <Trans
      t={t}
      i18nKey={props.i18nKey}
      values={{ status: props.status }}
      components={{ data: <span dir="auto" translate="no" /> }}
    />
  );
}

/**
 * A courier status as the merchant reads it: the courier's own name for it, or, for a status
 * met in tracking before the courier named it, its code as words ("out_for_delivery" → "out for
 * delivery"), never the raw code.
 */
function statusName(m: { code: string; name: string | null }): string {
  return m.name ?? m.code.replace(/[_-]+/g, " ").trim();
}

export function StatusMappingSection(props: {
  tracking: SettingsPageData["tracking"];
  choices: Record<string, Choice>;
  onChange: (code: string, choice: Choice) => void;
}) {
  const { tracking, choices, onChange } = props;
  const { t } = useTranslation("settings");
  const language = useLanguage();
  const unmapped = tracking.mappings.filter((m) => !m.state);
  // Ten statuses with two choices each made Settings very tall: they stay folded behind a
  // one-line summary unless one needs the merchant (no meaning yet, or unreadable).
  const needsMerchant = tracking.mappings.some((m) => !m.state || m.problem);
  const [open, setOpen] = useState(needsMerchant);
  const shown = open || needsMerchant;
  const yours = tracking.mappings.filter((m) => m.source === "merchant").length;
  const stateChoices = [
    { label: t("mapping.notMapped"), value: "" },
    ...TRACKED_STATES.map((state) => ({ label: t(`common:states.${state}`), value: state })),
    { label: t("mapping.unchanged"), value: "unchanged" },
  ];
  const shopifyChoices = [
    { label: t("mapping.noShopifyEvent"), value: "" },
    ...SHOPIFY_EVENT_STATUSES.map((status) => ({
      label: t(`shopifyStatus.${status}`),
      value: status,
    })),
  ];
  return (
    <AnnotatedSection title={t("mapping.title")} description={t("mapping.description")}>
      <Card>
        <BlockStack gap="300">
          {unmapped.length > 0 && (
            <Banner tone="warning" title={t("mapping.unmappedTitle")}>
              <span dir="auto" translate="no">
                {unmapped.map(statusName).join(language === "ar" ? "، " : ", ")}
              </span>{" "}
              {t("mapping.unmappedBody")}
            </Banner>
          )}
          {tracking.mappings.length === 0 ? (
            <Text as="p" tone="subdued">
              {t("mapping.none")}
            </Text>
          ) : (
            <InlineStack gap="200" align="space-between" blockAlign="center">
              <Text as="p" id="status-mapping-summary">
                {t("mapping.summary", { total: tracking.mappings.length, yours })}
              </Text>
              {!needsMerchant && (
                <Button
                  variant="plain"
                  onClick={() => setOpen(!open)}
                  ariaExpanded={shown}
                  ariaControls="status-mapping-rows"
                >
                  {shown ? t("mapping.hide") : t("mapping.show")}
                </Button>
              )}
            </InlineStack>
          )}
          {!shown &&
            // Folded, the choices still go with the save bar's form (an edit made before folding).
            tracking.mappings.map((m) => {
              const choice = choices[m.code] ?? { state: "", shopify: "" };
              return (
                <span key={m.code} hidden>
                  <input type="hidden" name={`state:${m.code}`} value={choice.state} />
                  <input type="hidden" name={`shopify:${m.code}`} value={choice.shopify} />
                </span>
              );
            })}
          {shown && tracking.mappings.length > 0 && (
            <div id="status-mapping-rows">
              <BlockStack gap="400">
                {tracking.mappings.map((m) => {
                  const choice = choices[m.code] ?? { state: "", shopify: "" };
                  return (
                    <div key={m.code} data-status={m.code}>
                      <BlockStack gap="200">
                        <InlineStack gap="200" blockAlign="center">
                          <Text as="span" variant="bodyMd" fontWeight="semibold">
                            <span dir="auto" translate="no">
                              {statusName(m)}
                            </span>
                          </Text>
                          {!m.state ? (
                            <Badge tone="critical">{t("mapping.notMapped")}</Badge>
                          ) : m.source === "merchant" ? (
                            <Badge tone="info">{t("mapping.yourChoice")}</Badge>
                          ) : null}
                        </InlineStack>
                        {m.problem && (
                          <Text as="p" tone="critical" variant="bodySm">
                            {t("mapping.unreadable")}
                          </Text>
                        )}
                        {/* Not condensed: on a phone the two choices stack instead of being cut. */}
                        <FormLayout>
                          <FormLayout.Group>
                            <Select
                              label={<StatusLabel i18nKey="mapping.inApp" status={statusName(m)} />}
                              name={`state:${m.code}`}
                              options={stateChoices}
                              value={choice.state}
                              onChange={(state) => onChange(m.code, { ...choice, state })}
                            />
                            <Select
                              label={
                                <StatusLabel i18nKey="mapping.onShopify" status={statusName(m)} />
                              }
                              name={`shopify:${m.code}`}
                              options={shopifyChoices}
                              value={choice.shopify}
                              onChange={(shopify) => onChange(m.code, { ...choice, shopify })}
                            />
                          </FormLayout.Group>
                        </FormLayout>
                      </BlockStack>
                    </div>
                  );
                })}
              </BlockStack>
            </div>
          )}
        </BlockStack>
      </Card>
    </AnnotatedSection>
  );
}
