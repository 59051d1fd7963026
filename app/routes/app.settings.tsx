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
  Layout,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
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
]);

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const account = await getCourierAccount(session.shop);
  const masterData = await getCachedMasterData(session.shop, account.environment);
  const settings = await getShopSettings(session.shop);
  return {
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
  ConnectionOutcome | { ok: true; removed: true } | { ok: true; saved: "delivery-options" };

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

function successMessage(result: Extract<SettingsActionResult, { ok: true }>): string {
  if ("saved" in result) return "Delivery options saved.";
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
        <Layout.AnnotatedSection
          title="Courier connection"
          description="Paste the API key the courier issued you. Use the sandbox while you test; switch to production once the courier has approved your account."
        >
          <Card>
            <Form method="post">
              <input type="hidden" name="intent" value="connect" />
              <BlockStack gap="400">
                {result?.ok && <Banner tone="success">{successMessage(result)}</Banner>}
                {result && !result.ok && (
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
  const saved = props.result?.ok && "saved" in props.result;
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
