import { BlockStack, Card, Checkbox, FormLayout, Select, TextField } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
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
              <TextField
                label={t("deliveries.codeCod")}
                name="paymentCodeCod"
                value={values.paymentCodeCod}
                onChange={set("paymentCodeCod")}
                autoComplete="off"
              />
              <TextField
                label={t("deliveries.codePrepaid")}
                name="paymentCodePrepaid"
                value={values.paymentCodePrepaid}
                onChange={set("paymentCodePrepaid")}
                autoComplete="off"
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

export function TrackingPageSection(props: { values: SettingsFormValues; set: Setter }) {
  const { values, set } = props;
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
