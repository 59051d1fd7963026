import type { TFunction } from "i18next";

/**
 * Sentences the services write for the merchant in English (a courier connection's outcome, a
 * delivery's reason) are looked up whole in the `messages` catalog, whose keys are those
 * sentences (i18next's natural-language keys). One not found there is shown as written.
 */
export function translateMessage(t: TFunction, message: string): string {
  return t(message, {
    ns: "messages",
    keySeparator: false,
    nsSeparator: false,
    defaultValue: message,
  });
}

/**
 * A delivery's recorded reason on a page: the catalog's sentence where it has one; on an Arabic
 * page otherwise the state's own explanation (`delivery:why.<state>`), never an English sentence
 * (the delivery's page quotes the recorded one), or nothing.
 */
export function reasonOnPage(
  t: TFunction,
  exists: (key: string) => boolean,
  language: string,
  state: string,
  reason: string | null,
): string | null {
  if (!reason) return null;
  const translated = translateMessage(t, reason);
  if (language === "en" || translated !== reason) return translated;
  const why = `delivery:why.${state}`;
  return exists(why) ? t(why) : null;
}
