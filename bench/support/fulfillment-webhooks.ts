import { randomUUID } from "node:crypto";
import { getHmac } from "@shopify/shopify-api/test-helpers";
import { ADMIN_API_VERSION } from "../../app/shopify/api-version";

/**
 * Signed `fulfillments/create` webhooks as Shopify sends them (REST payload with the destination
 * and line items, ~2 kB), each for a new fulfillment, with a share of exact redeliveries.
 */
export const WEBHOOK_PATH = "/webhooks/fulfillments/create";
export const BENCH_LOCATION_ID = 701;

export interface SignedWebhook {
  fulfillmentId: string;
  headers: Record<string, string>;
  body: string;
  redelivery: boolean;
}

export function fulfillmentCreatePayload(fulfillment: number, order: number) {
  const at = new Date().toISOString();
  return {
    id: fulfillment,
    order_id: order,
    status: "success",
    created_at: at,
    service: "manual",
    updated_at: at,
    tracking_company: null,
    shipment_status: null,
    location_id: BENCH_LOCATION_ID,
    origin_address: null,
    email: "customer@example.com",
    destination: {
      first_name: "Fatima",
      last_name: "Al-Sabah",
      name: "Fatima Al-Sabah",
      address1: "Block 10, Street 5, House 12",
      address2: null,
      phone: "+965 9999 1234",
      city: "Salmiya",
      zip: null,
      province: "Hawalli",
      province_code: "KW-HA",
      country: "Kuwait",
      country_code: "KW",
      company: null,
      latitude: null,
      longitude: null,
    },
    line_items: [1, 2].map((n) => ({
      id: order * 10 + n,
      variant_id: 40_000 + n,
      title: n === 1 ? "Abaya" : "Scarf",
      quantity: n,
      sku: `SKU-${n}`,
      variant_title: "Black / M",
      vendor: "Bench Boutique",
      fulfillment_service: "manual",
      product_id: 30_000 + n,
      requires_shipping: true,
      taxable: false,
      gift_card: false,
      name: n === 1 ? "Abaya - Black / M" : "Scarf - Black / M",
      variant_inventory_management: "shopify",
      properties: [],
      product_exists: true,
      fulfillable_quantity: 0,
      grams: 600,
      price: "12.250",
      total_discount: "0.000",
      fulfillment_status: "fulfilled",
      price_set: {
        shop_money: { amount: "12.250", currency_code: "KWD" },
        presentment_money: { amount: "12.250", currency_code: "KWD" },
      },
      admin_graphql_api_id: `gid://shopify/LineItem/${order * 10 + n}`,
    })),
    tracking_number: null,
    tracking_numbers: [],
    tracking_url: null,
    tracking_urls: [],
    receipt: {},
    name: `#${order}.1`,
    admin_graphql_api_id: `gid://shopify/Fulfillment/${fulfillment}`,
  };
}

/**
 * Hands out webhooks: mostly new fulfillments, and every `1 / duplicateShare`-th one an exact
 * copy (same body, same webhook id) of one sent a few requests earlier, often still in flight.
 */
export function webhookSource(options: {
  shop: string;
  secret: string;
  duplicateShare: number;
  firstFulfillment: number;
}) {
  const every = options.duplicateShare > 0 ? Math.round(1 / options.duplicateShare) : 0;
  const recent: SignedWebhook[] = [];
  let issued = 0;
  let next = options.firstFulfillment;
  return {
    get issued() {
      return issued;
    },
    next(): SignedWebhook {
      issued += 1;
      if (every > 0 && issued % every === 0 && recent.length > 0) {
        const original = recent[0]!;
        return { ...original, redelivery: true };
      }
      const fulfillment = next++;
      const body = JSON.stringify(fulfillmentCreatePayload(fulfillment, 100_000 + fulfillment));
      const webhook: SignedWebhook = {
        fulfillmentId: `gid://shopify/Fulfillment/${fulfillment}`,
        body,
        redelivery: false,
        headers: {
          "Content-Type": "application/json",
          "X-Shopify-Topic": "fulfillments/create",
          "X-Shopify-Shop-Domain": options.shop,
          "X-Shopify-API-Version": ADMIN_API_VERSION,
          "X-Shopify-Webhook-Id": randomUUID(),
          "X-Shopify-Triggered-At": new Date().toISOString(),
          "X-Shopify-Event-Id": randomUUID(),
          "X-Shopify-Hmac-Sha256": getHmac(body, options.secret),
        },
      };
      // A short window of recent webhooks: redeliveries land while the original may be in flight.
      recent.push(webhook);
      if (recent.length > 16) recent.shift();
      return webhook;
    },
  };
}
