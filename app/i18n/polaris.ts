import en from "@shopify/polaris/locales/en.json";
import type { Language } from "./config";
import ar from "./polaris-ar.json";

/**
 * Polaris's own words (pagination, filters, table selection, save bar…). Polaris ships no Arabic:
 * app/i18n/polaris-ar.json translates the components the app uses, and English fills in for any
 * part of a component it does not (ADR 0040; test/unit/i18n-catalogs.test.ts checks the keys).
 */
export const POLARIS_TRANSLATIONS: Record<Language, typeof en> = {
  en,
  ar: mergeDeep(en, ar) as typeof en,
};

function mergeDeep(base: unknown, over: unknown): unknown {
  if (typeof base !== "object" || base === null || typeof over !== "object" || over === null)
    return over ?? base;
  const merged: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(over as Record<string, unknown>))
    merged[key] = mergeDeep(merged[key], value);
  return merged;
}
