import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "../../app/env.server";

const valid = {
  SHOPIFY_API_KEY: "client-id",
  SHOPIFY_API_SECRET: "client-secret",
  SHOPIFY_APP_URL: "https://courier.example.com/",
  SCOPES: "read_orders, write_orders",
  ENCRYPTION_KEYS: `k2:${Buffer.alloc(32, 1).toString("base64")},k1:${Buffer.alloc(32, 2).toString("base64")}`,
};

function problems(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).problems;
  }
  throw new Error("expected parseEnv to reject the environment");
}

describe("the environment parsed at boot", () => {
  it("defaults to SQLite under data/ and the local courier sandbox", () => {
    const env = parseEnv(valid);
    expect(env.DATABASE_URL).toBe("file:./data/app.sqlite");
    expect(env.COURIER_SANDBOX_URL).toBe("http://127.0.0.1:4010");
    expect(env.COURIER_PRODUCTION_URL).toBeUndefined();
    expect(env.SCOPES).toEqual(["read_orders", "write_orders"]);
    expect(env.SHOPIFY_APP_URL).toBe("https://courier.example.com");
  });

  it("keeps every encryption key in order, the first one encrypting", () => {
    const env = parseEnv(valid);
    expect(env.ENCRYPTION_KEYS.map((k) => k.id)).toEqual(["k2", "k1"]);
    expect(env.ENCRYPTION_KEYS[0]?.key.length).toBe(32);
  });

  it("names every missing variable and says what it should hold", () => {
    const found = problems({});
    for (const name of [
      "SHOPIFY_API_KEY",
      "SHOPIFY_API_SECRET",
      "SHOPIFY_APP_URL",
      "SCOPES",
      "ENCRYPTION_KEYS",
    ]) {
      expect(found.find((p) => p.startsWith(`${name} is missing`))).toBeDefined();
    }
    expect(found.find((p) => p.startsWith("ENCRYPTION_KEYS"))).toContain("openssl rand -base64 32");
  });

  it("treats an empty value as missing", () => {
    expect(problems({ ...valid, SHOPIFY_API_SECRET: "  " })).toEqual([
      expect.stringMatching(/^SHOPIFY_API_SECRET is missing/),
    ]);
  });

  it.each(["postgresql://app:secret@db.internal:5432/app", "postgres://localhost/app"])(
    "accepts a PostgreSQL DATABASE_URL (%s) for several instances",
    (url) => {
      expect(parseEnv({ ...valid, DATABASE_URL: url }).DATABASE_URL).toBe(url);
    },
  );

  it.each([
    ["ENCRYPTION_KEYS", "k1:c2hvcnQ=", /32 random bytes/],
    [
      "ENCRYPTION_KEYS",
      `k1:${Buffer.alloc(32).toString("base64")},k1:${Buffer.alloc(32).toString("base64")}`,
      /appears twice/,
    ],
    ["SHOPIFY_APP_URL", "courier.example.com", /absolute http\(s\) URL/],
    ["DATABASE_URL", "mysql://localhost/app", /SQLite file URL.*or a PostgreSQL URL/],
    ["DATABASE_URL", "./data/app.sqlite", /SQLite file URL.*or a PostgreSQL URL/],
    ["COURIER_PRODUCTION_URL", "http://courier.example.com", /must use https/],
    ["COURIER_TIMEOUT_MS", "ten", /number/],
  ])("rejects a malformed %s (%s)", (name, value, message) => {
    const found = problems({ ...valid, [name]: value });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^${name} is invalid`));
    expect(found[0]).toMatch(message);
  });

  it("does not point the courier sandbox at a local port in production", () => {
    const env = parseEnv({ ...valid, NODE_ENV: "production" });
    expect(env.COURIER_SANDBOX_URL).toBeUndefined();
  });

  it("still takes a sandbox URL the operator sets in production", () => {
    const env = parseEnv({
      ...valid,
      NODE_ENV: "production",
      COURIER_SANDBOX_URL: "https://sandbox.courier.example.com",
    });
    expect(env.COURIER_SANDBOX_URL).toBe("https://sandbox.courier.example.com");
  });

  it.each(["your-client-secret", "REPLACE_WITH_THE_CLIENT_SECRET", "changeme", "<client secret>"])(
    "refuses the placeholder client secret %s with a message saying where the real one is",
    (placeholder) => {
      const found = problems({ ...valid, SHOPIFY_API_SECRET: placeholder });
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^SHOPIFY_API_SECRET is invalid: .*placeholder.*Partner Dashboard/);
    },
  );

  it.each(["your-client-id", "replace-with-your-client-id"])(
    "refuses the placeholder client id %s",
    (placeholder) => {
      const found = problems({ ...valid, SHOPIFY_API_KEY: placeholder });
      expect(found).toEqual([expect.stringMatching(/^SHOPIFY_API_KEY is invalid: .*placeholder/)]);
    },
  );

  it("refuses SHOP_CUSTOM_DOMAIN, which the Shopify library no longer honours, saying to remove it", () => {
    const found = problems({ ...valid, SHOP_CUSTOM_DOMAIN: "shops.example.com" });
    expect(found).toEqual([expect.stringMatching(/^SHOP_CUSTOM_DOMAIN is invalid: .*remove it/)]);
  });

  it("refuses in production an app URL that is not https", () => {
    const found = problems({
      ...valid,
      NODE_ENV: "production",
      SHOPIFY_APP_URL: "http://app.example",
    });
    expect(found).toEqual([expect.stringMatching(/^SHOPIFY_APP_URL is invalid: must use https/)]);
  });

  it("sends WhatsApp messages to Meta's Graph API unless told otherwise", () => {
    expect(parseEnv(valid).WHATSAPP_API_URL).toBe("https://graph.facebook.com");
  });

  it("refuses in production a WhatsApp URL that is not https", () => {
    const found = problems({
      ...valid,
      NODE_ENV: "production",
      WHATSAPP_API_URL: "http://graph.example.com",
    });
    expect(found).toEqual([expect.stringMatching(/^WHATSAPP_API_URL is invalid: must use https/)]);
  });

  it("takes a loopback WhatsApp stand-in over http in production", () => {
    const parsed = parseEnv({
      ...valid,
      NODE_ENV: "production",
      WHATSAPP_API_URL: "http://127.0.0.1:4020/",
    });
    expect(parsed.WHATSAPP_API_URL).toBe("http://127.0.0.1:4020");
  });

  it("refuses in production the Shopify library's test secret", () => {
    const found = problems({
      ...valid,
      NODE_ENV: "production",
      SHOPIFY_API_SECRET: "testApiSecretKey",
    });
    expect(found).toEqual([
      expect.stringMatching(/^SHOPIFY_API_SECRET is invalid: .*test secret.*Partner Dashboard/),
    ]);
  });

  it("names every variable to fix at once, the production ones with the malformed ones", () => {
    const found = problems({
      ...valid,
      NODE_ENV: "production",
      SHOPIFY_APP_URL: "http://app.example",
      SHOPIFY_API_SECRET: "testApiSecretKey",
      ENCRYPTION_KEYS: "k1:c2hvcnQ=",
    });
    expect(found.map((problem) => problem.split(" ")[0])).toEqual([
      "ENCRYPTION_KEYS",
      "SHOPIFY_APP_URL",
      "SHOPIFY_API_SECRET",
    ]);
  });

  it.each(["http://127.0.0.1:3000", "http://localhost:3000", "http://[::1]:3000"])(
    "takes both on a loopback app URL (%s), where the built server runs on this machine",
    (url) => {
      const env = parseEnv({
        ...valid,
        NODE_ENV: "production",
        SHOPIFY_APP_URL: url,
        SHOPIFY_API_SECRET: "testApiSecretKey",
      });
      expect(env.SHOPIFY_APP_URL).toBe(url);
    },
  );

  it("takes an http app URL and the test secret outside production", () => {
    const env = parseEnv({
      ...valid,
      SHOPIFY_APP_URL: "http://app.example",
      SHOPIFY_API_SECRET: "testApiSecretKey",
    });
    expect(env.SHOPIFY_API_SECRET).toBe("testApiSecretKey");
  });

  it("never echoes a secret value in its message", () => {
    const secret = "k1:THIS-IS-NOT-BASE64-BUT-SECRET";
    const found = problems({ ...valid, ENCRYPTION_KEYS: secret });
    expect(found.join("\n")).not.toContain("THIS-IS-NOT-BASE64");
  });
});
