import { BlockStack, Button, InlineError, InlineStack, Select, Text } from "@shopify/polaris";
import { useState, type ReactElement, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { dayFromParts, timeFromParts } from "../../domain/day-choice";
import { monthNames } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";

/**
 * A time and a day chosen from lists in the page's language: the browser's own time and date
 * boxes write "02:00 PM" and "mm/dd/yyyy" in the browser's language, whatever the page's.
 */

const pad = (n: number) => String(n).padStart(2, "0");
const HOURS = Array.from({ length: 24 }, (_, h) => ({ label: pad(h), value: pad(h) }));

/** Hours and minutes, Kuwait time; the form sends "HH:MM" under `name`. */
export function TimeChoice(props: {
  name: string;
  label: ReactNode;
  helpText?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | ReactElement;
}) {
  const { t } = useTranslation("settings");
  const [hour = "", minute = ""] = props.value.split(":");
  const minutes = ["00", "15", "30", "45"];
  // A minute saved before (or typed by an older page) stays on offer.
  if (minute !== "" && !minutes.includes(minute)) minutes.push(minute);
  const change = (h: string, m: string) => props.onChange(timeFromParts(h, m) ?? `${h}:${m}`);
  return (
    <fieldset style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }} id={`${props.name}-time`}>
      <BlockStack gap="100">
        <legend style={{ padding: 0 }}>
          <Text as="span">{props.label}</Text>
        </legend>
        <input type="hidden" name={props.name} value={props.value} />
        <InlineStack gap="200" wrap={false} blockAlign="end">
          <Select
            label={t("checkoutRates.choices.hour")}
            options={HOURS}
            value={hour}
            onChange={(h) => change(h, minute || "00")}
          />
          <Select
            label={t("checkoutRates.choices.minute")}
            options={minutes.sort().map((m) => ({ label: m, value: m }))}
            value={minute}
            onChange={(m) => change(hour || "00", m)}
          />
        </InlineStack>
        {props.error ? (
          <InlineError message={props.error} fieldID={`${props.name}-time`} />
        ) : (
          props.helpText && (
            <Text as="p" tone="subdued">
              {props.helpText}
            </Text>
          )
        )}
      </BlockStack>
    </fieldset>
  );
}

/** A day, month and year with an Add button; a day the month lacks is said, not added. */
export function DayChoice(props: {
  id: string;
  label: string;
  addLabel: string;
  today: string;
  onAdd: (day: string) => void;
  error?: string;
}) {
  const { t } = useTranslation("settings");
  const language = useLanguage();
  const [year, month, day] = props.today.split("-");
  const [parts, setParts] = useState({ day: day ?? "1", month: month ?? "1", year: year ?? "" });
  const [wrong, setWrong] = useState(false);
  const thisYear = Number(year);
  const set = (key: keyof typeof parts) => (value: string) => {
    setWrong(false);
    setParts((p) => ({ ...p, [key]: value }));
  };
  const add = () => {
    const chosen = dayFromParts(parts.day, parts.month, parts.year);
    if (!chosen) return setWrong(true);
    props.onAdd(chosen);
  };
  const error = wrong ? t("checkoutRates.errors.holidayDay") : props.error;
  return (
    <fieldset style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }} id={props.id}>
      <BlockStack gap="100">
        <legend style={{ padding: 0 }}>
          <Text as="span">{props.label}</Text>
        </legend>
        <InlineStack gap="200" blockAlign="end">
          <Select
            label={t("checkoutRates.choices.day")}
            options={Array.from({ length: 31 }, (_, i) => ({
              label: String(i + 1),
              value: pad(i + 1),
            }))}
            value={pad(Number(parts.day))}
            onChange={set("day")}
          />
          <Select
            label={t("checkoutRates.choices.month")}
            options={monthNames(language).map((name, i) => ({ label: name, value: pad(i + 1) }))}
            value={pad(Number(parts.month))}
            onChange={set("month")}
          />
          <Select
            label={t("checkoutRates.choices.year")}
            options={[thisYear, thisYear + 1, thisYear + 2].map((y) => ({
              label: String(y),
              value: String(y),
            }))}
            value={parts.year}
            onChange={set("year")}
          />
          <Button onClick={add}>{props.addLabel}</Button>
        </InlineStack>
        {error && <InlineError message={error} fieldID={props.id} />}
      </BlockStack>
    </fieldset>
  );
}
