import type { InitOptions, Resource } from "i18next";
import { DEFAULT_LANGUAGE, LANGUAGES } from "./languages";

export { DEFAULT_LANGUAGE, directionOf, languageOf, LANGUAGES, type Language } from "./languages";

/**
 * Catalogs are app/i18n/locales/<language>/<namespace>.json, one namespace per page or area
 * (ADR 0040); every file is bundled, so a page never waits for its words.
 */
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
