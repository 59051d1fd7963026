import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { NOTICE_DATA_PARAMS, readNotice } from "../domain/notices";
import { formatKwd, formatNumber } from "../i18n/format";
import { useLanguage } from "../i18n/language";
import { withData } from "./deliveries/sentence";

const DATA = new Set<string>(NOTICE_DATA_PARAMS);
const MARK = "\u0001";

/**
 * What an action or a loader said (ADR 0045): its code read through zod, rendered from the
 * `notices` catalog in the page's language; `state` as the state's label, `amount` in KWD,
 * `count` as a number, data parameters (a reference, Shopify's own words) isolated and marked
 * not to be translated.
 */
export function useNotice(): (value: unknown) => ReactNode {
  const { t } = useTranslation(["notices", "common"]);
  const language = useLanguage();
  return (value) => {
    const { code, params: given } = readNotice(value);
    const params: Record<string, string> = {};
    const data: Record<string, string> = {};
    for (const [name, raw] of Object.entries(given)) {
      const text = String(raw);
      if (DATA.has(name)) {
        params[name] = `${MARK}${name}${MARK}`;
        data[name] = text;
      } else if (name === "state") {
        params[name] = t(`common:states.${text}`, { defaultValue: text });
      } else if (name === "amount") {
        params[name] = formatKwd(text, language);
      } else if (name === "count" && typeof raw === "number") {
        params[name] = formatNumber(raw, language);
      } else {
        params[name] = text;
      }
    }
    return withData(t(code, { ns: "notices", ...params }), data);
  };
}

/** One notice as a paragraph's text. */
export function NoticeText(props: { notice: unknown }) {
  const say = useNotice();
  return <>{say(props.notice)}</>;
}
