import { InlineStack, Select, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { monthNames } from "../i18n/format";
import { useLanguage } from "../i18n/language";

/**
 * A day chosen as day, month and year in the page's language (the browser's date box writes
 * "11/29/2026" in the browser's language); the form sends "YYYY-MM-DD" under `name`. A month
 * shorter than the day chosen moves the day to its last, so the day always exists.
 */
const pad = (n: number) => String(n).padStart(2, "0");

export function DaySelect(props: {
  name: string;
  label: string;
  value: string;
  onChange: (day: string) => void;
}) {
  const { t } = useTranslation("common");
  const language = useLanguage();
  const [y = "2026", m = "01", d = "01"] = props.value.split("-");
  const year = Number(y);
  const set = (next: { y?: number; m?: number; d?: number }) => {
    const ny = next.y ?? year;
    const nm = next.m ?? Number(m);
    const last = new Date(Date.UTC(ny, nm, 0)).getUTCDate();
    props.onChange(`${ny}-${pad(nm)}-${pad(Math.min(next.d ?? Number(d), last))}`);
  };
  return (
    <fieldset style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
      <legend style={{ padding: 0, marginBottom: "var(--p-space-100)" }}>
        <Text as="span">{props.label}</Text>
      </legend>
      <input type="hidden" name={props.name} value={props.value} />
      <InlineStack gap="100" wrap={false}>
        <Select
          label={t("day.day")}
          labelHidden
          options={Array.from({ length: 31 }, (_, i) => ({
            label: String(i + 1),
            value: pad(i + 1),
          }))}
          value={d}
          onChange={(v) => set({ d: Number(v) })}
        />
        <Select
          label={t("day.month")}
          labelHidden
          options={monthNames(language).map((label, i) => ({ label, value: pad(i + 1) }))}
          value={m}
          onChange={(v) => set({ m: Number(v) })}
        />
        <Select
          label={t("day.year")}
          labelHidden
          options={[year - 1, year, year + 1].map((v) => ({ label: String(v), value: String(v) }))}
          value={String(year)}
          onChange={(v) => set({ y: Number(v) })}
        />
      </InlineStack>
    </fieldset>
  );
}
