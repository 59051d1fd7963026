import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, ChoiceList, Layout, Page, Text } from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";
import { env } from "../env.server";
import {
  getShopSettings,
  setCourierEnvironment,
  type CourierEnvironment,
} from "../models/shop.server";
import { authenticate } from "../shopify.server";

const settingsForm = z.object({
  courierEnvironment: z.enum(["sandbox", "production"], {
    error: "Choose sandbox or production.",
  }),
});

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const settings = await getShopSettings(session.shop);
  return {
    courierEnvironment: (settings?.courierEnvironment ?? "sandbox") as CourierEnvironment,
    productionAvailable: Boolean(env().COURIER_PRODUCTION_URL),
  };
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const parsed = settingsForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return Response.json({ ok: false, error: parsed.error.issues[0]?.message }, { status: 400 });
  }
  if (parsed.data.courierEnvironment === "production" && !env().COURIER_PRODUCTION_URL) {
    return Response.json(
      {
        ok: false,
        error:
          "Production is not available yet: the app's operator has not configured the courier's production address.",
      },
      { status: 400 },
    );
  }
  await setCourierEnvironment(session.shop, parsed.data.courierEnvironment);
  return Response.json({ ok: true, error: undefined });
};

export default function Settings() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<{ ok: boolean; error?: string }>();
  const navigation = useNavigation();
  const [environment, setEnvironment] = useState<string>(data.courierEnvironment);

  return (
    <Page title="Settings" backAction={{ url: "/app" }}>
      <Layout>
        <Layout.AnnotatedSection
          title="Courier environment"
          description="Use the sandbox while you test. Switch to production once the courier has approved your account."
        >
          <Card>
            <Form method="post">
              <BlockStack gap="400">
                {result?.ok && <Banner tone="success">Settings saved.</Banner>}
                {result?.error && <Banner tone="critical">{result.error}</Banner>}
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
                <Text as="p" tone="subdued">
                  Deliveries already created stay with the environment they were created in.
                </Text>
                <div>
                  <Button submit variant="primary" loading={navigation.state === "submitting"}>
                    Save
                  </Button>
                </div>
              </BlockStack>
            </Form>
          </Card>
        </Layout.AnnotatedSection>
      </Layout>
    </Page>
  );
}
