import { Link as RemixLink } from "@remix-run/react";
import { BlockStack, Card, Checkbox, Text, TextField } from "@shopify/polaris";
import { Trans, useTranslation } from "react-i18next";
import { AnnotatedSection } from "../annotated-section";
import type { Setter, SettingsFormValues } from "./form-sections";

/**
 * Settings' "Ask customers" (issue 26): when the app holds an order in Shopify and asks its
 * customer, and for how long. Inside the one form the save bar saves.
 */
export function AskCustomersSection(props: {
  values: SettingsFormValues;
  set: Setter;
  /** The save's refusal of the window, in words, shown on the field. */
  windowError: string | null;
}) {
  const { values, set } = props;
  const { t } = useTranslation("settings");
  return (
    <AnnotatedSection title={t("askCustomers.title")} description={t("askCustomers.description")}>
      <Card>
        <BlockStack gap="400">
          <Checkbox
            label={t("askCustomers.addresses")}
            helpText={t("askCustomers.addressesHelp")}
            name="askShoppers"
            checked={values.askShoppers}
            onChange={set("askShoppers")}
          />
          <Checkbox
            label={t("askCustomers.cash")}
            helpText={t("askCustomers.cashHelp")}
            name="askCashConfirmation"
            checked={values.askCashConfirmation}
            onChange={set("askCashConfirmation")}
          />
          <Checkbox
            label={t("askCustomers.resendOnAnswer")}
            helpText={t("askCustomers.resendOnAnswerHelp")}
            name="resendOnRescueAnswer"
            checked={values.resendOnRescueAnswer}
            onChange={set("resendOnRescueAnswer")}
          />
          <div style={{ maxWidth: "22rem" }}>
            <TextField
              label={t("askCustomers.window")}
              name="askWindowHours"
              type="number"
              min={1}
              max={168}
              inputMode="numeric"
              suffix={t("askCustomers.windowSuffix")}
              helpText={t("askCustomers.windowHelp")}
              value={values.askWindowHours}
              onChange={set("askWindowHours")}
              error={props.windowError ?? undefined}
              autoComplete="off"
            />
          </div>
          <Text as="p" tone="subdued">
            <Trans
              t={t}
              i18nKey="askCustomers.linkHelp"
              components={{ answers: <RemixLink to="/app/customer-answers" /> }}
            />
          </Text>
        </BlockStack>
      </Card>
    </AnnotatedSection>
  );
}
