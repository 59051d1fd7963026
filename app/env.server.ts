import { z } from "zod";
import { GRAPH_API_URL } from "./whatsapp/client";

/**
 * The app's environment, parsed once at boot. A missing or malformed value stops the app with a
 * message that names the variable and says what it should look like.
 */
export type AppEnv = z.infer<typeof envSchema>;

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `The app cannot start: its environment is incomplete or wrong.\n${problems
        .map((p) => `  - ${p}`)
        .join("\n")}\nSee .env.example for every variable and an example value.`,
    );
    this.name = "EnvError";
  }
}

const KEY_BYTES = 32;

/** `id:base64` pairs, comma separated; the first one encrypts, all of them decrypt (rotation). */
const encryptionKeys = z.string().transform((raw, ctx) => {
  const keys: { id: string; key: Buffer }[] = [];
  for (const part of raw
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([A-Za-z0-9_-]{1,32}):([A-Za-z0-9+/=]+)$/.exec(part);
    const key = match?.[2] ? Buffer.from(match[2], "base64") : undefined;
    if (!match?.[1] || !key || key.length !== KEY_BYTES) {
      ctx.addIssue({
        code: "custom",
        message: `each entry must be "<id>:<base64 of ${KEY_BYTES} random bytes>", e.g. "k1:$(openssl rand -base64 32)"`,
      });
      return z.NEVER;
    }
    if (keys.some((k) => k.id === match[1])) {
      ctx.addIssue({ code: "custom", message: `key id "${match[1]}" appears twice` });
      return z.NEVER;
    }
    keys.push({ id: match[1], key });
  }
  if (keys.length === 0) {
    ctx.addIssue({ code: "custom", message: 'at least one key, e.g. "k1:<base64 of 32 bytes>"' });
    return z.NEVER;
  }
  return keys;
});

const httpUrl = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === "http:" || u.protocol === "https:";
      } catch {
        return false;
      }
    }, `${what} must be an absolute http(s) URL, e.g. https://example.com`)
    .transform((v) => v.replace(/\/+$/, ""));

/**
 * Values copied from an example file rather than the Partner Dashboard ("your-client-secret",
 * "REPLACE_WITH_…", "changeme", "<secret>"): an app signing webhooks with one would accept
 * anyone's forgeries, so it does not start.
 */
const PLACEHOLDER = /^(your[-_ ]|replace|change[-_ ]?me$|<.*>$|placeholder|example|x{3,}$|todo$)/i;

const dashboardValue = (what: string) =>
  z
    .string()
    .trim()
    .refine(
      (v) => !PLACEHOLDER.test(v),
      `this is a placeholder, not ${what}: copy the real one from the Partner Dashboard (Apps → your app → Client credentials)`,
    );

/** Where the local courier sandbox (`npm run sandbox`) listens; never assumed in production. */
export const LOCAL_COURIER_SANDBOX_URL = "http://127.0.0.1:4010";

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    SHOPIFY_API_KEY: dashboardValue("the app's client id"),
    SHOPIFY_API_SECRET: dashboardValue("the app's client secret"),
    SHOPIFY_APP_URL: httpUrl("the public URL Shopify loads the app from"),
    SCOPES: z
      .string()
      .trim()
      .transform((v) =>
        v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    // Removed: @shopify/shopify-api dropped `customShopDomains`; its successor,
    // `domainTransformations`, serves Shopify's own split-domain setups, not merchants' stores.
    SHOP_CUSTOM_DOMAIN: z
      .undefined({
        error:
          "no longer supported (the Shopify library removed custom shop domains): remove it. Shops on myshopify.com and admin.shopify.com are always accepted",
      })
      .optional(),
    DATABASE_URL: z
      .string()
      .trim()
      .default("file:./data/app.sqlite")
      .refine(
        (v) => v.startsWith("file:") || /^postgres(ql)?:\/\/[^/]/.test(v),
        'a SQLite file URL such as "file:./data/app.sqlite" (one instance; the path is relative to the working directory) or a PostgreSQL URL such as "postgresql://user:password@host:5432/app" (several instances, ADR 0009)',
      ),
    ENCRYPTION_KEYS: encryptionKeys,
    // Defaults to the local sandbox outside production only (see the transform below).
    COURIER_SANDBOX_URL: httpUrl("the courier's sandbox base URL").optional(),
    COURIER_PRODUCTION_URL: httpUrl("the courier's production base URL").optional(),
    COURIER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
    // Shown to customers as the carrier of the tracking number.
    COURIER_DISPLAY_NAME: z.string().trim().min(1).max(60).default("Courier"),
    // "off" stops the in-process delivery worker and tracking sync: tests, and web instances on
    // PostgreSQL when `npm run worker` processes do the work (ADR 0009).
    DELIVERY_WORKER: z.enum(["on", "off"]).default("on"),
    // Where WhatsApp messages are sent (Meta's Graph API); tests and the demo point it at the
    // stand-in (sandbox/whatsapp).
    WHATSAPP_API_URL: httpUrl("the WhatsApp Cloud API base URL").default(GRAPH_API_URL),
    // How long a message whose send got no clear answer waits for Meta's status callback before
    // it is sent again (ADR 0058); shorter only in benchmarks.
    WHATSAPP_CONFIRM_WAIT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(600_000),
    // Shopify's rate requests (checkout rates, ADR 0062) carry X-Shopify-Hmac-Sha256 like its
    // webhooks: "required" refuses one without it; "when-present" takes an unsigned one on the
    // strength of the unguessable callback URL alone (only if a development store shows Shopify
    // does not sign them). A wrong signature is always refused.
    CHECKOUT_RATES_SIGNATURE: z.enum(["required", "when-present"]).default("required"),
    // Offline demo only: where pages load App Bridge from instead of Shopify's CDN.
    APP_BRIDGE_URL: httpUrl("the App Bridge script URL").optional(),
  })
  .superRefine((env, ctx) => {
    if (env.COURIER_PRODUCTION_URL && !env.COURIER_PRODUCTION_URL.startsWith("https://")) {
      ctx.addIssue({
        code: "custom",
        path: ["COURIER_PRODUCTION_URL"],
        message: "must use https: the API key travels in a header",
      });
    }
  })
  .transform((env) => ({
    ...env,
    COURIER_SANDBOX_URL:
      env.COURIER_SANDBOX_URL ??
      (env.NODE_ENV === "production" ? undefined : LOCAL_COURIER_SANDBOX_URL),
  }));

/** Parses an environment (usually `process.env`); throws {@link EnvError} listing every problem. */
export function parseEnv(source: Record<string, string | undefined>): AppEnv {
  // Empty strings count as unset, so `FOO=` in a .env file gets the default or a clear error.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v.trim() !== ""),
  );
  const result = envSchema.safeParse(cleaned);
  // Checked apart from the schema, whose refinements wait for every field to be valid: each
  // variable to fix is named at once.
  const unsafe = productionProblems(cleaned);
  if (result.success && unsafe.length === 0) return result.data;
  throw new EnvError([
    ...(result.success ? [] : result.error.issues).map((issue) => {
      const name = issue.path.join(".") || "environment";
      const missing = issue.code === "invalid_type" && cleaned[name] === undefined;
      return missing
        ? `${name} is missing: ${describe(name)}`
        : `${name} is invalid: ${issue.message}`;
    }),
    ...unsafe,
  ]);
}

/** @shopify/shopify-api's published test secret (its test helpers sign with it). */
const LIBRARY_TEST_SECRET = "testApiSecretKey";

/**
 * What production refuses although it parses: an app URL without https, and the Shopify
 * library's test secret, with which anyone can sign webhooks and session tokens. A loopback app
 * URL is no deployment Shopify reaches (the built server run by tests, benchmarks and the demo on
 * this machine): both are taken there.
 */
function productionProblems(source: Record<string, string | undefined>): string[] {
  if (source.NODE_ENV !== "production") return [];
  let url: URL | null = null;
  try {
    url = source.SHOPIFY_APP_URL ? new URL(source.SHOPIFY_APP_URL.trim()) : null;
  } catch {
    // Malformed: the schema says so.
  }
  const problems: string[] = [];
  // Whatever the app's own URL: the token goes to this address from the server.
  const whatsApp = parsedUrl(source.WHATSAPP_API_URL);
  if (whatsApp?.protocol === "http:" && !isLoopback(whatsApp)) {
    problems.push(
      "WHATSAPP_API_URL is invalid: must use https in production (each merchant's WhatsApp access token travels in a header); http is taken only for a loopback address such as the stand-in's http://127.0.0.1:4020",
    );
  }
  if (url && isLoopback(url)) return problems;
  if (url?.protocol === "http:") {
    problems.push(
      "SHOPIFY_APP_URL is invalid: must use https in production (Shopify's admin loads the app and sends it session tokens there); http is taken only for a loopback address such as http://127.0.0.1:3000",
    );
  }
  if (source.SHOPIFY_API_SECRET?.trim() === LIBRARY_TEST_SECRET) {
    problems.push(
      "SHOPIFY_API_SECRET is invalid: this is the Shopify library's published test secret, with which anyone can sign webhooks and session tokens: copy the real one from the Partner Dashboard (Apps → your app → Client credentials)",
    );
  }
  return problems;
}

function parsedUrl(value: string | undefined): URL | null {
  try {
    return value ? new URL(value.trim()) : null;
  } catch {
    return null;
  }
}

function isLoopback(url: URL): boolean {
  const host = url.hostname;
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

function describe(name: string): string {
  return hints[name] ?? "see .env.example";
}

const hints: Record<string, string> = {
  SHOPIFY_API_KEY:
    "the app's client id from the Partner Dashboard (the Shopify CLI sets it in dev)",
  SHOPIFY_API_SECRET: "the app's client secret from the Partner Dashboard",
  SHOPIFY_APP_URL: "the public https URL of the app, e.g. https://courier.example.com",
  SCOPES: 'comma-separated access scopes, e.g. "read_orders,write_fulfillments"',
  ENCRYPTION_KEYS: '"<id>:<base64 of 32 random bytes>", e.g. "k1:$(openssl rand -base64 32)"',
};

let cached: AppEnv | undefined;

/** The process environment, parsed on first use and then kept. */
export function env(): AppEnv {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Forgets the parsed environment, so tests can point the app at a sandbox they just started. */
export function resetEnvForTests(): void {
  cached = undefined;
}
