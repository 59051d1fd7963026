import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { SaveBar, useAppBridge } from "@shopify/app-bridge-react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  Checkbox,
  ChoiceList,
  FormLayout,
  InlineStack,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import type { TFunction } from "i18next";
import { useEffect, useMemo, useRef, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { AnnotatedSection } from "../components/annotated-section";
import { ShopifyAccessLostBanner } from "../components/shopify-access-lost-banner";
import { getShopifyAccess } from "../models/shopify-access.server";
import { z } from "zod";
import { env } from "../env.server";
import { formatDateTime } from "../i18n/format";
import { useLanguage } from "../i18n/language";
import { translateMessage } from "../i18n/messages";
import { getCachedMasterData, getCourierAccount } from "../models/courier-account.server";
import {
  connectCourier,
  disconnectCourier,
  refreshCourierMasterData,
  type ConnectionOutcome,
} from "../services/courier-connection.server";
import { getShopSettings, saveDeliveryOptions } from "../models/shop.server";
import { readTrackingPageContact, saveTrackingPageContact } from "../models/tracking-page.server";
import {
  createPushCredentials,
  readPushCredentials,
  removePushCredentials,
} from "../models/push-credentials.server";
import { listStatusMappings, saveMarkCodPaid, saveStatusMappings } from "../models/tracking.server";
import {
  mappedStateSchema,
  SHOPIFY_EVENT_STATUSES,
  shopifyEventStatusSchema,
  TRACKED_STATES,
  type ShopifyEventStatus,
} from "../deliveries/domain/courier-status";
import { resumeDeliveriesAfterConnection } from "../deliveries/runner.server";
import { kickTrackingSync } from "../deliveries/drain-loop.server";
import { authenticate } from "../shopify.server";

const environmentField = z.enum(["sandbox", "production"], { error: "errors.environment" });

const checkbox = z
  .string()
  .optional()
  .transform((value) => value !== undefined);
const optionalText = (max: number, error: string) =>
  z
    .string()
    .trim()
    .max(max, error)
    .optional()
    .transform((value) => value || null);

/** The one form of everything that is a setting, saved from the save bar. */
const settingsForm = z.looseObject({
  intent: z.literal("save"),
  // A checked box is sent (Polaris sends an empty value), an unchecked one is not.
  autoSend: checkbox,
  notifyCustomer: checkbox,
  markCodPaid: checkbox,
  paymentCodeCod: optionalText(50, "errors.paymentCode"),
  paymentCodePrepaid: optionalText(50, "errors.paymentCode"),
  preparationMinutes: z.coerce
    .number({ error: "errors.preparationNumber" })
    .int("errors.preparationWhole")
    .min(0, "errors.preparationNegative")
    .max(10_080, "errors.preparationWeek"),
  trackingShopName: optionalText(100, "errors.shopName"),
  trackingContactPhone: optionalText(30, "errors.phone").refine(
    (value) => value === null || /^\+?[0-9 ]{6,20}$/.test(value),
    "errors.phone",
  ),
  trackingContactEmail: optionalText(200, "errors.email").refine(
    (value) => value === null || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value),
    "errors.email",
  ),
});

const settingsAction = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("connect"),
    courierEnvironment: environmentField,
    apiKey: z.string().optional(),
  }),
  z.object({ intent: z.literal("refresh-master-data") }),
  z.object({ intent: z.literal("remove-key") }),
  z.object({ intent: z.literal("push-on") }),
  z.object({ intent: z.literal("push-off") }),
  // Fields `state:<code>` and `shopify:<code>` per courier status, read by statusMappingForm.
  settingsForm,
]);

/** The mapping table's fields; an unknown choice names the status it was made for. */
function statusMappingForm(fields: Record<string, unknown>) {
  const entries: {
    code: string;
    state: z.infer<typeof mappedStateSchema> | null;
    shopifyStatus: ShopifyEventStatus | null;
  }[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (!key.startsWith("state:")) continue;
    const code = key.slice("state:".length);
    const state = value === "" ? null : mappedStateSchema.safeParse(value);
    const shopify = fields[`shopify:${code}`];
    const event =
      shopify === "" || shopify === undefined ? null : shopifyEventStatusSchema.safeParse(shopify);
    if (state && !state.success) return { error: "errors.mappingState", code };
    if (event && !event.success) return { error: "errors.mappingShopify", code };
    entries.push({
      code,
      state: state ? state.data : null,
      shopifyStatus: event ? event.data : null,
    });
  }
  return { entries };
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const account = await getCourierAccount(session.shop);
  const masterData = await getCachedMasterData(session.shop, account.environment);
  const settings = await getShopSettings(session.shop);
  const push = await readPushCredentials(session.shop);
  const mappings = await listStatusMappings(session.shop);
  const shopifyAccess = await getShopifyAccess(session.shop);
  return {
    shopifyAccessLost: shopifyAccess.lostAt ? (shopifyAccess.reason ?? "") : null,
    tracking: {
      markCodPaid: settings?.markCodPaid ?? false,
      push: push
        ? {
            url: `${env().SHOPIFY_APP_URL}/courier/webhooks/${push.token}`,
            secret: push.secret,
          }
        : null,
      mappings: mappings.map((m) => ({
        code: m.code,
        name: m.name,
        state: m.state,
        shopifyStatus: m.shopifyStatus,
        source: m.source,
        problem: m.problem,
        lastSeenAt: m.lastSeenAt?.toISOString() ?? null,
      })),
    },
    deliveryOptions: {
      autoSend: settings?.autoSend ?? false,
      notifyCustomer: settings?.notifyCustomer ?? true,
      paymentCodeCod: settings?.paymentCodeCod ?? "",
      paymentCodePrepaid: settings?.paymentCodePrepaid ?? "",
      preparationMinutes: settings?.preparationMinutes ?? 120,
    },
    trackingPage: await readTrackingPageContact(session.shop),
    courierEnvironment: account.environment,
    productionAvailable: Boolean(env().COURIER_PRODUCTION_URL),
    key: account.keyHint
      ? { hint: account.keyHint, setAt: account.keySetAt?.toISOString() ?? null }
      : null,
    lastCheck: account.checkedAt
      ? { at: account.checkedAt.toISOString(), error: account.checkError }
      : null,
    masterData: masterData
      ? {
          fetchedAt: masterData.fetchedAt.toISOString(),
          governances: masterData.governances.length,
          areas: masterData.areas.length,
        }
      : null,
  };
};

export type SettingsActionResult =
  | ConnectionOutcome
  | { ok: true; removed: true }
  | { ok: true; saved: "settings" | "push-on" | "push-off" | "master-data" }
  // A catalog key of the settings page, and what it names.
  | { ok: false; errorKey: string; code?: string };

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const parsed = settingsAction.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    const outcome: SettingsActionResult = {
      ok: false,
      errorKey: parsed.error.issues[0]?.message ?? "errors.form",
    };
    return Response.json(outcome, { status: 400 });
  }
  const form = parsed.data;
  let outcome: SettingsActionResult;
  if (form.intent === "connect") {
    outcome = await connectCourier({
      shop: session.shop,
      environment: form.courierEnvironment,
      apiKey: form.apiKey,
    });
    if (outcome.ok) await resumeDeliveriesAfterConnection(session.shop);
  } else if (form.intent === "save") {
    const mapping = statusMappingForm(form);
    if ("error" in mapping) {
      outcome = { ok: false, errorKey: mapping.error ?? "errors.form", code: mapping.code };
    } else {
      await saveDeliveryOptions(session.shop, {
        autoSend: form.autoSend,
        notifyCustomer: form.notifyCustomer,
        paymentCodeCod: form.paymentCodeCod,
        paymentCodePrepaid: form.paymentCodePrepaid,
        preparationMinutes: form.preparationMinutes,
      });
      await saveMarkCodPaid(session.shop, form.markCodPaid);
      await saveTrackingPageContact(session.shop, {
        shopName: form.trackingShopName,
        phone: form.trackingContactPhone,
        email: form.trackingContactEmail,
      });
      if (mapping.entries.length > 0) {
        const { deliveries } = await saveStatusMappings(session.shop, mapping.entries);
        if (deliveries > 0) kickTrackingSync();
      }
      outcome = { ok: true, saved: "settings" };
    }
  } else if (form.intent === "refresh-master-data") {
    const refreshed = await refreshCourierMasterData(session.shop);
    outcome = refreshed.ok ? { ok: true, saved: "master-data" } : refreshed;
  } else if (form.intent === "push-on") {
    await createPushCredentials(session.shop);
    outcome = { ok: true, saved: "push-on" };
  } else if (form.intent === "push-off") {
    await removePushCredentials(session.shop);
    outcome = { ok: true, saved: "push-off" };
  } else {
    await disconnectCourier(session.shop);
    outcome = { ok: true, removed: true };
  }
  return Response.json(outcome, { status: outcome.ok ? 200 : 400 });
};

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

/** The values of the one settings form, as the page edits them. */
function formValues(data: LoaderData) {
  return {
    ...data.deliveryOptions,
    preparationMinutes: String(data.deliveryOptions.preparationMinutes),
    markCodPaid: data.tracking.markCodPaid,
    trackingShopName: data.trackingPage.shopName ?? "",
    trackingContactPhone: data.trackingPage.phone ?? "",
    trackingContactEmail: data.trackingPage.email ?? "",
    mappings: Object.fromEntries(
      data.tracking.mappings.map((m) => [
        m.code,
        { state: m.state ?? "", shopify: m.shopifyStatus ?? "" },
      ]),
    ),
  };
}
type FormValues = ReturnType<typeof formValues>;

export default function Settings() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<SettingsActionResult>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const shopify = useAppBridge();
  const { t } = useTranslation("settings");
  const language = useLanguage();
  const busyIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const [environment, setEnvironment] = useState<string>(data.courierEnvironment);
  const [apiKey, setApiKey] = useState("");
  const saved = useMemo(() => formValues(data), [data]);
  const [values, setValues] = useState(saved);
  // After a save (or anything else that reloads the page's data) the form shows what is stored.
  useEffect(() => setValues(saved), [saved]);
  const dirty = JSON.stringify(values) !== JSON.stringify(saved);
  const formRef = useRef<HTMLFormElement>(null);

  // Once the courier accepted it, the key leaves the page: it is stored, and shown masked only.
  useEffect(() => {
    if (!result?.ok) return;
    setApiKey("");
    shopify.toast.show(successMessage(t, result));
  }, [result, shopify, t]);

  const error = result && !result.ok ? errorText(t, result) : null;
  const set =
    <K extends keyof FormValues>(key: K) =>
    (value: FormValues[K]) =>
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
        <AnnotatedSection
          first
          title={t("connection.title")}
          description={t("connection.description")}
        >
          <Card>
            <Form method="post">
              <input type="hidden" name="intent" value="connect" />
              <BlockStack gap="400">
                <ChoiceList
                  title={t("connection.environment")}
                  name="courierEnvironment"
                  choices={[
                    { label: t("connection.sandbox"), value: "sandbox" },
                    {
                      label: t("connection.production"),
                      value: "production",
                      disabled: !data.productionAvailable,
                    },
                  ]}
                  selected={[environment]}
                  onChange={(selected) => setEnvironment(selected[0] ?? "sandbox")}
                />
                {/* Not a disabled choice's grey help text: too faint to read (axe). */}
                {!data.productionAvailable && (
                  <Text as="p" tone="subdued">
                    {t("connection.productionMissing")}
                  </Text>
                )}
                {data.key && (
                  <Text as="p">
                    {t("connection.savedKey")}{" "}
                    <Text as="span" fontWeight="semibold">
                      <bdi translate="no">{data.key.hint}</bdi>
                    </Text>
                    {data.key.setAt &&
                      ` ${t("connection.savedAt", { at: formatDateTime(data.key.setAt, language) })}`}
                  </Text>
                )}
                <TextField
                  label={data.key ? t("connection.replaceKey") : t("connection.key")}
                  name="apiKey"
                  type="password"
                  value={apiKey}
                  onChange={setApiKey}
                  autoComplete="off"
                  helpText={t("connection.keyHelp")}
                />
                <InlineStack gap="300">
                  <Button submit variant="primary" loading={busyIntent === "connect"}>
                    {t("connection.test")}
                  </Button>
                </InlineStack>
                {/* The latest check, unless this visit's own attempt just failed (shown above). */}
                {data.lastCheck && !error && (
                  <Text as="p" tone={data.lastCheck.error ? "critical" : "subdued"}>
                    {data.lastCheck.error
                      ? t("connection.lastCheckFailed", {
                          at: formatDateTime(data.lastCheck.at, language),
                        })
                      : t("connection.lastCheckWorked", {
                          at: formatDateTime(data.lastCheck.at, language),
                        })}
                    {data.lastCheck.error && (
                      <>
                        {" "}
                        <DetailText text={translateMessage(t, data.lastCheck.error)} />
                      </>
                    )}
                  </Text>
                )}
              </BlockStack>
            </Form>
          </Card>
        </AnnotatedSection>

        <AnnotatedSection title={t("areas.title")} description={t("areas.description")}>
          <Card>
            <BlockStack gap="300">
              <Text as="p">
                {data.masterData
                  ? t("areas.summary", {
                      governorates: data.masterData.governances,
                      areas: data.masterData.areas,
                      at: formatDateTime(data.masterData.fetchedAt, language),
                    })
                  : t("areas.notFetched")}
              </Text>
              <InlineStack gap="300">
                <Form method="post">
                  <input type="hidden" name="intent" value="refresh-master-data" />
                  <Button
                    submit
                    disabled={!data.key}
                    loading={busyIntent === "refresh-master-data"}
                  >
                    {t("areas.refresh")}
                  </Button>
                </Form>
                {data.key && (
                  <Form method="post">
                    <input type="hidden" name="intent" value="remove-key" />
                    <Button
                      submit
                      tone="critical"
                      variant="plain"
                      loading={busyIntent === "remove-key"}
                    >
                      {t("areas.removeKey")}
                    </Button>
                  </Form>
                )}
              </InlineStack>
            </BlockStack>
          </Card>
        </AnnotatedSection>

        <Form method="post" id="settings-form" ref={formRef} style={{ display: "contents" }}>
          <input type="hidden" name="intent" value="save" />
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
                <Checkbox
                  label={t("deliveries.markCodPaid")}
                  name="markCodPaid"
                  checked={values.markCodPaid}
                  onChange={set("markCodPaid")}
                />
              </BlockStack>
            </Card>
          </AnnotatedSection>
          <AnnotatedSection
            title={t("trackingPage.title")}
            description={t("trackingPage.description")}
          >
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
          <StatusMappingSection
            tracking={data.tracking}
            choices={values.mappings}
            onChange={(code, choice) =>
              setValues((v) => ({ ...v, mappings: { ...v.mappings, [code]: choice } }))
            }
          />
        </Form>
        <PushSection push={data.tracking.push} busyIntent={busyIntent} />
      </BlockStack>
    </Page>
  );
}

/** Text from the courier or a service, which may be in English on an Arabic page. */
function DetailText({ text }: { text: string }) {
  return <span dir="auto">{text}</span>;
}

function successMessage(t: TFunction, result: Extract<SettingsActionResult, { ok: true }>): string {
  if ("saved" in result) return t(`saved.${result.saved}`);
  if ("removed" in result) return t("saved.keyRemoved");
  return t("saved.connected", {
    environment: t(`common:environment.${result.environment}`),
    governorates: result.governances,
    areas: result.areas,
  });
}

function errorText(t: TFunction, result: Extract<SettingsActionResult, { ok: false }>) {
  if ("errorKey" in result)
    return { title: t(result.errorKey, { code: result.code ?? "" }), detail: null };
  return { title: t("connection.failed"), detail: translateMessage(t, result.error) };
}

type Choice = { state: string; shopify: string };

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

function StatusMappingSection(props: {
  tracking: LoaderData["tracking"];
  choices: Record<string, Choice>;
  onChange: (code: string, choice: Choice) => void;
}) {
  const { tracking, choices, onChange } = props;
  const { t } = useTranslation("settings");
  const language = useLanguage();
  const unmapped = tracking.mappings.filter((m) => !m.state);
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
                      <FormLayout>
                        <FormLayout.Group condensed>
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
          )}
        </BlockStack>
      </Card>
    </AnnotatedSection>
  );
}

function PushSection(props: {
  push: LoaderData["tracking"]["push"];
  busyIntent: FormDataEntryValue | null | undefined;
}) {
  const { push, busyIntent } = props;
  const { t } = useTranslation("settings");
  return (
    <AnnotatedSection title={t("push.title")} description={t("push.description")}>
      <Card>
        <BlockStack gap="300">
          {push ? (
            <>
              <TextField
                label={t("push.url")}
                value={push.url}
                readOnly
                autoComplete="off"
                helpText={t("push.urlHelp")}
              />
              {push.secret === null ? (
                <Banner tone="warning">{t("push.unreadable")}</Banner>
              ) : (
                <TextField
                  label={t("push.secret")}
                  value={push.secret}
                  readOnly
                  autoComplete="off"
                  helpText={t("push.secretHelp")}
                />
              )}
              <InlineStack gap="200">
                <Form method="post">
                  <input type="hidden" name="intent" value="push-on" />
                  <Button submit loading={busyIntent === "push-on"}>
                    {t("push.renew")}
                  </Button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="intent" value="push-off" />
                  <Button
                    submit
                    tone="critical"
                    variant="plain"
                    loading={busyIntent === "push-off"}
                  >
                    {t("push.off")}
                  </Button>
                </Form>
              </InlineStack>
            </>
          ) : (
            <BlockStack gap="200">
              <Text as="p">{t("push.offText")}</Text>
              <Form method="post">
                <input type="hidden" name="intent" value="push-on" />
                <Button submit loading={busyIntent === "push-on"}>
                  {t("push.on")}
                </Button>
              </Form>
            </BlockStack>
          )}
        </BlockStack>
      </Card>
    </AnnotatedSection>
  );
}
