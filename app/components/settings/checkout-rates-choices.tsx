import { Form } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  Divider,
  InlineGrid,
  InlineStack,
  Tag,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { kuwaitDay } from "../../domain/working-days";
import { readRateChoices, type RateField } from "../../domain/rate-choices-form";
import type {
  CheckoutRatesActionResult,
  CheckoutRatesSectionData,
} from "../../pages/checkout-rates-settings.server";
import type { RateChoices } from "../../domain/checkout-rates";
import { formatKwd, formatLongDay, formatNumber } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import { HiddenAreasPicker } from "./checkout-rates-areas";
import { DayChoice, TimeChoice } from "./day-time-choices";
import { RatePreview } from "./checkout-rates-preview";
import { keepEdits } from "./keep-edits";

/**
 * The merchant's choices for checkout rates, their own form: the fallback rate, the margin, free
 * delivery, the promise (cut-off, preparation, holidays) and the areas not served, with what a
 * shopper would read at checkout now. A refused save names each field to fix and keeps the rest.
 */

type Values = Record<RateField, string>;
const list = (text: string) => text.split("\n").filter((line) => line.trim() !== "");

export function RateChoicesCard(props: {
  rates: CheckoutRatesSectionData;
  result: CheckoutRatesActionResult | undefined;
  busyIntent: FormDataEntryValue | null | undefined;
}) {
  const { rates, result } = props;
  const { t } = useTranslation("settings");
  const language = useLanguage();
  const saved = rates.choices;
  const [values, setValues] = useState<Values>(saved);
  // Another form reloading the page's data keeps what was typed here (keep-edits.ts).
  const storedBefore = useRef(saved);
  useEffect(() => {
    const previous = storedBefore.current;
    storedBefore.current = saved;
    setValues((current) => keepEdits(current, previous, saved));
  }, [saved]);
  const errors = result && !result.ok && "errors" in result ? result.errors : {};
  const error = (field: RateField) => {
    const key = errors[field];
    return key ? t(key) : undefined;
  };
  const set = (field: RateField) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  /** An amount the merchant types (KWD or a percentage): one field, its label, unit and help. */
  const amount = (
    field: "fallbackRate" | "marginFixed" | "marginPercent" | "freeAbove",
    label: string,
    suffix: string,
    helpText?: string,
  ) => (
    <TextField
      label={t(`checkoutRates.choices.${label}`)}
      name={field}
      value={values[field]}
      onChange={set(field)}
      inputMode="decimal"
      autoComplete="off"
      suffix={suffix}
      helpText={helpText ? t(`checkoutRates.choices.${helpText}`) : undefined}
      error={error(field)}
    />
  );
  const holidays = list(values.holidays);
  const addHoliday = (day: string) =>
    set("holidays")([...new Set([...holidays, day])].sort().join("\n"));
  const removeHoliday = (day: string) =>
    set("holidays")(holidays.filter((d) => d !== day).join("\n"));
  // The preview follows what is typed once it reads; until then, what is saved.
  const typed = useMemo(() => readRateChoices(values), [values]);
  const shown = useMemo(() => {
    if (typed.ok) return typed.choices;
    const stored = readRateChoices(saved);
    return stored.ok ? stored.choices : null;
  }, [typed, saved]);
  const today = kuwaitDay(new Date(rates.now));
  const currency = t("checkoutRates.choices.currency");
  // While rates are off the choices reach no shopper: they are most of Settings on a phone, so
  // they stay folded behind what they are now, until the merchant opens them or a save is refused.
  const needsMerchant = rates.enabled || Object.keys(errors).length > 0;
  const [open, setOpen] = useState(needsMerchant);
  if (!open && !needsMerchant) {
    return (
      <Card>
        <BlockStack gap="300">
          <Text as="h3" variant="headingSm">
            {t("checkoutRates.choices.title")}
          </Text>
          {shown && (
            <BlockStack gap="100">
              <Text as="p" tone="subdued">
                {t("checkoutRates.summary.intro")}
              </Text>
              <ChoicesSummary choices={shown} />
            </BlockStack>
          )}
          <InlineStack>
            <Button variant="plain" onClick={() => setOpen(true)} ariaExpanded={false}>
              {t("checkoutRates.choices.show")}
            </Button>
          </InlineStack>
        </BlockStack>
      </Card>
    );
  }

  return (
    <Card>
      <Form method="post">
        <input type="hidden" name="intent" value="rates-save" />
        <input type="hidden" name="holidays" value={values.holidays} />
        <input type="hidden" name="hiddenAreas" value={values.hiddenAreas} />
        <BlockStack gap="400">
          <Text as="h3" variant="headingSm">
            {t("checkoutRates.choices.title")}
          </Text>
          {Object.keys(errors).length > 0 && (
            <Banner tone="critical">{t("checkoutRates.errors.fixFields")}</Banner>
          )}
          {amount("fallbackRate", "fallback", currency, "fallbackHelp")}
          <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
            {amount("marginFixed", "marginFixed", currency)}
            {amount("marginPercent", "marginPercent", "%")}
          </InlineGrid>
          <Text as="p" tone="subdued">
            {t("checkoutRates.choices.marginHelp")}
          </Text>
          {amount("freeAbove", "freeAbove", currency, "freeAboveHelp")}
          <Divider />
          <Text as="h4" variant="headingXs">
            {t("checkoutRates.choices.promiseTitle")}
          </Text>
          <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
            <TimeChoice
              label={t("checkoutRates.choices.cutoff")}
              name="cutoff"
              value={values.cutoff}
              onChange={set("cutoff")}
              helpText={t("checkoutRates.choices.cutoffHelp")}
              error={error("cutoff")}
            />
            <TextField
              label={t("checkoutRates.choices.preparationDays")}
              name="preparationDays"
              type="number"
              min={0}
              max={10}
              value={values.preparationDays}
              onChange={set("preparationDays")}
              autoComplete="off"
              helpText={t("checkoutRates.choices.preparationHelp")}
              error={error("preparationDays")}
            />
          </InlineGrid>
          <BlockStack gap="200">
            <DayChoice
              id="holiday-to-add"
              label={t("checkoutRates.choices.holidays")}
              addLabel={t("checkoutRates.choices.addHoliday")}
              today={today}
              onAdd={addHoliday}
              error={error("holidays")}
            />
            <Text as="p" tone="subdued">
              {t("checkoutRates.choices.holidaysHelp")}
            </Text>
            {holidays.length === 0 ? (
              <Text as="p" tone="subdued">
                {t("checkoutRates.choices.noHolidays")}
              </Text>
            ) : (
              <InlineStack gap="200" wrap>
                {holidays.map((day) => (
                  <Tag
                    key={day}
                    onRemove={() => removeHoliday(day)}
                    accessibilityLabel={t("checkoutRates.choices.removeHoliday", {
                      day: formatLongDay(day, language),
                    })}
                  >
                    {day < today
                      ? t("checkoutRates.choices.pastHoliday", {
                          day: formatLongDay(day, language),
                        })
                      : formatLongDay(day, language)}
                  </Tag>
                ))}
              </InlineStack>
            )}
          </BlockStack>
          <Divider />
          <HiddenAreasPicker
            chosen={list(values.hiddenAreas)}
            onChange={(names) => set("hiddenAreas")(names.join("\n"))}
            error={error("hiddenAreas")}
          />
          <Divider />
          {shown && <RatePreview choices={shown} now={rates.now} courierName={rates.courierName} />}
          <InlineStack>
            <Button submit variant="primary" loading={props.busyIntent === "rates-save"}>
              {t("checkoutRates.choices.save")}
            </Button>
          </InlineStack>
        </BlockStack>
      </Form>
    </Card>
  );
}

/** The choices in a few words, for the folded card: "Fallback rate 2.000 KWD · …". */
function ChoicesSummary({ choices }: { choices: RateChoices }) {
  const { t } = useTranslation("settings");
  const language = useLanguage();
  const kwd = (fils: number) => formatKwd(fils / 1000, language);
  const time = `${String(Math.floor(choices.cutoffMinutes / 60)).padStart(2, "0")}:${String(
    choices.cutoffMinutes % 60,
  ).padStart(2, "0")}`;
  const facts = [
    t("checkoutRates.summary.fallback", { amount: kwd(choices.fallbackFils) }),
    choices.marginFils === 0 && choices.marginBasisPoints === 0
      ? t("checkoutRates.summary.noMargin")
      : t("checkoutRates.summary.margin", {
          amount: [
            choices.marginFils > 0 ? kwd(choices.marginFils) : null,
            choices.marginBasisPoints > 0
              ? t("checkoutRates.summary.percent", {
                  n: formatNumber(choices.marginBasisPoints / 100, language),
                })
              : null,
          ]
            .filter(Boolean)
            .join(" + "),
        }),
    choices.freeAboveFils === null
      ? t("checkoutRates.summary.noFree")
      : t("checkoutRates.summary.free", { amount: kwd(choices.freeAboveFils) }),
    t("checkoutRates.summary.promise", {
      time,
      n: formatNumber(choices.preparationDays, language),
    }),
    t("checkoutRates.summary.holidays", { n: formatNumber(choices.holidays.length, language) }),
    t("checkoutRates.summary.hidden", { n: formatNumber(choices.hiddenAreas.length, language) }),
  ];
  return (
    <ul data-rate-choices-summary style={{ margin: 0, paddingInlineStart: "1.25rem" }}>
      {facts.map((fact) => (
        <li key={fact}>
          <Text as="span">{fact}</Text>
        </li>
      ))}
    </ul>
  );
}
