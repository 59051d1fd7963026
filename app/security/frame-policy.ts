/**
 * Who may frame a page (ADR 0012). Shopify's admin frames the app's pages, so they name the admin
 * and the shop — but only the shop of a verified session token: `?shop=` is whatever the link
 * says. The library's own `addDocumentResponseHeaders` takes it from `?shop=`, so the app does
 * not use it. Pages that are not part of the embedded app (login, tracking, errors) cannot be
 * framed at all; server.js gives every other response the same default.
 */

const COMMON = "base-uri 'self'; object-src 'none'";

/** The unified Shopify admin, which frames embedded apps. */
export const SHOPIFY_ADMIN_ORIGIN = "https://admin.shopify.com";

/** Not embedded: nobody may frame it. */
export const NOT_FRAMEABLE_CSP = `frame-ancestors 'none'; ${COMMON}`;

/**
 * An embedded page whose shop the app verified (a session token): the admin and that shop's own
 * admin domain may frame it.
 */
export function embeddedPageCsp(verifiedShop: string): string {
  return `frame-ancestors https://${verifiedShop} ${SHOPIFY_ADMIN_ORIGIN}; ${COMMON}`;
}

/**
 * An embedded page rendered before any shop is verified (the library's App Bridge bounce and
 * exit-iframe pages, which fetch a session token): only the admin may frame it.
 */
export const UNVERIFIED_EMBEDDED_CSP = `frame-ancestors ${SHOPIFY_ADMIN_ORIGIN}; ${COMMON}`;

/** The headers of an embedded page for a verified shop, as its loader returns them. */
export function embeddedPageHeaders(verifiedShop: string): Headers {
  return new Headers({
    "Content-Security-Policy": embeddedPageCsp(verifiedShop),
    // App Bridge is the first script the page needs.
    Link: '<https://cdn.shopify.com/shopifycloud/app-bridge.js>; rel="preload"; as="script"',
  });
}

/**
 * Sets the frame policy of a document: the one its route set (an embedded page with its verified
 * shop) or, when it set none, not frameable.
 */
export function applyDocumentFramePolicy(headers: Headers): void {
  if (!headers.has("Content-Security-Policy")) {
    headers.set("Content-Security-Policy", NOT_FRAMEABLE_CSP);
    headers.set("X-Frame-Options", "DENY");
  }
}
