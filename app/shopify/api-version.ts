import { ApiVersion } from "@shopify/shopify-api";

/**
 * The one Admin API version the app speaks: the library, every query and `shopify.app.toml`
 * (`[webhooks] api_version`, checked by a test) all use it. The newest stable version that
 * @shopify/shopify-api 15 knows.
 */
export const ADMIN_API_VERSION = ApiVersion.October26;
