import { GraphqlQueryError } from "@shopify/shopify-api";
import { describe, expect, it } from "vitest";
import { unauthenticated } from "../../app/shopify.server";
import { ADMIN_API_VERSION } from "../../app/shopify/api-version";
import { adminApi } from "../support/admin-api";
import { installShop, shopDomain } from "../support/shopify";

const shop = shopDomain("standin");
const query = `#graphql
  query ShopName { shop { name } }`;

describe("the Admin API stand-in", () => {
  it("answers the app's GraphQL through the Shopify library and records the call", async () => {
    await installShop(shop);
    adminApi.on("ShopName", () => ({ data: { shop: { name: "Standin Store" } } }));
    const { admin } = await unauthenticated.admin(shop);
    const response = await admin.graphql(query);
    expect(await response.json()).toMatchObject({ data: { shop: { name: "Standin Store" } } });
    expect(adminApi.callsTo("ShopName")).toHaveLength(1);
    expect(adminApi.calls[0]).toMatchObject({ shop, accessToken: `offline-token-${shop}` });
    expect(ADMIN_API_VERSION).toMatch(/^\d{4}-\d{2}$/);
  });

  it("surfaces THROTTLED in a 200 reply as a GraphqlQueryError, as Shopify does", async () => {
    await installShop(shop);
    adminApi.on("ShopName", () => ({ data: { shop: { name: "Standin Store" } } }));
    adminApi.throttleNext(1);
    const { admin } = await unauthenticated.admin(shop);
    const error = await admin.graphql(query).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphqlQueryError);
    expect(JSON.stringify((error as GraphqlQueryError).body)).toContain("THROTTLED");
  });

  it("fails loudly for an operation a test did not program", async () => {
    await installShop(shop);
    const { admin } = await unauthenticated.admin(shop);
    const error = await admin.graphql(query).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphqlQueryError);
    expect((error as Error).message).toContain("no handler for ShopName");
  });

  it("refuses to let a test reach any host but loopback", async () => {
    await expect(fetch("https://example.com/")).rejects.toThrow();
  });
});
