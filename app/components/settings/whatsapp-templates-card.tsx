import { Form } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  InlineGrid,
  InlineStack,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type {
  WhatsAppActionResult,
  WhatsAppSectionData,
} from "../../actions/whatsapp-settings.server";
import { TimeChoice } from "./day-time-choices";
import { metaTerms } from "./meta-terms";
import {
  MESSAGE_PURPOSES,
  messagePreview,
  TEMPLATE_BODIES,
  TEMPLATE_BUTTON_TEXT,
  type MessagePurpose,
} from "../../domain/shopper-message";

/**
 * The WhatsApp section's templates: each message's text to submit in WhatsApp Manager and its
 * preview with example facts, in Arabic and English; quiet hours and the daily cap.
 */

type Busy = FormDataEntryValue | null | undefined;
export type Failure = Extract<WhatsAppActionResult, { ok: false }>;

export function fieldError(t: (key: string) => string, failure: Failure | null, field: string) {
  return failure?.field === field ? metaTerms(t(failure.errorKey)) : undefined;
}

const LANGUAGES = ["ar", "en"] as const;
/** The example facts of the previews, in the message's language (not the page's). */
const EXAMPLE_SHOP = { ar: "متجرك", en: "Your shop" };
const EXAMPLE_CASH = { ar: "12.500 د.ك", en: "12.500 KWD" };

export function TemplatesCard(props: {
  whatsapp: WhatsAppSectionData;
  shopName: string | null;
  failure: Failure | null;
  busyIntent: Busy;
}) {
  const { whatsapp, failure, busyIntent } = props;
  const { t } = useTranslation("settings");
  const mt = (...args: Parameters<typeof t>) => metaTerms(t(...args));
  const [names, setNames] = useState(whatsapp.templates);
  const [quietFrom, setQuietFrom] = useState(whatsapp.quietFrom);
  const [quietUntil, setQuietUntil] = useState(whatsapp.quietUntil);
  const [dailyCap, setDailyCap] = useState(String(whatsapp.dailyCapPerOrder));
  const error = (field: string) => fieldError(t, failure, field);
  // Four messages in two languages with previews are most of Settings' height on a phone: they
  // stay folded until the number is connected (they cannot be saved before), or a name is wrong.
  const needsMerchant =
    whatsapp.connected ||
    whatsapp.templatesUnreadable ||
    (failure?.field?.startsWith("template.") ?? false);
  const [open, setOpen] = useState(needsMerchant);
  const shown = open || needsMerchant;
  const facts = (language: "ar" | "en") => ({
    shopName: props.shopName ?? EXAMPLE_SHOP[language],
    orderName: "#1001",
    cash: EXAMPLE_CASH[language],
    token: "",
  });
  const setName = (purpose: MessagePurpose, language: "ar" | "en") => (value: string) =>
    setNames((current) => ({ ...current, [purpose]: { ...current[purpose], [language]: value } }));
  return (
    <Card>
      <Form method="post">
        <input type="hidden" name="intent" value="whatsapp-save" />
        <BlockStack gap="400">
          <Text as="h3" variant="headingSm">
            {mt("whatsapp.templates.title")}
          </Text>
          <Text as="p">
            {mt("whatsapp.templates.intro", { p1: "{{1}}", p2: "{{2}}", p3: "{{3}}" })}
          </Text>
          <Box>
            <Text as="p" tone="subdued">
              {mt("whatsapp.templates.button")}
            </Text>
            <Text as="p" fontWeight="semibold" breakWord>
              <bdi translate="no" dir="ltr">
                {whatsapp.buttonUrl}
              </bdi>
            </Text>
          </Box>
          {whatsapp.templatesUnreadable && (
            <Banner tone="warning">{mt("whatsapp.templates.unreadable")}</Banner>
          )}
          {!needsMerchant && (
            <InlineStack gap="200" align="space-between" blockAlign="center">
              <Text as="p">{mt("whatsapp.templates.summary")}</Text>
              <Button
                variant="plain"
                onClick={() => setOpen(!open)}
                ariaExpanded={shown}
                ariaControls="whatsapp-templates"
              >
                {shown ? t("whatsapp.templates.hide") : t("whatsapp.templates.show")}
              </Button>
            </InlineStack>
          )}
          {!shown &&
            // Folded, the names still go with the form.
            MESSAGE_PURPOSES.flatMap((purpose) =>
              LANGUAGES.map((language) => (
                <input
                  key={`${purpose}.${language}`}
                  type="hidden"
                  name={`template.${purpose}.${language}`}
                  value={names[purpose][language]}
                />
              )),
            )}
          <div id="whatsapp-templates" hidden={!shown}>
            <BlockStack gap="400">
              {shown &&
                MESSAGE_PURPOSES.map((purpose) => (
                  <BlockStack gap="200" key={purpose}>
                    <Text as="h4" variant="headingSm" tone="subdued">
                      {t(`whatsapp.purpose.${purpose}`)}
                    </Text>
                    <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
                      {LANGUAGES.map((language) => (
                        <BlockStack gap="200" key={language}>
                          <TextField
                            label={mt(`whatsapp.templates.name.${language}`)}
                            name={`template.${purpose}.${language}`}
                            value={names[purpose][language]}
                            onChange={setName(purpose, language)}
                            autoComplete="off"
                            error={error(`template.${purpose}.${language}`)}
                          />
                          <div dir={language === "ar" ? "rtl" : "ltr"} translate="no">
                            <TextField
                              label={t(`whatsapp.templates.text.${language}`)}
                              value={TEMPLATE_BODIES[purpose][language]}
                              readOnly
                              multiline
                              autoComplete="off"
                            />
                          </div>
                          <Text as="p" variant="bodySm" tone="subdued">
                            {mt("whatsapp.templates.preview")}
                          </Text>
                          <MessageBubble
                            language={language}
                            body={messagePreview(purpose, language, facts(language))}
                          />
                        </BlockStack>
                      ))}
                    </InlineGrid>
                  </BlockStack>
                ))}
            </BlockStack>
          </div>
          <InlineGrid columns={{ xs: 1, sm: 3 }} gap="300">
            <TimeChoice
              label={mt("whatsapp.quiet.from")}
              name="quietFrom"
              value={quietFrom}
              onChange={setQuietFrom}
              error={error("quietFrom")}
            />
            <TimeChoice
              label={mt("whatsapp.quiet.until")}
              name="quietUntil"
              value={quietUntil}
              onChange={setQuietUntil}
              error={error("quietUntil")}
            />
            <TextField
              label={mt("whatsapp.quiet.dailyCap")}
              name="dailyCapPerOrder"
              type="number"
              min={1}
              max={10}
              inputMode="numeric"
              value={dailyCap}
              onChange={setDailyCap}
              autoComplete="off"
              error={error("dailyCapPerOrder")}
            />
          </InlineGrid>
          <Text as="p" tone="subdued">
            {mt("whatsapp.quiet.help")}
          </Text>
          <InlineStack gap="300" blockAlign="center" wrap>
            <Button submit disabled={!whatsapp.connected} loading={busyIntent === "whatsapp-save"}>
              {t("whatsapp.templates.save")}
            </Button>
            {!whatsapp.connected && (
              <Text as="span" tone="subdued">
                {mt("whatsapp.templates.connectFirst")}
              </Text>
            )}
          </InlineStack>
        </BlockStack>
      </Form>
    </Card>
  );
}

/** A message as the shopper's WhatsApp shows it: the body, then the button. */
function MessageBubble(props: { language: "ar" | "en"; body: string }) {
  return (
    <div translate="no" dir={props.language === "ar" ? "rtl" : "ltr"}>
      <Box background="bg-surface-secondary" padding="300" borderRadius="200">
        <BlockStack gap="200">
          <Text as="p" breakWord>
            {props.body}
          </Text>
          <Box borderBlockStartWidth="025" borderColor="border" paddingBlockStart="200">
            <Text as="p" alignment="center" tone="magic" fontWeight="medium">
              {TEMPLATE_BUTTON_TEXT[props.language]}
            </Text>
          </Box>
        </BlockStack>
      </Box>
    </div>
  );
}
