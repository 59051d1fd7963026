import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { BlockStack, Button, Card, InlineStack, Page, Text } from "@shopify/polaris";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { languageOf, LANGUAGES } from "../i18n/config";
import { useLanguage } from "../i18n/language";
import { chooseStaffLanguage } from "../models/staff-language.server";
import { authenticate } from "../shopify.server";

/** The language switch: each staff member's choice, kept by their Shopify user id (ADR 0040). */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { sessionToken } = await authenticate.admin(request);
  return { canRemember: Boolean(sessionToken?.sub) };
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, sessionToken } = await authenticate.admin(request);
  const language = languageOf(String((await request.formData()).get("language")));
  if (!language || !sessionToken?.sub) return { saved: false as const };
  await chooseStaffLanguage(session.shop, sessionToken.sub, language);
  return { saved: true as const, language };
};

export default function LanguagePage() {
  const { canRemember } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const language = useLanguage();
  const navigation = useNavigation();
  const shopify = useAppBridge();
  const { t } = useTranslation();
  const saved = result?.saved && result.language === language;
  useEffect(() => {
    if (saved) shopify.toast.show(t("language.saved"));
  }, [saved, shopify, t]);

  return (
    <Page title={t("language.title")} backAction={{ url: "/app", content: t("nav.home") }}>
      <Card>
        <BlockStack gap="400">
          <Text as="p">{t("language.intro")}</Text>
          <Text as="p" fontWeight="semibold">
            {t("language.current", { language: t(`language.names.${language}`) })}
          </Text>
          <InlineStack gap="300">
            {LANGUAGES.map((code) => (
              <Form method="post" key={code} lang={code}>
                <input type="hidden" name="language" value={code} />
                <Button
                  submit
                  variant={code === language ? "primary" : "secondary"}
                  pressed={code === language}
                  disabled={!canRemember}
                  loading={navigation.formData?.get("language") === code}
                >
                  {t(`language.names.${code}`)}
                </Button>
              </Form>
            ))}
          </InlineStack>
          <Text as="p" tone="subdued">
            {canRemember ? t("language.fromShopify") : t("language.noUser")}
          </Text>
        </BlockStack>
      </Card>
    </Page>
  );
}
