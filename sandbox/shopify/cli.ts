import fs from "node:fs";
import { parseArgs } from "node:util";
import { SHOP_PLANS, type ShopPlan } from "./carrier-services";
import { seedDemoStore } from "./demo-data";
import { startShopifyStandIn } from "./server";
import { ShopifyStandInStore } from "./store";
import { subscriptionsFromAppToml } from "./subscriptions";

/**
 * `tsx sandbox/shopify/cli.ts [--port 4020] [--shop demo-store.myshopify.com]
 * [--app-url http://localhost:3000] [--toml shopify.app.toml | --all-topics] [--no-seed] [--quiet]
 * [--plan basic|shopify|advanced|plus|development]`
 * Environment: SHOPIFY_API_KEY and SHOPIFY_API_SECRET (required, the app's), SCOPES,
 * SHOPIFY_STANDIN_PORT, SHOPIFY_APP_URL.
 */
const { values } = parseArgs({
  options: {
    port: { type: "string" },
    shop: { type: "string" },
    "app-url": { type: "string" },
    toml: { type: "string" },
    "all-topics": { type: "boolean" },
    "no-seed": { type: "boolean" },
    quiet: { type: "boolean" },
    plan: { type: "string" },
  },
});

const apiKey = process.env.SHOPIFY_API_KEY;
const apiSecret = process.env.SHOPIFY_API_SECRET;
if (!apiKey || !apiSecret) {
  console.error("The stand-in needs the app's SHOPIFY_API_KEY and SHOPIFY_API_SECRET");
  process.exit(2);
}
const port = Number(values.port ?? process.env.SHOPIFY_STANDIN_PORT ?? 4020);
if (!Number.isInteger(port) || port < 0) {
  console.error(`--port must be a whole number, not "${values.port}"`);
  process.exit(2);
}

// Like Shopify, send only what the app subscribed to in its TOML, unless told to send everything.
const tomlFile = values.toml ?? "shopify.app.toml";
const subscriptions =
  values["all-topics"] || !fs.existsSync(tomlFile) ? undefined : subscriptionsFromAppToml(tomlFile);

const store = new ShopifyStandInStore({ shop: values.shop ?? "demo-store.myshopify.com" });
if (!values["no-seed"]) seedDemoStore(store);
if (values.plan !== undefined) {
  if (!SHOP_PLANS.includes(values.plan as ShopPlan)) {
    console.error(`--plan must be one of ${SHOP_PLANS.join(", ")}, not "${values.plan}"`);
    process.exit(2);
  }
  store.shipping.setPlan(values.plan as ShopPlan);
}
const standIn = await startShopifyStandIn({
  store,
  apiKey,
  apiSecret,
  scopes: process.env.SCOPES,
  appUrl: values["app-url"] ?? process.env.SHOPIFY_APP_URL,
  port,
  webhooks: subscriptions ? { topics: subscriptions.topics, path: subscriptions.path } : undefined,
  log: values.quiet ? undefined : (line) => console.log(line),
});

// The first line is read by tools that start the stand-in on port 0.
console.log(`Shopify stand-in listening on ${standIn.url}`);
console.log(
  `  shop ${standIn.shop} (${store.shipping.plan} plan), Admin API ${standIn.apiVersion}, ${store.orders().length} orders; control API at ${standIn.url}/__standin/ (see sandbox/shopify/README.md)`,
);

console.log(
  subscriptions
    ? `  webhooks (from ${tomlFile}): ${subscriptions.topics.join(", ") || "none the stand-in sends"}`
    : `  webhooks: every topic the stand-in sends`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void standIn.close().then(() => process.exit(0));
  });
}
