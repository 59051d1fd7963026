import fs from "node:fs";
import path from "node:path";
import { parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/paths";
import { realAdminSchema } from "../support/real-admin-schema";

// Every Admin GraphQL document of the app (the `#graphql` templates under app/), validated
// against Shopify's real Admin schema of the app's API version: the introspection that
// @shopify/dev-mcp ships. The stand-in's schema is a subset written by hand; this catches a field
// or argument Shopify does not have before a store does.

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The app's documents, with `${NAME}` filled from the exports of app/shopify/. */
async function appDocuments(): Promise<{ where: string; text: string }[]> {
  const shopifyDir = path.join(ROOT, "app", "shopify");
  const exported: Record<string, unknown> = {};
  for (const file of sourceFiles(shopifyDir)) {
    Object.assign(exported, (await import(file)) as Record<string, unknown>);
  }
  const documents: { where: string; text: string }[] = [];
  for (const file of sourceFiles(path.join(ROOT, "app"))) {
    const source = fs.readFileSync(file, "utf8");
    for (const match of source.matchAll(/`#graphql([\s\S]*?)`/g)) {
      const text = match[1]!.replace(/\$\{(\w+)\}/g, (_, name: string) => {
        const value = exported[name];
        if (typeof value !== "string" && typeof value !== "number") {
          throw new Error(
            `${path.relative(ROOT, file)}: \${${name}} is not an export of app/shopify`,
          );
        }
        return String(value);
      });
      const name = /\b(?:query|mutation)\s+(\w+)/.exec(text)?.[1] ?? "anonymous";
      documents.push({ where: `${path.relative(ROOT, file)} ${name}`, text });
    }
  }
  return documents;
}

describe("the app's Admin GraphQL documents", () => {
  it("are all valid against Shopify's Admin schema of the app's API version", async () => {
    const schema = realAdminSchema();
    const documents = await appDocuments();
    expect(documents.map((d) => d.where)).toEqual(
      expect.arrayContaining([
        expect.stringContaining("DeliveryFulfillment"),
        expect.stringContaining("RecentFulfillments"),
        expect.stringContaining("DeliveryFulfillmentTracking"),
        expect.stringContaining("DeliveryFulfillmentCancel"),
        expect.stringContaining("CheckoutRatesCarrierServices"),
        expect.stringContaining("CheckoutRatesCarrierService"),
        expect.stringContaining("CheckoutRatesCarrierServiceCreate"),
        expect.stringContaining("CheckoutRatesCarrierServiceUpdate"),
        expect.stringContaining("CheckoutRatesCarrierServiceDelete"),
      ]),
    );
    const problems = documents.flatMap(({ where, text }) =>
      validate(schema, parse(text)).map((error) => `${where}: ${error.message}`),
    );
    expect(problems).toEqual([]);
  });

  it("read a fulfillment's first ten line items with its order", async () => {
    // Requested cost grows with page sizes: 100 line items reserved about 912 points (issue 11).
    const documents = await appDocuments();
    const delivery = documents.find((d) => d.where.endsWith(" DeliveryFulfillment"))!;
    expect(delivery.text).toMatch(/fulfillmentLineItems\(first: 10, after: \$after\)/);
  });

  it("read a line item's weight from the line item, not through its variant", async () => {
    // 1 point of the requested cost an item where the variant's measurement cost 4 (issue 24).
    const documents = await appDocuments();
    const delivery = documents.find((d) => d.where.endsWith(" DeliveryFulfillment"))!;
    expect(delivery.text).toMatch(/\n\s*weight \{ unit value \}/);
    expect(delivery.text).not.toMatch(/inventoryItem/);
  });
});
