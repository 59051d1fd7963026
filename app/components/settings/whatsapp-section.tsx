import { Form } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  InlineGrid,
  InlineStack,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type {
  WhatsAppActionResult,
  WhatsAppSectionData,
} from "../../actions/whatsapp-settings.server";
import { formatDateTime } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import { CopyField } from "./copy-field";
import { AnnotatedSection } from "../annotated-section";
import { metaTerms } from "./meta-terms";
import { fieldError, TemplatesCard, type Failure } from "./whatsapp-templates-card";

/**
 * Settings' "WhatsApp messages" (issue 27): the merchant's own WhatsApp Business number, kept
 * once a test message went; the callback address for Meta; the four templates to submit in
 * WhatsApp Manager, previewed in both languages; quiet hours, the daily cap, on/off.
 */

type Busy = FormDataEntryValue | null | undefined;

export function WhatsAppSection(props: {
  whatsapp: WhatsAppSectionData;
  shopName: string | null;
  result: WhatsAppActionResult | undefined;
  busyIntent: Busy;
}) {
  const { whatsapp, result, busyIntent } = props;
  const { t } = useTranslation("settings");
  const failure = result && !result.ok ? result : null;
  return (
    <div data-settings-section="whatsapp">
      <AnnotatedSection title={t("whatsapp.title")} description={t("whatsapp.description")}>
        <BlockStack gap="400">
          <ConnectCard
            whatsapp={whatsapp}
            result={result}
            failure={failure}
            busyIntent={busyIntent}
          />
          {whatsapp.callbackUrl && whatsapp.verifyToken && (
            <CallbackCard
              callbackUrl={whatsapp.callbackUrl}
              verifyToken={whatsapp.verifyToken}
              verifiedAt={whatsapp.webhookVerifiedAt}
            />
          )}
          <TemplatesCard
            whatsapp={whatsapp}
            shopName={props.shopName}
            failure={failure}
            busyIntent={busyIntent}
          />
        </BlockStack>
      </AnnotatedSection>
    </div>
  );
}

function ConnectCard(props: {
  whatsapp: WhatsAppSectionData;
  result: WhatsAppActionResult | undefined;
  failure: Failure | null;
  busyIntent: Busy;
}) {
  const { whatsapp, failure, busyIntent } = props;
  const { t } = useTranslation("settings");
  const mt = (...args: Parameters<typeof t>) => metaTerms(t(...args));
  const language = useLanguage();
  const [phoneNumberId, setPhoneNumberId] = useState(whatsapp.phoneNumberId ?? "");
  const [accessToken, setAccessToken] = useState("");
  const [appSecret, setAppSecret] = useState("");
  const [testPhone, setTestPhone] = useState("");
  const [testLanguage, setTestLanguage] = useState<string>(language === "ar" ? "ar" : "en");
  // Once WhatsApp accepted them, the token and secret leave the page: stored, shown masked.
  useEffect(() => {
    if (props.result?.ok) {
      setAccessToken("");
      setAppSecret("");
    }
  }, [props.result]);
  useEffect(() => {
    setPhoneNumberId(whatsapp.phoneNumberId ?? "");
  }, [whatsapp.phoneNumberId]);
  const error = (field: string) => fieldError(t, failure, field);
  return (
    <Card>
      <BlockStack gap="400">
        <InlineStack gap="200" blockAlign="center" wrap>
          <Text as="h3" variant="headingSm">
            {mt("whatsapp.connect.title")}
          </Text>
          {whatsapp.connected ? (
            whatsapp.enabled ? (
              <Badge tone="success">{t("whatsapp.connect.on")}</Badge>
            ) : (
              <Badge tone="attention">{t("whatsapp.connect.off")}</Badge>
            )
          ) : (
            <Badge>{t("whatsapp.connect.notConnected")}</Badge>
          )}
        </InlineStack>
        {!whatsapp.connected && <Text as="p">{mt("whatsapp.connect.intro")}</Text>}
        {whatsapp.connected && (
          <Text as="p">
            {mt("whatsapp.connect.savedToken")}{" "}
            <Text as="span" fontWeight="semibold">
              <bdi translate="no">{whatsapp.accessTokenHint}</bdi>
            </Text>
          </Text>
        )}
        {/* A refusal that names no field (the template, WhatsApp not answering…). */}
        {failure && !failure.field && (
          <Banner tone="critical" title={t("whatsapp.connect.failed")}>
            {mt(failure.errorKey)}
          </Banner>
        )}
        <Form method="post">
          <input type="hidden" name="intent" value="whatsapp-connect" />
          <BlockStack gap="300">
            <TextField
              label={mt("whatsapp.connect.phoneNumberId")}
              name="phoneNumberId"
              value={phoneNumberId}
              onChange={setPhoneNumberId}
              inputMode="numeric"
              autoComplete="off"
              helpText={mt("whatsapp.connect.phoneNumberIdHelp")}
              error={error("phoneNumberId")}
            />
            <TextField
              label={
                whatsapp.connected
                  ? mt("whatsapp.connect.replaceToken")
                  : mt("whatsapp.connect.accessToken")
              }
              name="accessToken"
              type="password"
              value={accessToken}
              onChange={setAccessToken}
              autoComplete="off"
              helpText={mt("whatsapp.connect.accessTokenHelp")}
              error={error("accessToken")}
            />
            <TextField
              label={
                whatsapp.connected
                  ? mt("whatsapp.connect.replaceAppSecret")
                  : mt("whatsapp.connect.appSecret")
              }
              name="appSecret"
              type="password"
              value={appSecret}
              onChange={setAppSecret}
              autoComplete="off"
              helpText={mt("whatsapp.connect.appSecretHelp")}
              error={error("appSecret")}
            />
            <InlineGrid columns={{ xs: 1, sm: "2fr 1fr" }} gap="300">
              <TextField
                label={mt("whatsapp.connect.testPhone")}
                name="testPhone"
                type="tel"
                value={testPhone}
                onChange={setTestPhone}
                autoComplete="tel"
                placeholder="9XXX XXXX"
                helpText={mt("whatsapp.connect.testPhoneHelp")}
                error={error("testPhone")}
              />
              <Select
                label={mt("whatsapp.connect.testLanguage")}
                name="testLanguage"
                options={[
                  { label: "العربية", value: "ar" },
                  { label: "English", value: "en" },
                ]}
                value={testLanguage}
                onChange={setTestLanguage}
              />
            </InlineGrid>
            <InlineStack gap="300">
              <Button submit variant="primary" loading={busyIntent === "whatsapp-connect"}>
                {whatsapp.connected ? t("whatsapp.connect.test") : t("whatsapp.connect.submit")}
              </Button>
            </InlineStack>
            {whatsapp.lastCheck && !failure && (
              <Text as="p" tone={whatsapp.lastCheck.errorKey ? "critical" : "subdued"}>
                {whatsapp.lastCheck.errorKey
                  ? [
                      t("whatsapp.connect.lastCheckFailed", {
                        at: formatDateTime(whatsapp.lastCheck.at, language),
                      }),
                      " ",
                      mt(whatsapp.lastCheck.errorKey),
                    ]
                  : mt("whatsapp.connect.lastCheckWorked", {
                      at: formatDateTime(whatsapp.lastCheck.at, language),
                    })}
              </Text>
            )}
          </BlockStack>
        </Form>
        {whatsapp.connected && (
          <InlineStack gap="300" blockAlign="center" wrap>
            <Form method="post">
              <input
                type="hidden"
                name="intent"
                value={whatsapp.enabled ? "whatsapp-off" : "whatsapp-on"}
              />
              <Button
                submit
                loading={busyIntent === "whatsapp-on" || busyIntent === "whatsapp-off"}
              >
                {whatsapp.enabled ? t("whatsapp.connect.turnOff") : t("whatsapp.connect.turnOn")}
              </Button>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="whatsapp-disconnect" />
              <Button
                submit
                tone="critical"
                variant="plain"
                loading={busyIntent === "whatsapp-disconnect"}
              >
                {t("whatsapp.connect.disconnect")}
              </Button>
            </Form>
          </InlineStack>
        )}
        {whatsapp.connected && !whatsapp.enabled && (
          <Text as="p" tone="subdued">
            {mt("whatsapp.connect.offHelp")}
          </Text>
        )}
      </BlockStack>
    </Card>
  );
}

function CallbackCard(props: {
  callbackUrl: string;
  verifyToken: string;
  verifiedAt: string | null;
}) {
  const { t } = useTranslation("settings");
  const mt = (...args: Parameters<typeof t>) => metaTerms(t(...args));
  const language = useLanguage();
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center" wrap>
          <Text as="h3" variant="headingSm">
            {mt("whatsapp.callback.title")}
          </Text>
          {props.verifiedAt ? (
            <Badge tone="success">{t("whatsapp.callback.verified")}</Badge>
          ) : (
            <Badge tone="warning">{t("whatsapp.callback.notVerified")}</Badge>
          )}
        </InlineStack>
        <Text as="p">{mt("whatsapp.callback.steps")}</Text>
        <CopyField label={t("whatsapp.callback.url")} value={props.callbackUrl} />
        <CopyField label={t("whatsapp.callback.verifyToken")} value={props.verifyToken} />
        {props.verifiedAt ? (
          <Text as="p" tone="subdued">
            {mt("whatsapp.callback.verifiedAt", { at: formatDateTime(props.verifiedAt, language) })}
          </Text>
        ) : (
          <Banner tone="warning">{mt("whatsapp.callback.whyVerify")}</Banner>
        )}
      </BlockStack>
    </Card>
  );
}
