import type { Translate } from "./deliveries";

/** The admin's translate, narrowed to the strings the extensions put in text. */
export function translator(i18n: {
  translate: (key: string, options?: Record<string, unknown>) => unknown;
}): Translate {
  return (key, replacements) => String(i18n.translate(key, replacements));
}
