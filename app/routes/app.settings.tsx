import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { SaveBar, useAppBridge } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Page } from "@shopify/polaris";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  AreasSection,
  ConnectionSection,
  DetailText,
  errorText,
  successMessage,
} from "../components/settings/connection-sections";
import {
  DeliveryOptionsSection,
  TrackingPageSection,
  type SettingsFormValues,
} from "../components/settings/form-sections";
import { AskCustomersSection } from "../components/settings/ask-customers-section";
import { keepEdits } from "../components/settings/keep-edits";
import { PushSection } from "../components/settings/push-section";
import { StatusMappingSection } from "../components/settings/status-mapping-section";
import { ShopifyAccessLostBanner } from "../components/shopify-access-lost-banner";
import {
  answerSettingsForm,
  loadSettingsPage,
  type SettingsActionResult,
  type SettingsPageData,
} from "../pages/settings.server";
import {
  answerWhatsAppForm,
  isWhatsAppIntent,
  loadWhatsAppSection,
  type WhatsAppActionResult,
} from "../actions/whatsapp-settings.server";
import { WhatsAppSection } from "../components/settings/whatsapp-section";
import {
  answerCheckoutRatesForm,
  isCheckoutRatesIntent,
  loadCheckoutRatesSection,
  type CheckoutRatesActionResult,
} from "../pages/checkout-rates-settings.server";
import { CheckoutRatesSection } from "../components/settings/checkout-rates-section";
import { shopDisplayName } from "../extension-api/orders.server";
import { authenticate } from "../shopify.server";

/**
 * Settings: the courier connection and areas (each its own form), one form of every setting
 * saved from App Bridge's contextual save bar, and the courier's status pushes. What it reads
 * and does is app/pages/settings.server.ts; its sections are app/components/settings/.
 */

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const [page, whatsapp, checkoutRates] = await Promise.all([
    loadSettingsPage(session.shop),
    loadWhatsAppSection(session.shop),
    loadCheckoutRatesSection(session.shop),
  ]);
  // Shopify's name for the store, read once and kept, as the tracking page's name by default.
  const shopifyShopName =
    page.shopifyShopName ??
    (page.trackingPage.shopName ? null : await shopDisplayName(session.shop, admin));
  return { ...page, shopifyShopName, whatsapp, checkoutRates };
};

export type { SettingsActionResult };

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const fields = Object.fromEntries(await request.formData());
  const outcome = isWhatsAppIntent(fields.intent)
    ? await answerWhatsAppForm(session.shop, fields)
    : isCheckoutRatesIntent(fields.intent)
      ? await answerCheckoutRatesForm(session.shop, fields, admin)
      : await answerSettingsForm(session.shop, fields);
  return Response.json(outcome, { status: outcome.ok ? 200 : 400 });
};

/** The values of the one settings form, as the page edits them. */
function formValues(data: SettingsPageData): SettingsFormValues {
  return {
    ...data.deliveryOptions,
    preparationMinutes: String(data.deliveryOptions.preparationMinutes),
    markPaidWhen: data.tracking.markPaidWhen,
    trackingShopName: data.trackingPage.shopName ?? "",
    trackingContactPhone: data.trackingPage.phone ?? "",
    trackingContactEmail: data.trackingPage.email ?? "",
    askShoppers: data.askCustomers.addresses,
    askCashConfirmation: data.askCustomers.cash,
    resendOnRescueAnswer: data.askCustomers.resendOnAnswer,
    askWindowHours: String(data.askCustomers.windowHours),
    mappings: Object.fromEntries(
      data.tracking.mappings.map((m) => [
        m.code,
        { state: m.state ?? "", shopify: m.shopifyStatus ?? "" },
      ]),
    ),
  };
}

export default function Settings() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<
    SettingsActionResult | WhatsAppActionResult | CheckoutRatesActionResult
  >();
  // The WhatsApp and checkout-rates sections say their own outcomes; the rest of the page reads
  // the other forms'.
  const section = actionData && "section" in actionData ? actionData.section : null;
  const whatsAppResult = section === "whatsapp" ? (actionData as WhatsAppActionResult) : undefined;
  const ratesResult =
    section === "checkoutRates" ? (actionData as CheckoutRatesActionResult) : undefined;
  const result = actionData && section === null ? (actionData as SettingsActionResult) : undefined;
  const navigation = useNavigation();
  const submit = useSubmit();
  const shopify = useAppBridge();
  const { t } = useTranslation("settings");
  const busyIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const saved = useMemo(() => formValues(data), [data]);
  const [values, setValues] = useState(saved);
  // When the page's data reloads (a save, or another form such as Test connection), untouched
  // fields show what is stored and an unsaved edit stays (components/settings/keep-edits.ts).
  const storedBefore = useRef(saved);
  useEffect(() => {
    const previous = storedBefore.current;
    storedBefore.current = saved;
    setValues((current) => keepEdits(current, previous, saved));
  }, [saved]);
  const dirty = JSON.stringify(values) !== JSON.stringify(saved);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (result?.ok) shopify.toast.show(successMessage(t, result));
  }, [result, shopify, t]);
  useEffect(() => {
    if (whatsAppResult?.ok) shopify.toast.show(t(`whatsapp.done.${whatsAppResult.done}`));
  }, [whatsAppResult, shopify, t]);
  useEffect(() => {
    if (ratesResult?.ok) shopify.toast.show(t(`checkoutRates.done.${ratesResult.done}`));
  }, [ratesResult, shopify, t]);

  const error = result && !result.ok ? errorText(t, result) : null;
  const set =
    <K extends keyof SettingsFormValues>(key: K) =>
    (value: SettingsFormValues[K]) =>
      setValues((v) => ({ ...v, [key]: value }));

  return (
    <Page title={t("title")} backAction={{ url: "/app", content: t("common:nav.home") }}>
      <SaveBar id="settings-save-bar" open={dirty}>
        <button
          variant="primary"
          onClick={() => submit(formRef.current)}
          loading={busyIntent === "save" ? "" : undefined}
        >
          {t("common:actions.save")}
        </button>
        <button onClick={() => setValues(saved)}>{t("common:actions.discard")}</button>
      </SaveBar>
      <BlockStack gap="400">
        {data.shopifyAccessLost !== null && (
          <ShopifyAccessLostBanner reason={data.shopifyAccessLost} />
        )}
        {error && (
          <Banner tone="critical" title={error.title}>
            {error.detail && <DetailText text={error.detail} />}
          </Banner>
        )}
        <ConnectionSection
          data={data}
          result={result}
          busyIntent={busyIntent}
          error={error !== null}
        />
        <AreasSection
          masterData={data.masterData}
          hasKey={data.key !== null}
          busyIntent={busyIntent}
        />
        <Form method="post" id="settings-form" ref={formRef} style={{ display: "contents" }}>
          <input type="hidden" name="intent" value="save" />
          <DeliveryOptionsSection values={values} set={set} />
          <TrackingPageSection values={values} set={set} shopifyName={data.shopifyShopName} />
          <AskCustomersSection
            values={values}
            set={set}
            windowError={
              result &&
              !result.ok &&
              "errorKey" in result &&
              /^errors\.askWindow/.test(result.errorKey)
                ? t(result.errorKey)
                : null
            }
          />
          <StatusMappingSection
            tracking={data.tracking}
            choices={values.mappings}
            onChange={(code, choice) =>
              setValues((v) => ({ ...v, mappings: { ...v.mappings, [code]: choice } }))
            }
          />
        </Form>
        <PushSection push={data.tracking.push} busyIntent={busyIntent} />
        <CheckoutRatesSection
          rates={data.checkoutRates}
          result={ratesResult}
          busyIntent={busyIntent}
        />
        <WhatsAppSection
          whatsapp={data.whatsapp}
          shopName={data.trackingPage.shopName}
          result={whatsAppResult}
          busyIntent={busyIntent}
        />
      </BlockStack>
    </Page>
  );
}
