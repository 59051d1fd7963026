import { BlockStack, Card, Checkbox, FormLayout, Select, TextField } from "@shopify/polaris";
import { useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import {
  paymentCodeChoice,
  paymentCodeFor,
  type PaymentCodeChoice,
  type PaymentKind,
} from "../../domain/payment-codes";
import { AnnotatedSection } from "../annotated-section";

/** Settings' sections inside the one form the save bar saves: delivery options, tracking page. */

const MARK_PAID_WHEN = ["delivered", "settled", "never"] as const;

export interface SettingsFormValues {
  autoSend: boolean;
  notifyCustomer: boolean;
  markPaidWhen: (typeof MARK_PAID_WHEN)[number];
  paymentCodeCod: string;
  paymentCodePrepaid: string;
  preparationMinutes: string;
  trackingShopName: string;
  trackingContactPhone: string;
  trackingContactEmail: string;
  mappings: Record<string, { state: string; shopify: string }>;
  askShoppers: boolean;
  askCashConfirmation: boolean;
  resendOnRescueAnswer: boolean;
  askWindowHours: string;
}

export type Setter = <K extends keyof SettingsFormValues>(
  key: K,
) => (value: SettingsFormValues[K]) => void;

export function DeliveryOptionsSection(props: { values: SettingsFormValues; set: Setter }) {
  const { values, set } = props;
  const { t } = useTranslation("settings");
  return (
    <AnnotatedSection title={t("deliveries.title")} description={t("deliveries.description")}>
      <Card>
        <BlockStack gap="400">
          <Checkbox
            label={t("deliveries.autoSend")}
            name="autoSend"
            checked={values.autoSend}
            onChange={set("autoSend")}
          />
          <FormLayout>
            <FormLayout.Group>
              <PaymentCodeField
                kind="cod"
                name="paymentCodeCod"
                value={values.paymentCodeCod}
                onChange={set("paymentCodeCod")}
              />
              <PaymentCodeField
                kind="prepaid"
                name="paymentCodePrepaid"
                value={values.paymentCodePrepaid}
                onChange={set("paymentCodePrepaid")}
              />
            </FormLayout.Group>
            <TextField
              label={t("deliveries.preparation")}
              name="preparationMinutes"
              type="number"
              min={0}
              value={values.preparationMinutes}
              onChange={set("preparationMinutes")}
              autoComplete="off"
            />
          </FormLayout>
          <Checkbox
            label={t("deliveries.notifyCustomer")}
            name="notifyCustomer"
            checked={values.notifyCustomer}
            onChange={set("notifyCustomer")}
          />
          <Select
            label={t("deliveries.markPaidWhen.label")}
            helpText={t("deliveries.markPaidWhen.help")}
            name="markPaidWhen"
            options={MARK_PAID_WHEN.map((when) => ({
              label: t(`deliveries.markPaidWhen.${when}`),
              value: when,
            }))}
            value={values.markPaidWhen}
            onChange={(value) => {
              const when = MARK_PAID_WHEN.find((w) => w === value);
              if (when) set("markPaidWhen")(when);
            }}
          />
        </BlockStack>
      </Card>
    </AnnotatedSection>
  );
}

/**
 * How the courier is told who pays, chosen in words; a code is typed only when the courier gave
 * another one (domain/payment-codes.ts). The form sends the code itself.
 */
function PaymentCodeField(props: {
  kind: PaymentKind;
  name: string;
  value: string;
  onChange: (code: string) => void;
}) {
  const { kind, name, value, onChange } = props;
  const { t } = useTranslation("settings");
  const stored = paymentCodeChoice(kind, value);
  // "Another code" chosen with nothing typed yet still shows the field to type it in.
  const [typing, setTyping] = useState(false);
  const choice: PaymentCodeChoice = stored === "none" && typing ? "other" : stored;
  return (
    <BlockStack gap="200">
      <Select
        label={t(`deliveries.payment.${kind}.label`)}
        helpText={choice === "standard" ? t(`deliveries.payment.${kind}.help`) : undefined}
        options={[
          { label: t(`deliveries.payment.${kind}.standard`), value: "standard" },
          { label: t("deliveries.payment.other"), value: "other" },
          { label: t("deliveries.payment.none"), value: "none" },
        ]}
        value={choice}
        onChange={(next) => {
          const picked = next as PaymentCodeChoice;
          setTyping(picked === "other");
          onChange(paymentCodeFor(kind, picked, value));
        }}
      />
      {choice === "other" ? (
        <TextField
          label={t("deliveries.payment.otherCode")}
          helpText={t("deliveries.payment.otherHelp")}
          name={name}
          value={value}
          onChange={onChange}
          autoComplete="off"
        />
      ) : (
        <input type="hidden" name={name} value={value} />
      )}
    </BlockStack>
  );
}

export function TrackingPageSection(props: {
  values: SettingsFormValues;
  set: Setter;
  /** The store's name on Shopify, shown to customers while the field is empty. */
  shopifyName: string | null;
}) {
  const { values, set, shopifyName } = props;
  const { t } = useTranslation("settings");
  return (
    <AnnotatedSection title={t("trackingPage.title")} description={t("trackingPage.description")}>
      <Card>
        <FormLayout>
          <TextField
            label={t("trackingPage.shopName")}
            name="trackingShopName"
            value={values.trackingShopName}
            onChange={set("trackingShopName")}
            autoComplete="organization"
            placeholder={shopifyName ?? undefined}
            helpText={
              shopifyName ? (
                <Trans
                  t={t}
                  i18nKey="trackingPage.shopNameHelp"
                  values={{ name: shopifyName }}
                  components={{ data: <span dir="auto" translate="no" /> }}
                />
              ) : (
                t("trackingPage.shopNameHelpUnknown")
              )
            }
          />
          <FormLayout.Group>
            <TextField
              label={t("trackingPage.phone")}
              name="trackingContactPhone"
              type="tel"
              value={values.trackingContactPhone}
              onChange={set("trackingContactPhone")}
              autoComplete="tel"
            />
            <TextField
              label={t("trackingPage.email")}
              name="trackingContactEmail"
              type="email"
              value={values.trackingContactEmail}
              onChange={set("trackingContactEmail")}
              autoComplete="email"
            />
          </FormLayout.Group>
        </FormLayout>
      </Card>
    </AnnotatedSection>
  );
}
