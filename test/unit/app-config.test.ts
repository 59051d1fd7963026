import fs from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { ADMIN_API_VERSION } from "../../app/shopify/api-version";
import { ROOT } from "../support/paths";
import { TEST_SCOPES } from "../support/test-env";

interface AppToml {
  embedded: boolean;
  access_scopes: { scopes: string };
  webhooks: {
    api_version: string;
    subscriptions: { topics?: string[]; compliance_topics?: string[]; uri: string }[];
  };
}

const toml = parse(
  fs.readFileSync(path.join(ROOT, "shopify.app.toml"), "utf8"),
) as unknown as AppToml;
const envExample = fs.readFileSync(path.join(ROOT, ".env.example"), "utf8");

function routeFileFor(uri: string): string | undefined {
  const base = uri.replace(/^\//, "").replaceAll("/", ".");
  return ["tsx", "ts"]
    .map((ext) => path.join(ROOT, "app", "routes", `${base}.${ext}`))
    .find((file) => fs.existsSync(file));
}

describe("shopify.app.toml", () => {
  it("uses the one Admin API version constant of the app", () => {
    expect(toml.webhooks.api_version).toBe(ADMIN_API_VERSION);
  });

  it("asks for the same scopes as .env.example and the tests", () => {
    const scopes = toml.access_scopes.scopes;
    expect(envExample).toContain(`\nSCOPES=${scopes}\n`);
    expect(scopes).toBe(TEST_SCOPES);
    for (const needed of [
      "read_orders",
      "write_merchant_managed_fulfillment_orders",
      "read_fulfillments",
      "write_fulfillments",
      "read_locations",
      "write_shipping",
    ]) {
      expect(scopes.split(",")).toContain(needed);
    }
  });

  it("subscribes to the three mandatory compliance topics", () => {
    const compliance = toml.webhooks.subscriptions.flatMap((s) => s.compliance_topics ?? []);
    expect(compliance.sort()).toEqual([
      "customers/data_request",
      "customers/redact",
      "shop/redact",
    ]);
  });

  it("points every subscription at a webhook route that exists", () => {
    expect(toml.webhooks.subscriptions.length).toBeGreaterThanOrEqual(5);
    for (const subscription of toml.webhooks.subscriptions) {
      expect(routeFileFor(subscription.uri), subscription.uri).toBeDefined();
    }
  });
});
