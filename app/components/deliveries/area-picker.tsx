import { Autocomplete, Text } from "@shopify/polaris";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { areaSearchMatches, areaSearchRank } from "../../domain/area-search";
import type { AreaChoice } from "../../domain/area-choices";
import type { Language } from "../../i18n/config";
import { useLanguage } from "../../i18n/language";
import { areaName, governorateName } from "../../i18n/place-names";

/** An area's name in the page's language: the gazetteer's when it stands for one area. */
export function choiceName(choice: AreaChoice, language: Language): string {
  return (language === "ar" ? choice.ar : choice.en) ?? areaName(choice.courierName, language);
}

export function choiceLabel(choice: AreaChoice, language: Language): string {
  return `${choiceName(choice, language)} — ${governorateName(choice.governorate, language)}`;
}

const SHOWN = 40;

/**
 * The courier's areas, searchable by any name they go by: English, Arabic, the courier's own
 * spelling and transliterations («Salmiya», «السالمية», «slmya»). The chosen area's id is the
 * form's `areaId`.
 */
export function AreaPicker(props: {
  areas: AreaChoice[];
  value: string;
  onChange: (areaId: string) => void;
  error?: string;
}) {
  const { t } = useTranslation("delivery");
  const language = useLanguage();
  const chosen = props.areas.find((a) => String(a.id) === props.value);
  const [typed, setTyped] = useState(chosen ? choiceLabel(chosen, language) : "");
  const sorted = useMemo(
    () =>
      [...props.areas].sort((a, b) =>
        choiceName(a, language).localeCompare(choiceName(b, language), language),
      ),
    [props.areas, language],
  );
  const searching = chosen && typed === choiceLabel(chosen, language) ? "" : typed;
  const found = sorted.filter((a) => areaSearchMatches(a.search, searching));
  const ranked = searching
    ? found
        .map((a) => ({ a, rank: areaSearchRank(a.search, searching) }))
        .sort((x, y) => x.rank - y.rank)
        .map(({ a }) => a)
    : found;
  const options = ranked
    .slice(0, SHOWN)
    .map((a) => ({ value: String(a.id), label: choiceLabel(a, language) }));
  return (
    <>
      <Autocomplete
        options={options}
        selected={chosen ? [String(chosen.id)] : []}
        onSelect={([id]) => {
          const picked = props.areas.find((a) => String(a.id) === id);
          if (!picked) return;
          props.onChange(String(picked.id));
          setTyped(choiceLabel(picked, language));
        }}
        emptyState={
          <Text as="p" tone="subdued">
            {t("fix.noArea", { typed })}
          </Text>
        }
        textField={
          <Autocomplete.TextField
            label={t("fix.area")}
            value={typed}
            onChange={(value) => {
              setTyped(value);
              if (chosen) props.onChange("");
            }}
            placeholder={t("fix.areaPlaceholder")}
            helpText={t("fix.areaHelp")}
            error={props.error}
            autoComplete="off"
          />
        }
      />
      <input type="hidden" name="areaId" value={props.value} />
    </>
  );
}
