import { API_KEY, API_SECRET_KEY, APP_URL } from "@shopify/shopify-api/test-helpers";

export const TEST_SCOPES =
  "read_orders,write_orders,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders,read_fulfillments,write_fulfillments,read_locations,write_shipping";

/** The key the courier sandbox accepts in tests. */
export const SANDBOX_KEY = "sandbox-test-key";

/** A fixed key for tests only: 32 bytes, base64. */
export const TEST_ENCRYPTION_KEYS = `t1:${Buffer.alloc(32, 7).toString("base64")}`;

/** The environment every test runs the app with (Shopify's published test credentials). */
export function testEnvironment(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: "test",
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET_KEY,
    SHOPIFY_APP_URL: APP_URL,
    SCOPES: TEST_SCOPES,
    ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    COURIER_SANDBOX_URL: "http://127.0.0.1:4010",
    // Tests run the worker's steps themselves, deterministically.
    DELIVERY_WORKER: "off",
    ...overrides,
  };
}

/**
 * The environment of a benchmark that runs the app in production mode in its own process. The
 * app is on loopback: production takes the library's test secret only there (app/env.server.ts).
 */
export function productionBenchEnvironment(
  overrides: Record<string, string> = {},
): Record<string, string> {
  return testEnvironment({
    NODE_ENV: "production",
    SHOPIFY_APP_URL: "http://127.0.0.1",
    ...overrides,
  });
}
