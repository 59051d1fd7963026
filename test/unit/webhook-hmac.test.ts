import { API_SECRET_KEY, getHmac } from "@shopify/shopify-api/test-helpers";
import { describe, expect, it } from "vitest";
import { verifyShopifyWebhook } from "../../app/shopify/webhook-hmac";

const body = JSON.stringify({ id: 1, name: "#1001.1", note: "عبايه — 12.250 KWD" });

function headers(overrides: Record<string, string | undefined> = {}) {
  const all: Record<string, string | undefined> = {
    "X-Shopify-Hmac-Sha256": getHmac(body, API_SECRET_KEY),
    "X-Shopify-Topic": "fulfillments/create",
    "X-Shopify-Shop-Domain": "hmac.myshopify.com",
    "X-Shopify-API-Version": "2026-10",
    "X-Shopify-Webhook-Id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043",
    ...overrides,
  };
  // Looked up case-insensitively, as a web Headers object does.
  const lower = new Map(Object.entries(all).map(([k, v]) => [k.toLowerCase(), v]));
  return (name: string) => lower.get(name.toLowerCase()) ?? null;
}

describe("verifyShopifyWebhook", () => {
  it("accepts what Shopify's own helper signs, from a string or the raw bytes", () => {
    for (const raw of [body, Buffer.from(body, "utf8")]) {
      expect(verifyShopifyWebhook(raw, headers(), API_SECRET_KEY)).toEqual({
        ok: true,
        shop: "hmac.myshopify.com",
        topic: "FULFILLMENTS_CREATE",
        apiVersion: "2026-10",
        webhookId: "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043",
        body,
      });
    }
  });

  it("answers 401 to another secret, a changed body or a truncated signature", () => {
    const forged = headers({ "X-Shopify-Hmac-Sha256": getHmac(body, "not-the-app-secret") });
    expect(verifyShopifyWebhook(body, forged, API_SECRET_KEY)).toMatchObject({ status: 401 });
    expect(
      verifyShopifyWebhook(body.replace("1001", "1002"), headers(), API_SECRET_KEY),
    ).toMatchObject({ ok: false, status: 401 });
    const truncated = headers({
      "X-Shopify-Hmac-Sha256": getHmac(body, API_SECRET_KEY).slice(0, 20),
    });
    expect(verifyShopifyWebhook(body, truncated, API_SECRET_KEY)).toMatchObject({ status: 401 });
  });

  it("refuses a forgery before checking its other headers, so it learns nothing from them", () => {
    const forged = headers({
      "X-Shopify-Hmac-Sha256": getHmac(body, "not-the-app-secret"),
      "X-Shopify-Topic": undefined,
    });
    expect(verifyShopifyWebhook(body, forged, API_SECRET_KEY)).toMatchObject({ status: 401 });
  });

  it("answers 400 without a body, a signature, or Shopify's topic, shop, version and id headers", () => {
    expect(verifyShopifyWebhook("", headers(), API_SECRET_KEY)).toMatchObject({ status: 400 });
    expect(
      verifyShopifyWebhook(body, headers({ "X-Shopify-Hmac-Sha256": undefined }), API_SECRET_KEY),
    ).toMatchObject({ status: 400, reason: "missing HMAC header" });
    for (const name of [
      "X-Shopify-Topic",
      "X-Shopify-Shop-Domain",
      "X-Shopify-API-Version",
      "X-Shopify-Webhook-Id",
    ]) {
      expect(
        verifyShopifyWebhook(body, headers({ [name]: undefined }), API_SECRET_KEY),
      ).toMatchObject({ ok: false, status: 400 });
    }
  });
});
