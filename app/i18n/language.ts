import { useMatches } from "@remix-run/react";
import { DEFAULT_LANGUAGE, languageOf, type Language } from "./config";

interface MatchLike {
  data?: unknown;
}

/**
 * The page's language: the deepest route that decided one (`locale` in its loader data: the
 * admin layout from the staff member's choice, the tracking page from the shopper's) wins over
 * the root's guess from the browser.
 */
export function languageFromMatches(matches: readonly MatchLike[]): Language {
  for (let i = matches.length - 1; i >= 0; i--) {
    const data = matches[i]?.data;
    if (data && typeof data === "object" && "locale" in data) {
      const language = languageOf(String((data as { locale: unknown }).locale));
      if (language) return language;
    }
  }
  return DEFAULT_LANGUAGE;
}

export function useLanguage(): Language {
  return languageFromMatches(useMatches());
}
