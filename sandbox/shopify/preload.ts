// Preloaded into the app's process for the offline demo:
//   SHOPIFY_STANDIN_URL=http://127.0.0.1:4020 node --import tsx --import ./sandbox/shopify/preload.ts server.js
// From then on the app's Admin API and token-exchange calls to https://<shop>.myshopify.com reach
// the stand-in. Without the variable it does nothing, so a stray import cannot reroute production.
import { routeShopifyToStandIn } from "./redirect";

const url = process.env.SHOPIFY_STANDIN_URL?.trim();
if (url) {
  routeShopifyToStandIn(url);
  console.warn(`Shopify stand-in: calls to https://*.myshopify.com now go to ${url}`);
}
