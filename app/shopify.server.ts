import "@shopify/shopify-app-remix/adapters/node";
import { InvalidShopError } from "@shopify/shopify-api";
import { AppDistribution, LogSeverity, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import prisma from "./db.server";
import { env } from "./env.server";
import { ensureShopInstalled } from "./models/shop.server";
import { clearShopifyAccessLost } from "./models/shopify-access.server";
import { SealedSessionStorage } from "./security/sealed-session-storage";
import { ADMIN_API_VERSION } from "./shopify/api-version";

const config = env();

const shopify = shopifyApp({
  apiKey: config.SHOPIFY_API_KEY,
  apiSecretKey: config.SHOPIFY_API_SECRET,
  apiVersion: ADMIN_API_VERSION,
  scopes: config.SCOPES,
  appUrl: config.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  // Access and refresh tokens sealed at rest, on SQLite and PostgreSQL alike (ADR 0012).
  sessionStorage: new SealedSessionStorage(
    new PrismaSessionStorage(prisma),
    () => config.ENCRYPTION_KEYS,
  ),
  distribution: AppDistribution.AppStore,
  isEmbeddedApp: true,
  future: {
    // Embedded token exchange: Shopify manages installation and scopes (shopify.app.toml).
    unstable_newEmbeddedAuthStrategy: true,
    expiringOfflineAccessTokens: true,
  },
  hooks: {
    // Runs after token exchange: on install, and on the first visit after a reinstall.
    afterAuth: async ({ session }) => {
      await ensureShopInstalled(session.shop, session.scope);
      // A new token and refresh token: access that could not be renewed is back (ADR 0015).
      await clearShopifyAccessLost(session.shop);
    },
  },
  logger: {
    level: config.NODE_ENV === "production" ? LogSeverity.Info : LogSeverity.Warning,
  },
});

export default shopify;
export const apiVersion = ADMIN_API_VERSION;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = {
  ...shopify.authenticate,
  admin: (async (request: Request) => {
    try {
      return await shopify.authenticate.admin(request);
    } catch (error) {
      // A session token, correctly signed, whose `dest` is not a shop's admin (another site, or
      // not a URL) made the library throw: a 500 for a request to refuse (issue 24).
      if (error instanceof InvalidShopError || isInvalidUrl(error))
        throw new Response("Unauthorized", { status: 401 });
      throw error;
    }
  }) as typeof shopify.authenticate.admin,
};

function isInvalidUrl(error: unknown): boolean {
  return error instanceof TypeError && (error as { code?: unknown }).code === "ERR_INVALID_URL";
}
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const registerWebhooks = shopify.registerWebhooks;
export const sessionStorage = shopify.sessionStorage;
