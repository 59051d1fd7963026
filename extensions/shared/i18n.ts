import { AppApiError } from "./api";
import type { Translate } from "./deliveries";

/** The admin's translate, narrowed to the strings the extensions put in text. */
export function translator(i18n: {
  translate: (key: string, options?: Record<string, unknown>) => unknown;
}): Translate {
  return (key, replacements) => String(i18n.translate(key, replacements));
}

/**
 * What went wrong, for the merchant: the app's own words when it gave them (`{ error }`), else the
 * extension's text in the merchant's language for an app that did not answer, a session it did
 * not accept, or any other failure. Each extension's locales have `error.unreachable`,
 * `error.session` and `error.failed`.
 */
export function errorText(error: unknown, t: Translate): string {
  if (error instanceof AppApiError) {
    if (error.fromApp) return error.message;
    if (error.status === 0) return t("error.unreachable");
    if (error.status === 401 || error.status === 403) return t("error.session");
    return t("error.failed", { status: error.status });
  }
  return t("error.failed", { status: error instanceof Error ? error.message : String(error) });
}
