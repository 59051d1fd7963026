import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  Checkbox,
  ChoiceList,
  FormLayout,
  InlineStack,
  Badge,
  Layout,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { getShopifyAccess } from "../models/shopify-access.server";
import { ShopifyAccessLostBanner } from "../components/shopify-access-lost-banner";
import { useEffect, useState } from "react";
import { z } from "zod";
import { env } from "../env.server";
import { getCachedMasterData, getCourierAccount } from "../models/courier-account.server";
import {
  connectCourier,
  disconnectCourier,
  refreshCourierMasterData,
  type ConnectionOutcome,
} from "../services/courier-connection.server";
import { getShopSettings, saveDeliveryOptions } from "../models/shop.server";
import {
  createPushCredentials,
  readPushCredentials,
  removePushCredentials,
} from "../models/push-credentials.server";
import { listStatusMappings, saveMarkCodPaid, saveStatusMappings } from "../models/tracking.server";
import {
  mappedStateSchema,
  SHOPIFY_EVENT_LABELS,
  SHOPIFY_EVENT_STATUSES,
  shopifyEventStatusSchema,
  TRACKED_STATES,
  type ShopifyEventStatus,
} from "../deliveries/domain/courier-status";
import { STATE_LABELS } from "../deliveries/domain/states";
import { resumeDeliveriesAfterConnection } from "../deliveries/runner.server";
import { kickTrackingSync } from "../deliveries/drain-loop.server";
import { authenticate } from "../shopify.server";

const environmentField = z.enum(["sandbox", "production"], {
  error: "Choose sandbox or production.",
});

const settingsAction = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("connect"),
    courierEnvironment: environmentField,
    apiKey: z.string().optional(),
  }),
  z.object({ intent: z.literal("refresh-master-data") }),
  z.object({
    intent: z.literal("delivery-options"),
    // A checked box is sent (Polaris sends an empty value), an unchecked one is not.
    autoSend: z
      .string()
      .optional()
      .transform((value) => value !== undefined),
    notifyCustomer: z
      .string()
      .optional()
      .transform((value) => value !== undefined),
    paymentCodeCod: z
      .string()
      .trim()
      .max(50, "Payment codes are at most 50 characters.")
      .optional(),
    paymentCodePrepaid: z
      .string()
      .trim()
      .max(50, "Payment codes are at most 50 characters.")
      .optional(),
    preparationMinutes: z.coerce
      .number({ error: "Preparation time must be a number of minutes." })
      .int("Preparation time must be whole minutes.")
      .min(0, "Preparation time cannot be negative.")
      .max(10_080, "Preparation time is at most a week (10080 minutes)."),
  }),
  z.object({ intent: z.literal("remove-key") }),
  z.object({
    intent: z.literal("tracking-options"),
    markCodPaid: z
      .string()
      .optional()
      .transform((value) => value !== undefined),
  }),
  z.object({ intent: z.literal("push-on") }),
  z.object({ intent: z.literal("push-off") }),
  // Fields `state:<code>` and `shopify:<code>` per courier status, read by statusMappingForm.
  z.looseObject({ intent: z.literal("status-mapping") }),
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
    if (state && !state.success) return { error: `Choose what "${code}" means in the app.` };
    if (event && !event.success) return { error: `Choose a Shopify status for "${code}".` };
    entries.push({
      code,
      state: state ? state.data : null,
      shopifyStatus: event ? event.data : null,
    });
  }
  return { entries };
}

const UNREADABLE_PUSH_SECRET =
  "The signing secret can no longer be read (the app's encryption keys changed): choose New URL and secret, and give the courier the new ones.";

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
            problem: push.secret === null ? UNREADABLE_PUSH_SECRET : null,
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
  | { ok: true; saved: "delivery-options" | "tracking-options" | "status-mapping" | "push-off" }
  | { ok: true; saved: "push-on" }
  | { ok: false; error: string; section: "tracking" };

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const parsed = settingsAction.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    const outcome: ConnectionOutcome = {
      ok: false,
      error: parsed.error.issues[0]?.message ?? "Invalid form.",
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
  } else if (form.intent === "delivery-options") {
    await saveDeliveryOptions(session.shop, {
      autoSend: form.autoSend,
      notifyCustomer: form.notifyCustomer,
      paymentCodeCod: form.paymentCodeCod || null,
      paymentCodePrepaid: form.paymentCodePrepaid || null,
      preparationMinutes: form.preparationMinutes,
    });
    outcome = { ok: true, saved: "delivery-options" };
  } else if (form.intent === "refresh-master-data") {
    outcome = await refreshCourierMasterData(session.shop);
  } else if (form.intent === "tracking-options") {
    await saveMarkCodPaid(session.shop, form.markCodPaid);
    outcome = { ok: true, saved: "tracking-options" };
  } else if (form.intent === "status-mapping") {
    const mapping = statusMappingForm(form);
    if ("error" in mapping) {
      outcome = { ok: false, error: mapping.error ?? "Invalid mapping.", section: "tracking" };
    } else {
      const { deliveries } = await saveStatusMappings(session.shop, mapping.entries);
      if (deliveries > 0) kickTrackingSync();
      outcome = { ok: true, saved: "status-mapping" };
    }
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

const dateTime = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "Asia/Kuwait",
});

const SAVED_MESSAGES = {
  "delivery-options": "Delivery options saved.",
  "tracking-options": "Tracking options saved.",
  "status-mapping":
    "Status mapping saved. Deliveries now on a status you changed follow it within a minute.",
  "push-on": "Status pushes are on: give the courier the URL and secret below.",
  "push-off": "Status pushes are off. Tracking continues by asking the courier.",
} as const;

function successMessage(result: Extract<SettingsActionResult, { ok: true }>): string {
  if ("saved" in result) return SAVED_MESSAGES[result.saved];
  if ("removed" in result)
    return "The API key was removed. Deliveries cannot be sent until you add one.";
  const where = result.environment === "production" ? "production" : "sandbox";
  return `Connected to the courier's ${where}: ${result.governances} governances and ${result.areas} areas found.`;
}

export default function Settings() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<SettingsActionResult>();
  const navigation = useNavigation();
  const busyIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const [environment, setEnvironment] = useState<string>(data.courierEnvironment);
  const [apiKey, setApiKey] = useState("");
  // Once the courier accepted it, the key leaves the page: it is stored, and shown masked only.
  useEffect(() => {
    if (result?.ok) setApiKey("");
  }, [result]);

  return (
    <Page title="Settings" backAction={{ url: "/app" }}>
      <Layout>
        {data.shopifyAccessLost !== null && (
          <Layout.Section>
            <ShopifyAccessLostBanner reason={data.shopifyAccessLost} />
          </Layout.Section>
        )}
        <Layout.AnnotatedSection
          title="Courier connection"
          description="Paste the API key the courier issued you. Use the sandbox while you test; switch to production once the courier has approved your account."
        >
          <Card>
            <Form method="post">
              <input type="hidden" name="intent" value="connect" />
              <BlockStack gap="400">
                {result?.ok && !("saved" in result) && (
                  <Banner tone="success">{successMessage(result)}</Banner>
                )}
                {result && !result.ok && !("section" in result) && (
                  <Banner tone="critical" title="The connection did not work">
                    {result.error}
                  </Banner>
                )}
                <ChoiceList
                  title="Environment"
                  name="courierEnvironment"
                  choices={[
                    { label: "Sandbox (testing)", value: "sandbox" },
                    {
                      label: "Production (live deliveries)",
                      value: "production",
                      disabled: !data.productionAvailable,
                      helpText: data.productionAvailable
                        ? undefined
                        : "Not configured by the app's operator yet.",
                    },
                  ]}
                  selected={[environment]}
                  onChange={(selected) => setEnvironment(selected[0] ?? "sandbox")}
                />
                {data.key && (
                  <Text as="p">
                    Saved API key:{" "}
                    <Text as="span" fontWeight="semibold">
                      {data.key.hint}
                    </Text>
                    {data.key.setAt && ` (saved ${dateTime.format(new Date(data.key.setAt))})`}
                  </Text>
                )}
                <TextField
                  label={data.key ? "Replace the API key (optional)" : "API key"}
                  name="apiKey"
                  type="password"
                  value={apiKey}
                  onChange={setApiKey}
                  autoComplete="off"
                  helpText="Stored encrypted. It is never shown again; you can replace it at any time."
                />
                <InlineStack gap="300">
                  <Button submit variant="primary" loading={busyIntent === "connect"}>
                    Test connection and save
                  </Button>
                </InlineStack>
                {data.lastCheck && (
                  <Text as="p" tone={data.lastCheck.error ? "critical" : "subdued"}>
                    Last checked {dateTime.format(new Date(data.lastCheck.at))}
                    {data.lastCheck.error
                      ? `: ${data.lastCheck.error}`
                      : ": the connection worked."}
                  </Text>
                )}
              </BlockStack>
            </Form>
          </Card>
        </Layout.AnnotatedSection>

        <Layout.AnnotatedSection
          title="Courier master data"
          description="Governances and areas as the courier names them, used to place addresses. Fetched with your key."
        >
          <Card>
            <BlockStack gap="300">
              <Text as="p">
                {data.masterData
                  ? `${data.masterData.governances} governances and ${data.masterData.areas} areas, fetched ${dateTime.format(new Date(data.masterData.fetchedAt))}.`
                  : "Not fetched yet: test the connection first."}
              </Text>
              <InlineStack gap="300">
                <Form method="post">
                  <input type="hidden" name="intent" value="refresh-master-data" />
                  <Button
                    submit
                    disabled={!data.key}
                    loading={busyIntent === "refresh-master-data"}
                  >
                    Refresh master data
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
                      Remove the API key
                    </Button>
                  </Form>
                )}
              </InlineStack>
            </BlockStack>
          </Card>
        </Layout.AnnotatedSection>
        <DeliveryOptionsSection options={data.deliveryOptions} result={result} />
        <TrackingSection tracking={data.tracking} result={result} />
      </Layout>
    </Page>
  );
}

function DeliveryOptionsSection(props: {
  options: ReturnType<typeof useLoaderData<typeof loader>>["deliveryOptions"];
  result: SettingsActionResult | undefined;
}) {
  const [options, setOptions] = useState(props.options);
  const navigation = useNavigation();
  const saving =
    navigation.state !== "idle" && navigation.formData?.get("intent") === "delivery-options";
  const saved =
    props.result?.ok && "saved" in props.result && props.result.saved === "delivery-options";
  return (
    <Layout.AnnotatedSection
      title="Deliveries"
      description="When fulfilled orders go to the courier, and how they are paid. The courier publishes no payment codes: use the ones it gave you."
    >
      <Card>
        <Form method="post">
          <input type="hidden" name="intent" value="delivery-options" />
          <BlockStack gap="400">
            {saved && <Banner tone="success">Delivery options saved.</Banner>}
            <Checkbox
              label="Send to the courier automatically when an order is fulfilled"
              name="autoSend"
              checked={options.autoSend}
              onChange={(autoSend) => setOptions((o) => ({ ...o, autoSend }))}
            />
            <FormLayout>
              <FormLayout.Group>
                <TextField
                  label="Payment code for cash on delivery"
                  name="paymentCodeCod"
                  value={options.paymentCodeCod}
                  onChange={(paymentCodeCod) => setOptions((o) => ({ ...o, paymentCodeCod }))}
                  autoComplete="off"
                />
                <TextField
                  label="Payment code for prepaid orders"
                  name="paymentCodePrepaid"
                  value={options.paymentCodePrepaid}
                  onChange={(paymentCodePrepaid) =>
                    setOptions((o) => ({ ...o, paymentCodePrepaid }))
                  }
                  autoComplete="off"
                />
              </FormLayout.Group>
              <TextField
                label="Preparation time before pickup (minutes)"
                name="preparationMinutes"
                type="number"
                min={0}
                value={String(options.preparationMinutes)}
                onChange={(value) =>
                  setOptions((o) => ({ ...o, preparationMinutes: Number(value) }))
                }
                autoComplete="off"
              />
            </FormLayout>
            <Checkbox
              label="Let Shopify email the customer the tracking number"
              name="notifyCustomer"
              checked={options.notifyCustomer}
              onChange={(notifyCustomer) => setOptions((o) => ({ ...o, notifyCustomer }))}
            />
            <div>
              <Button submit loading={saving}>
                Save delivery options
              </Button>
            </div>
          </BlockStack>
        </Form>
      </Card>
    </Layout.AnnotatedSection>
  );
}

type TrackingData = ReturnType<typeof useLoaderData<typeof loader>>["tracking"];

const STATE_CHOICES = [
  { label: "Not mapped", value: "" },
  ...TRACKED_STATES.map((state) => ({ label: STATE_LABELS[state], value: state })),
  { label: "No change (Shopify event only)", value: "unchanged" },
];
const SHOPIFY_CHOICES = [
  { label: "No Shopify event", value: "" },
  ...SHOPIFY_EVENT_STATUSES.map((status) => ({
    label: SHOPIFY_EVENT_LABELS[status],
    value: status,
  })),
];

function TrackingSection(props: {
  tracking: TrackingData;
  result: SettingsActionResult | undefined;
}) {
  const { tracking, result } = props;
  const navigation = useNavigation();
  const busy = (intent: string) =>
    navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const [markCodPaid, setMarkCodPaid] = useState(tracking.markCodPaid);
  const [choices, setChoices] = useState(() =>
    Object.fromEntries(
      tracking.mappings.map((m) => [
        m.code,
        { state: m.state ?? "", shopify: m.shopifyStatus ?? "" },
      ]),
    ),
  );
  useEffect(() => {
    setChoices(
      Object.fromEntries(
        tracking.mappings.map((m) => [
          m.code,
          { state: m.state ?? "", shopify: m.shopifyStatus ?? "" },
        ]),
      ),
    );
  }, [tracking.mappings]);
  const unmapped = tracking.mappings.filter((m) => !m.state);
  const saved = result?.ok && "saved" in result ? result.saved : null;
  return (
    <Layout.AnnotatedSection
      title="Tracking"
      description="How the courier's statuses show in the app and on the customer's Shopify shipment. The app asks the courier about every active delivery, sooner when it is out for delivery; status pushes from the courier make it immediate."
    >
      <BlockStack gap="400">
        <Card>
          <Form method="post">
            <input type="hidden" name="intent" value="status-mapping" />
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Courier statuses
              </Text>
              {saved === "status-mapping" && (
                <Banner tone="success">{SAVED_MESSAGES[saved]}</Banner>
              )}
              {unmapped.length > 0 && (
                <Banner tone="warning" title="Some courier statuses are not mapped">
                  {unmapped.map((m) => m.name ?? m.code).join(", ")}: deliveries that reach them
                  keep their state and nothing is sent to Shopify until you choose what they mean.
                </Banner>
              )}
              {tracking.mappings.length === 0 ? (
                <Text as="p" tone="subdued">
                  No courier statuses yet. They are read when you connect or refresh the master
                  data, and learned as tracking meets them.
                </Text>
              ) : (
                <table
                  className="status-mapping"
                  style={{ width: "100%", borderCollapse: "collapse" }}
                >
                  <thead>
                    <tr>
                      <th style={{ textAlign: "start" }}>Courier status</th>
                      <th style={{ textAlign: "start" }}>In the app</th>
                      <th style={{ textAlign: "start" }}>On Shopify</th>
                    </tr>
                  </thead>
                  <tbody>
                    {tracking.mappings.map((m) => (
                      <tr key={m.code} data-status={m.code}>
                        <td style={{ padding: "4px 8px 4px 0" }}>
                          <BlockStack gap="100">
                            <Text as="span" variant="bodyMd" fontWeight="medium">
                              <span dir="auto">{m.name ?? m.code}</span>
                            </Text>
                            <InlineStack gap="100">
                              <Text as="span" tone="subdued" variant="bodySm">
                                {m.code}
                              </Text>
                              {!m.state ? (
                                <Badge tone="critical">Not mapped</Badge>
                              ) : m.source === "merchant" ? (
                                <Badge tone="info">Your choice</Badge>
                              ) : null}
                            </InlineStack>
                            {m.problem && (
                              <Text as="span" tone="critical" variant="bodySm">
                                {m.problem}
                              </Text>
                            )}
                          </BlockStack>
                        </td>
                        <td style={{ padding: "4px 8px 4px 0" }}>
                          <Select
                            label={`In the app: ${m.code}`}
                            labelHidden
                            name={`state:${m.code}`}
                            options={STATE_CHOICES}
                            value={choices[m.code]?.state ?? ""}
                            onChange={(state) =>
                              setChoices((c) => ({
                                ...c,
                                [m.code]: { shopify: "", ...c[m.code], state },
                              }))
                            }
                          />
                        </td>
                        <td style={{ padding: "4px 0" }}>
                          <Select
                            label={`On Shopify: ${m.code}`}
                            labelHidden
                            name={`shopify:${m.code}`}
                            options={SHOPIFY_CHOICES}
                            value={choices[m.code]?.shopify ?? ""}
                            onChange={(shopify) =>
                              setChoices((c) => ({
                                ...c,
                                [m.code]: { state: "", ...c[m.code], shopify },
                              }))
                            }
                          />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              {tracking.mappings.length > 0 && (
                <div>
                  <Button submit loading={busy("status-mapping")}>
                    Save status mapping
                  </Button>
                </div>
              )}
            </BlockStack>
          </Form>
        </Card>
        <Card>
          <Form method="post">
            <input type="hidden" name="intent" value="tracking-options" />
            <BlockStack gap="300">
              {saved === "tracking-options" && (
                <Banner tone="success">{SAVED_MESSAGES[saved]}</Banner>
              )}
              <Checkbox
                label="Mark cash-on-delivery orders paid in Shopify once the courier delivers them"
                name="markCodPaid"
                checked={markCodPaid}
                onChange={setMarkCodPaid}
              />
              <div>
                <Button submit loading={busy("tracking-options")}>
                  Save tracking options
                </Button>
              </div>
            </BlockStack>
          </Form>
        </Card>
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              Status pushes from the courier
            </Text>
            {(saved === "push-on" || saved === "push-off") && (
              <Banner tone="success">{SAVED_MESSAGES[saved]}</Banner>
            )}
            {tracking.push ? (
              <>
                <TextField
                  label="Webhook URL"
                  value={tracking.push.url}
                  readOnly
                  autoComplete="off"
                />
                {tracking.push.secret === null ? (
                  <Banner tone="warning">{tracking.push.problem}</Banner>
                ) : (
                  <TextField
                    label="Signing secret (HMAC-SHA256 of the body, header X-Courier-Signature)"
                    value={tracking.push.secret}
                    readOnly
                    autoComplete="off"
                  />
                )}
                <InlineStack gap="200">
                  <Form method="post">
                    <input type="hidden" name="intent" value="push-on" />
                    <Button submit loading={busy("push-on")}>
                      New URL and secret
                    </Button>
                  </Form>
                  <Form method="post">
                    <input type="hidden" name="intent" value="push-off" />
                    <Button submit tone="critical" variant="plain" loading={busy("push-off")}>
                      Turn off pushes
                    </Button>
                  </Form>
                </InlineStack>
              </>
            ) : (
              <BlockStack gap="200">
                <Text as="p">
                  Off: the app asks the courier for each active delivery. Turn pushes on to get a
                  URL and secret for the courier, so changes show at once.
                </Text>
                <Form method="post">
                  <input type="hidden" name="intent" value="push-on" />
                  <Button submit loading={busy("push-on")}>
                    Turn on status pushes
                  </Button>
                </Form>
              </BlockStack>
            )}
          </BlockStack>
        </Card>
      </BlockStack>
    </Layout.AnnotatedSection>
  );
}
