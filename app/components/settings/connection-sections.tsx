import { Form } from "@remix-run/react";
import {
  BlockStack,
  Button,
  Card,
  ChoiceList,
  InlineStack,
  Text,
  TextField,
} from "@shopify/polaris";
import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { SettingsActionResult, SettingsPageData } from "../../pages/settings.server";
import { formatDateTime } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import { translateMessage } from "../../i18n/messages";
import { AnnotatedSection } from "../annotated-section";

/** Settings' courier connection and areas, each its own form (not the save bar's). */

type Busy = FormDataEntryValue | null | undefined;

/** Text from the courier or a service, which may be in English on an Arabic page. */
export function DetailText({ text }: { text: string }) {
  return <span dir="auto">{text}</span>;
}

export function successMessage(
  t: TFunction,
  result: Extract<SettingsActionResult, { ok: true }>,
): string {
  if ("saved" in result) return t(`saved.${result.saved}`);
  if ("removed" in result) return t("saved.keyRemoved");
  return t("saved.connected", {
    environment: t(`common:environment.${result.environment}`),
    governorates: result.governances,
    areas: result.areas,
  });
}

export function errorText(t: TFunction, result: Extract<SettingsActionResult, { ok: false }>) {
  if ("errorKey" in result)
    return { title: t(result.errorKey, { code: result.code ?? "" }), detail: null };
  return { title: t("connection.failed"), detail: translateMessage(t, result.error) };
}

export function ConnectionSection(props: {
  data: Pick<SettingsPageData, "courierEnvironment" | "productionAvailable" | "key" | "lastCheck">;
  result: SettingsActionResult | undefined;
  busyIntent: Busy;
  /** This visit's own attempt failed (said above the sections). */
  error: boolean;
}) {
  const { data, busyIntent, error } = props;
  const { t } = useTranslation("settings");
  const language = useLanguage();
  const [environment, setEnvironment] = useState<string>(data.courierEnvironment);
  const [apiKey, setApiKey] = useState("");
  // Once the courier accepted it, the key leaves the page: it is stored, and shown masked only.
  useEffect(() => {
    if (props.result?.ok) setApiKey("");
  }, [props.result]);
  return (
    <AnnotatedSection first title={t("connection.title")} description={t("connection.description")}>
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
  );
}

export function AreasSection(props: {
  masterData: SettingsPageData["masterData"];
  hasKey: boolean;
  busyIntent: Busy;
}) {
  const { busyIntent } = props;
  const { t } = useTranslation("settings");
  const language = useLanguage();
  return (
    <AnnotatedSection title={t("areas.title")} description={t("areas.description")}>
      <Card>
        <BlockStack gap="300">
          <Text as="p">
            {props.masterData
              ? t("areas.summary", {
                  governorates: props.masterData.governances,
                  areas: props.masterData.areas,
                  at: formatDateTime(props.masterData.fetchedAt, language),
                })
              : t("areas.notFetched")}
          </Text>
          <InlineStack gap="300">
            <Form method="post">
              <input type="hidden" name="intent" value="refresh-master-data" />
              <Button
                submit
                disabled={!props.hasKey}
                loading={busyIntent === "refresh-master-data"}
              >
                {t("areas.refresh")}
              </Button>
            </Form>
            {props.hasKey && (
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
  );
}
