import type { InitOptions, Resource } from "i18next";

/**
 * The app's languages (ADR 0040). Catalogs are app/i18n/locales/<language>/<namespace>.json, one
 * namespace per page or area; every file is bundled, so a page never waits for its words.
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

const files = import.meta.glob<{ default: Record<string, unknown> }>("./locales/*/*.json", {
  eager: true,
});

/** Every catalog, as i18next's resources: { en: { common: {...}, settings: {...} }, ar: {...} }. */
export const resources: Resource = {};
for (const [file, module] of Object.entries(files)) {
  const [, language, namespace] = /\.\/locales\/(\w+)\/([\w-]+)\.json$/.exec(file) ?? [];
  if (!language || !namespace) continue;
  (resources[language] ??= {})[namespace] = module.default;
}

export const NAMESPACES = [...new Set(Object.values(resources).flatMap((r) => Object.keys(r)))];

export const i18nOptions = {
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  defaultNS: "common",
  ns: NAMESPACES,
  resources,
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
} satisfies InitOptions;
