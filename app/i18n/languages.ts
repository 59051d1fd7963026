/**
 * The app's languages (ADR 0040), apart from their catalogs (config.ts): what the worker and the
 * models need to read a language — a staff member's choice, a customer's Shopify locale — where no
 * bundler loads the catalogs.
 */
export const LANGUAGES = ["en", "ar"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** "ar", "ar-KW", "AR" → "ar"; anything that is not one of the app's languages → null. */
export function languageOf(value: string | null | undefined): Language | null {
  const prefix = value?.trim().toLowerCase().split(/[-_]/)[0];
  return (LANGUAGES as readonly string[]).includes(prefix ?? "") ? (prefix as Language) : null;
}

export function directionOf(language: Language): "rtl" | "ltr" {
  return language === "ar" ? "rtl" : "ltr";
}
