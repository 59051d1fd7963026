import { Form, useNavigation } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  InlineGrid,
  InlineStack,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CorrectionField, CorrectionValues, RememberChance } from "../../actions/fix.server";
import type { AreaChoice } from "../../domain/area-choices";
import { useLanguage } from "../../i18n/language";
import { translateMessage } from "../../i18n/messages";
import type { Notice } from "../../domain/notices";
import { useNotice } from "../notice";
import { AreaPicker, choiceName } from "./area-picker";
import { withData } from "./sentence";

const PARTS = [
  "block",
  "street",
  "avenue",
  "house",
  "building",
  "floor",
  "apartment",
  "paci",
] as const;
const MARK = "\u0001";

/** A form error: a catalog key of `delivery` (the form's own), or a service's sentence. */
export function useFormError(): (error: string) => string {
  const { t } = useTranslation("delivery");
  return (error) =>
    error.startsWith("fix.") || error.startsWith("refused.")
      ? t(error)
      : translateMessage(t, error);
}

/**
 * Whether the merchant's answer will be remembered, said before sending: for which spelling, to
 * which area, or why it cannot be.
 */
function RememberChoice(props: {
  chance: RememberChance;
  area: AreaChoice | undefined;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const { t } = useTranslation("delivery");
  const language = useLanguage();
  const { chance, area } = props;
  if (!chance.possible) {
    return (
      <Text as="p" tone="subdued">
        {t(chance.why === "no_address" ? "fix.rememberNoAddress" : "fix.rememberNoPlace")}
      </Text>
    );
  }
  const spelling = { spelling: chance.spelling };
  const sentence = !area
    ? withData(t("fix.rememberPickArea", { spelling: `${MARK}spelling${MARK}` }), spelling)
    : !area.rememberable
      ? t("fix.rememberAreaCannot", { area: choiceName(area, language) })
      : props.checked
        ? withData(
            t("fix.rememberYes", {
              spelling: `${MARK}spelling${MARK}`,
              area: choiceName(area, language),
            }),
            spelling,
          )
        : t("fix.rememberNo");
  return (
    <BlockStack gap="100">
      <Checkbox
        label={withData(t("fix.remember", { spelling: `${MARK}spelling${MARK}` }), spelling)}
        name="remember"
        checked={props.checked && (!area || area.rememberable)}
        disabled={area !== undefined && !area.rememberable}
        onChange={props.onChange}
      />
      <Text as="p" tone="subdued">
        <span data-remember-sentence>{sentence}</span>
      </Text>
    </BlockStack>
  );
}

/**
 * The fix page's form: the area (searchable in both languages), the address parts and the
 * customer's phone, kept as typed across a refused submission.
 */
export function CorrectionForm(props: {
  deliveryId: string;
  areas: AreaChoice[];
  remember: RememberChance;
  values: CorrectionValues;
  fieldErrors: Partial<Record<CorrectionField, string>>;
}) {
  const { t } = useTranslation("delivery");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const formError = useFormError();
  const [values, setValues] = useState(props.values);
  const set = (name: CorrectionField) => (value: string) =>
    setValues((current) => ({ ...current, [name]: value }));
  const error = (name: CorrectionField) => {
    const key = props.fieldErrors[name];
    return key ? formError(key) : undefined;
  };
  const area = props.areas.find((a) => String(a.id) === values.areaId);
  return (
    <Form method="post">
      <BlockStack gap="400">
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("fix.where")}
            </Text>
            <AreaPicker
              areas={props.areas}
              value={values.areaId}
              onChange={set("areaId")}
              error={error("areaId")}
            />
            <Text as="h3" variant="headingSm">
              {t("fix.parts")}
            </Text>
            <InlineGrid columns={{ xs: 2, sm: 4 }} gap="300">
              {PARTS.map((part) => (
                <TextField
                  key={part}
                  label={t(`address.${part}`)}
                  name={part}
                  value={values[part]}
                  onChange={set(part)}
                  error={error(part)}
                  autoComplete="off"
                  // The courier refuses an address without a block (ADR 0052).
                  requiredIndicator={part === "block"}
                  {...(part === "paci" ? { inputMode: "numeric" as const } : {})}
                />
              ))}
            </InlineGrid>
          </BlockStack>
        </Card>
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("fix.contact")}
            </Text>
            {/* The number reads left to right in both languages; its label and help do not. */}
            <style>{`.phone-field input { direction: ltr; text-align: start; }
[dir=rtl] .phone-field input { text-align: end; }`}</style>
            <div className="phone-field" style={{ maxWidth: "20rem" }}>
              <TextField
                label={t("fix.phone")}
                name="contactPhone"
                type="tel"
                value={values.contactPhone}
                onChange={set("contactPhone")}
                error={error("contactPhone")}
                helpText={t("fix.phoneHelp")}
                autoComplete="tel"
              />
            </div>
          </BlockStack>
        </Card>
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("fix.rememberTitle")}
            </Text>
            <RememberChoice
              chance={props.remember}
              area={area}
              checked={values.remember !== ""}
              onChange={(checked) => set("remember")(checked ? "on" : "")}
            />
          </BlockStack>
        </Card>
        <Box paddingInline={{ xs: "400", sm: "0" }}>
          <InlineStack gap="300" align="end">
            <Button url={`/app/deliveries/${props.deliveryId}`}>{t("fix.cancel")}</Button>
            <Button submit variant="primary" loading={busy}>
              {t("fix.send")}
            </Button>
          </InlineStack>
        </Box>
      </BlockStack>
    </Form>
  );
}

/** The outcome of a submission: what was done, or what to fix. */
export function CorrectionOutcome(props: {
  deliveryId: string;
  result:
    { ok: true; remembered: boolean; message?: string } | { ok: false; error?: string | Notice };
}) {
  const { t } = useTranslation("delivery");
  const formError = useFormError();
  const say = useNotice();
  const { result } = props;
  if (!result.ok) {
    if (!result.error) return null;
    return (
      <Banner tone="critical">
        {typeof result.error === "string" ? formError(result.error) : say(result.error)}
      </Banner>
    );
  }
  return (
    <Banner
      tone="success"
      action={{ content: t("fix.open"), url: `/app/deliveries/${props.deliveryId}` }}
    >
      {result.message
        ? formError(result.message)
        : result.remembered
          ? t("fix.sentRemembered")
          : t("fix.sent")}
    </Banner>
  );
}
