import { describe, expect, it } from "vitest";
import { parseShopDomain } from "../../app/shopify/shop-domain";

describe("a shop domain typed on the login page", () => {
  it.each([
    ["my-shop", "my-shop.myshopify.com"],
    ["My-Shop.myshopify.com", "my-shop.myshopify.com"],
    ["https://my-shop.myshopify.com/", "my-shop.myshopify.com"],
    ["admin.shopify.com/store/my-shop", "my-shop.myshopify.com"],
    ["  kuwait-gifts  ", "kuwait-gifts.myshopify.com"],
  ])("reads %s as %s", (typed, shop) => {
    expect(parseShopDomain(typed)).toBe(shop);
  });

  it.each([
    ["another domain", "evil.example.com"],
    ["a path after the domain", "my-shop.myshopify.com/admin"],
    ["characters a handle cannot have", "my shop<script>"],
    ["a handle longer than a DNS label", `${"a".repeat(64)}.myshopify.com`],
    ["ten megabytes", "a".repeat(10 * 1024 * 1024)],
    ["nothing", ""],
  ])("refuses %s", (_what, typed) => {
    expect(parseShopDomain(typed)).toBeNull();
  });
});
