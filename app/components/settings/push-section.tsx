import { Form } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import type { SettingsPageData } from "../../pages/settings.server";
import { AnnotatedSection } from "../annotated-section";
import { CopyField } from "./copy-field";

/** The courier's status pushes: its URL and signing secret, turned on, renewed or off. */
export function PushSection(props: {
  push: SettingsPageData["tracking"]["push"];
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
              <Text as="p">{t("push.steps")}</Text>
              <CopyField label={t("push.url")} value={push.url} helpText={t("push.urlHelp")} />
              {push.secret === null ? (
                <Banner tone="warning">{t("push.unreadable")}</Banner>
              ) : (
                <CopyField
                  label={t("push.secret")}
                  value={push.secret}
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
