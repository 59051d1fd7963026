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
