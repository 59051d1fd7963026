/**
 * The words of the pages a visitor sees when something is missing or goes wrong, in one place so
 * that the Arabic catalog can sit beside them. Merchant and customer words only: no status codes
 * beyond the number, no stack, no paths.
 */
export const ERROR_PAGES = {
  notFound: {
    title: "Page not found",
    body: "There is no page at this address. Check the link, or open the app from your Shopify admin.",
  },
  badLink: {
    title: "This link is not valid",
    body: "This link is not valid. Open the app from your Shopify admin.",
  },
  tooManyRequests: {
    title: "Too many requests",
    body: "Too many requests came from your address. Wait a minute and try again.",
  },
  serverError: {
    title: "Something went wrong",
    body: "Something went wrong on our side. Try again in a moment; if it keeps happening, contact the store.",
  },
} as const;

export type ErrorPage = (typeof ERROR_PAGES)[keyof typeof ERROR_PAGES];

/** The page for an HTTP status. */
export function errorPageFor(status: number): ErrorPage {
  if (status === 404) return ERROR_PAGES.notFound;
  if (status === 429) return ERROR_PAGES.tooManyRequests;
  if (status >= 400 && status < 500) return ERROR_PAGES.badLink;
  return ERROR_PAGES.serverError;
}
