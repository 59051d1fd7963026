import { RemixI18Next } from "remix-i18next/server";
import { DEFAULT_LANGUAGE, i18nOptions, languageOf, LANGUAGES, type Language } from "./config";

/**
 * Server-side i18next (ADR 0040): words a loader or an action puts in its answer (a toast, an
 * error) and the language of pages nobody signed in to (the tracking page, error pages), from
 * `?lang=` then the browser's Accept-Language.
 */
export const remixI18next = new RemixI18Next({
  detection: {
    supportedLanguages: [...LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
    searchParamKey: "lang",
    order: ["searchParams", "header"],
  },
  i18next: i18nOptions,
});

export async function visitorLanguage(request: Request): Promise<Language> {
  return languageOf(await remixI18next.getLocale(request)) ?? DEFAULT_LANGUAGE;
}

/**
 * The shoppers' tracking page's language: the one they switched to (`?lang=`), else the one they
 * shopped in (the order's customer locale), else their browser's.
 */
export async function shopperLanguage(
  request: Request,
  shoppedIn: Language | null,
): Promise<Language> {
  const chosen = languageOf(new URL(request.url).searchParams.get("lang"));
  return chosen ?? shoppedIn ?? (await visitorLanguage(request));
}

/** The translation function of a language, for a loader's or an action's words. */
export function fixedT(language: Language, namespace = "common") {
  return remixI18next.getFixedT(language, namespace);
}
