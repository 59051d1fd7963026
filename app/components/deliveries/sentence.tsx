import { Fragment, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Sentence } from "../../domain/timeline";
import { formatDateTime, formatKwd, formatNumber } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import { areaName, governorateName } from "../../i18n/place-names";

/** Parameters that are data (courier numbers, the courier's own words, a customer's spelling). */
const DATA_PARAMS = new Set(["number", "status", "name", "spelling", "typed"]);
const MARK = "\u0001";

/**
 * Puts a catalog sentence's data into it as isolated, untranslated runs: an order number in
 * Latin letters keeps its place and direction inside an Arabic sentence.
 */
export function withData(sentence: string, data: Record<string, string>): ReactNode {
  const pieces = sentence.split(new RegExp(`${MARK}(\\w+)${MARK}`));
  return pieces.map((piece, i) =>
    i % 2 === 1 ? (
      <bdi key={i} translate="no">
        {data[piece] ?? ""}
      </bdi>
    ) : (
      <Fragment key={i}>{piece}</Fragment>
    ),
  );
}

/**
 * A sentence of the `delivery` catalog with its parameters put into the page's language
 * (ADR 0043): `state` as the state's label, `amount` in KWD with three decimals, `at` in
 * Kuwait's time, `area`, `other` and `governorate` through the gazetteer, `percent` as a number; data parameters (numbers,
 * the courier's words) isolated and marked not to be translated.
 */
export function useSentence(): (sentence: Sentence) => ReactNode {
  const { t } = useTranslation(["delivery", "common"]);
  const language = useLanguage();
  return (sentence) => {
    const params: Record<string, string> = {};
    const data: Record<string, string> = {};
    for (const [name, value] of Object.entries(sentence.params)) {
      const text = String(value);
      if (DATA_PARAMS.has(name)) {
        params[name] = `${MARK}${name}${MARK}`;
        data[name] = text;
        continue;
      }
      params[name] =
        name === "state"
          ? t(`common:states.${text}`, { defaultValue: text })
          : name === "amount"
            ? formatKwd(text, language)
            : name === "at"
              ? formatDateTime(text, language)
              : name === "area" || name === "other"
                ? areaName(text, language)
                : name === "governorate"
                  ? governorateName(text, language)
                  : name === "percent" && typeof value === "number"
                    ? formatNumber(value, language)
                    : text;
    }
    return withData(t(sentence.key, { ns: "delivery", ...params }), data);
  };
}
