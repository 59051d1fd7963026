/**
 * Which page a visitor sees when something is missing or goes wrong; its words are in the
 * `errors` catalog (app/i18n/locales/<language>/errors.json). Merchant and customer words only:
 * no status codes beyond the number, no stack, no paths.
 */
export type ErrorPageKey = "notFound" | "badLink" | "tooManyRequests" | "serverError";

/** The page for an HTTP status. */
export function errorPageFor(status: number): ErrorPageKey {
  if (status === 404) return "notFound";
  if (status === 429) return "tooManyRequests";
  if (status >= 400 && status < 500) return "badLink";
  return "serverError";
}
