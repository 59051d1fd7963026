/**
 * A shop's domain as a merchant types it on the login page or a link carries it: `my-shop`,
 * `my-shop.myshopify.com`, `https://my-shop.myshopify.com/`, or the admin's
 * `admin.shopify.com/store/my-shop`. Anything else — another domain, characters a store handle
 * cannot have, a name longer than a DNS label — is not a shop: the caller says so and never echoes
 * it (a 10 MB "shop" once went into a Location header and a log line).
 */

/** A DNS label: what a store handle can be at most. */
const HANDLE = /^[a-z0-9][a-z0-9-]{0,62}$/;
const MAX_INPUT = 300;

/** The shop's `<handle>.myshopify.com`, or null when the input is not a shop. */
export function parseShopDomain(input: unknown): string | null {
  if (typeof input !== "string" || input.length > MAX_INPUT) return null;
  let value = input
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/\/+$/, "");
  const admin = /^admin\.shopify\.com\/store\/([^/]+)$/.exec(value);
  if (admin?.[1]) value = admin[1];
  const handle = value.endsWith(".myshopify.com")
    ? value.slice(0, -".myshopify.com".length)
    : value;
  return HANDLE.test(handle) ? `${handle}.myshopify.com` : null;
}
