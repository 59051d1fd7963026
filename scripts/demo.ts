/**
 * `npm run demo`: the app's main job, offline, on its embedded defaults. Starts the courier
 * sandbox, a Shopify stand-in store (locations and a few dozen Kuwaiti orders) and the built app
 * on SQLite, configures the demo merchant (courier key, pickup locations, automatic sending, a
 * WhatsApp Business number on the WhatsApp stand-in), fulfils a few orders so deliveries appear at
 * once, asks a customer about an unclear address, turns checkout rates on and asks for two rates
 * as Shopify's checkout would, and prints the URL to open.
 *
 * Flags: --port 3000 (app), --fresh (start from an empty database), --speed slow|normal|fast|paused
 * or --step-seconds N (how fast the courier moves its orders; normal is a status every 60 s).
 *
 * Ports: 3000 the app, 4010 the courier sandbox, 4020 the Shopify stand-in, 4030 App Bridge and
 * the demo's controls (/demo/…, the bar over the app's pages), 4040 the WhatsApp stand-in.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    fresh: { type: "boolean" },
    speed: { type: "string" },
    "step-seconds": { type: "string" },
  },
});
const root = path.resolve(import.meta.dirname, "..");
const dataDir = path.join(root, "data", "demo");
const appPort = Number(values.port ?? 3000);
const appUrl = `http://127.0.0.1:${appPort}`;
const API_KEY = "demo-client-id";
const API_SECRET = "demo-client-secret";
const SCOPES = fs
  .readFileSync(path.join(root, "shopify.app.toml"), "utf8")
  .match(/^scopes = "([^"]+)"/m)?.[1];
const COURIER_KEY = "sandbox-test-key";
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const step = (text: string) => console.log(`• ${text}`);

if (values.fresh) fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });
// The demo's own encryption key, kept so a restart can still read the stored courier key.
const keyFile = path.join(dataDir, "encryption-key");
if (!fs.existsSync(keyFile))
  fs.writeFileSync(keyFile, `demo:${randomBytes(32).toString("base64")}`, { mode: 0o600 });

const demoEnv: Record<string, string> = {
  SHOPIFY_API_KEY: API_KEY,
  SHOPIFY_API_SECRET: API_SECRET,
  SHOPIFY_APP_URL: appUrl,
  SCOPES: SCOPES ?? "read_orders",
  DATABASE_URL: `file:${path.join(dataDir, "app.sqlite")}`,
  ENCRYPTION_KEYS: fs.readFileSync(keyFile, "utf8").trim(),
  COURIER_DISPLAY_NAME: "Kuwait Courier (sandbox)",
};

const buildIsStale = () => {
  const built = path.join(root, "build", "server", "index.js");
  if (!fs.existsSync(built)) return true;
  const builtAt = fs.statSync(built).mtimeMs;
  const newest = (dir: string): number =>
    fs.readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
      const full = path.join(dir, entry.name);
      return Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
    }, 0);
  return newest(path.join(root, "app")) > builtAt;
};
if (buildIsStale()) {
  step("building the app (npm run build)…");
  execFileSync(bin("remix"), ["vite:build"], { cwd: root, stdio: "ignore" });
}
execFileSync(bin("prisma"), ["migrate", "deploy"], {
  cwd: root,
  env: { ...process.env, ...demoEnv },
  stdio: "ignore",
});

const { DEMO_SPEEDS, demoControls } = await import("./support/demo-controls");
const speed = values.speed ?? "normal";
const stepSeconds = values["step-seconds"]
  ? Number(values["step-seconds"])
  : (DEMO_SPEEDS[speed as keyof typeof DEMO_SPEEDS] ?? (speed === "paused" ? 60 : NaN));
if (!Number.isInteger(stepSeconds) || stepSeconds < 1) {
  console.error(
    "--speed is slow, normal, fast or paused; --step-seconds a whole number (1 or more)",
  );
  process.exit(2);
}
const { startCourierSandbox } = await import("../sandbox/courier");
const courier = await startCourierSandbox({
  port: 4010,
  acceptedKeys: [COURIER_KEY],
  stepIntervalMs: stepSeconds * 1000,
});
if (speed === "paused") courier.setPaused(true);
step(
  `courier sandbox on ${courier.url} (${speed === "paused" ? "paused: orders move when you say" : `orders move one status every ${stepSeconds} s`})`,
);

// WhatsApp Business, offline: the stand-in speaks Meta's Cloud API and calls the app back.
const WHATSAPP = { accessToken: "demo-whatsapp-token", appSecret: "demo-whatsapp-app-secret" };
const { startWhatsAppStandIn } = await import("../sandbox/whatsapp");
const whatsapp = await startWhatsAppStandIn({
  ...WHATSAPP,
  port: 4040,
  linkBase: `${appUrl}/tracking/`,
});
step(`WhatsApp stand-in on ${whatsapp.url} (Meta's Cloud API: templates, status callbacks)`);

const { gid, startShopifyStandIn, seedDemoStore, ShopifyStandInStore, subscriptionsFromAppToml } =
  await import("../sandbox/shopify");
const store = new ShopifyStandInStore({
  shop: "demo-store.myshopify.com",
  name: "Demo Kuwait Store",
});
seedDemoStore(store);
addMoreDemoOrders(store, 30);
const subscriptions = subscriptionsFromAppToml(path.join(root, "shopify.app.toml"));
const shopify = await startShopifyStandIn({
  store,
  apiKey: API_KEY,
  apiSecret: API_SECRET,
  scopes: demoEnv.SCOPES,
  appUrl,
  port: 4020,
  webhooks: { topics: subscriptions.topics, path: subscriptions.path },
});
step(
  `Shopify stand-in store on ${shopify.url} (${store.orders().length} orders, ${store.locations().length} locations)`,
);

// Pages load App Bridge from Shopify's CDN; offline, the stand-in script is served from here,
// with the demo's bar after it; the bar's commands are answered here too (/demo/…).
const controlsUrl = "http://127.0.0.1:4030/demo";
const appBridge = [
  fs.readFileSync(path.join(root, "sandbox", "shopify", "app-bridge-standin.js"), "utf8"),
  `window.__DEMO_CONTROLS__ = ${JSON.stringify(controlsUrl)};`,
  fs.readFileSync(path.join(root, "sandbox", "shopify", "demo-bar.js"), "utf8"),
].join("\n");
const controls = demoControls({
  courier,
  store,
  appUrl,
  apiSecret: API_SECRET,
  // The privacy webhook's address as shopify.app.toml subscribes it (a compliance topic).
  apiVersion: subscriptions.apiVersion ?? "2026-10",
  dataRequestPath:
    /compliance_topics = \["customers\/data_request"\]\s+uri = "([^"]+)"/.exec(
      fs.readFileSync(path.join(root, "shopify.app.toml"), "utf8"),
    )?.[1] ?? "/webhooks/customers/data_request",
});
const bridgeServer = http.createServer((req, res) => {
  void controls.handle(req, res).then((handled) => {
    if (handled) return;
    res.writeHead(200, { "content-type": "text/javascript", "access-control-allow-origin": "*" });
    res.end(appBridge);
  });
});
await new Promise<void>((resolve) => bridgeServer.listen(4030, "127.0.0.1", resolve));

const app = spawn(
  process.execPath,
  ["--import", "tsx", "--import", "./sandbox/shopify/preload.ts", "server.js"],
  {
    cwd: root,
    env: {
      ...process.env,
      ...demoEnv,
      NODE_ENV: "production",
      PORT: String(appPort),
      HOST: "127.0.0.1",
      COURIER_SANDBOX_URL: courier.url,
      SHOPIFY_STANDIN_URL: shopify.url,
      APP_BRIDGE_URL: "http://127.0.0.1:4030/app-bridge.js",
      WHATSAPP_API_URL: whatsapp.url,
    },
    stdio: ["ignore", "pipe", "pipe"],
  },
);
const appLog = fs.createWriteStream(path.join(dataDir, "app.log"));
app.stdout?.pipe(appLog);
app.stderr?.pipe(appLog);

async function shutdown(code = 0) {
  app.kill("SIGTERM");
  bridgeServer.close();
  await Promise.allSettled([shopify.close(), courier.close(), whatsapp.close()]);
  process.exit(code);
}
process.once("SIGINT", () => void shutdown());
process.once("SIGTERM", () => void shutdown());
app.once("exit", (code) => {
  console.error(`The app stopped (exit ${code}); its log is ${path.join(dataDir, "app.log")}`);
  void shutdown(1);
});

for (let i = 0; ; i += 1) {
  if (
    await fetch(`${appUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  if (i > 150) {
    console.error(`The app did not start; see ${path.join(dataDir, "app.log")}`);
    await shutdown(1);
  }
  await new Promise((r) => setTimeout(r, 200));
}
step(`app on ${appUrl} (SQLite in ${dataDir})`);

// The merchant installs the app: the first admin load exchanges the session token for a token.
const browserLike = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36" };
await fetch(shopify.adminUrl("/app"), { headers: browserLike, redirect: "manual" });

// …and configures it, through the app's own services (the same code the Settings pages call).
Object.assign(process.env, demoEnv, { COURIER_SANDBOX_URL: courier.url, DELIVERY_WORKER: "off" });
const shop = store.shop.domain;
const { configureLocalMerchant } = await import("./support/local-merchant");
await configureLocalMerchant({ shop, store, courier, courierKey: COURIER_KEY, appUrl });
step("merchant configured: courier key tested, pickup locations confirmed, automatic sending on");
step("courier status pushes on: every status change reaches the app and the Shopify fulfillment");

// The merchant's WhatsApp Business number, as Settings → WhatsApp messages connects it; Meta's
// handshake of the callback address done. No quiet hours here, so the demo's messages go at once
// at any hour (a real shop's default is 21:00 to 09:00, Kuwait time).
const { saveWhatsAppConnection, saveWhatsAppPreferences, setWhatsAppEnabled } =
  await import("../app/models/whatsapp-account.server");
const { DEFAULT_TEMPLATE_NAMES } = await import("../app/domain/shopper-message");
await saveWhatsAppConnection({
  shop,
  phoneNumberId: "106540352242922",
  ...WHATSAPP,
  at: new Date(),
});
await saveWhatsAppPreferences(shop, {
  templates: DEFAULT_TEMPLATE_NAMES,
  quiet: { from: 0, until: 0 },
  dailyCapPerOrder: 2,
});
await setWhatsAppEnabled(shop, true);
{
  const { default: prisma } = await import("../app/db.server");
  const account = await prisma.whatsAppAccount.findUniqueOrThrow({ where: { shop } });
  const callbackUrl = `${appUrl}/whatsapp/webhooks/${account.webhookToken}`;
  await fetch(
    `${callbackUrl}?hub.mode=subscribe&hub.verify_token=${account.verifyToken}&hub.challenge=1`,
  );
  whatsapp.setWebhookUrl(callbackUrl);
}
step(
  "WhatsApp Business connected: customers asked about an order get a message, in their language",
);

// Checkout rates (issue 28): on for the demo shop, a few areas priced, and what checkout shows.
const { showCheckoutRates } = await import("./support/demo-checkout-rates");
const checkoutRates = await showCheckoutRates({ shop, appUrl, apiSecret: API_SECRET });
step(`checkout rates on: ${checkoutRates[0]}`);
for (const line of checkoutRates.slice(1)) console.log(line);

// A few orders fulfilled, as the merchant would in the admin: each sends a signed webhook.
const open = store.orders().filter((o) => store.displayFulfillmentStatus(o) === "UNFULFILLED");
for (const order of open.slice(0, 3)) store.fulfillOrder(order.id);
step(
  `fulfilled ${Math.min(3, open.length)} orders in the stand-in; their deliveries are on the way`,
);

// A new order whose address the courier could not find (no block, a landmark): the app holds it
// in Shopify and asks the customer (issue 26); the link is what the customer would get.
const unclear = store.addOrder({
  payment: "cod",
  shippingAddress: {
    firstName: "Noura",
    lastName: "Al-Hajri",
    address1: "near the co-op, behind the mosque",
    address2: null,
    city: "Salmiya",
    provinceCode: "KW-HA",
    phone: "+965 9876 5432",
  },
});
const { default: demoPrisma } = await import("../app/db.server");
let customerLink: string | null = null;
for (let i = 0; i < 100 && !customerLink; i += 1) {
  const ask = await demoPrisma.shopperAsk.findFirst({
    where: { shop, orderId: gid("Order", unclear.id), state: "asked" },
  });
  if (ask) customerLink = `${appUrl}/tracking/${ask.token}`;
  else await new Promise((r) => setTimeout(r, 200));
}
step(
  customerLink
    ? `order ${unclear.name} has no block: held in Shopify, its customer asked`
    : `order ${unclear.name} was not asked about (see the app log)`,
);
let sentOnWhatsApp: (typeof whatsapp.messages)[number] | undefined;
for (let i = 0; i < 50 && customerLink && !sentOnWhatsApp; i += 1) {
  sentOnWhatsApp = whatsapp.messages.find((m) => m.to === "96598765432");
  if (!sentOnWhatsApp) await new Promise((r) => setTimeout(r, 200));
}
if (sentOnWhatsApp)
  step(
    `WhatsApp to +965 9876 5432: template ${sentOnWhatsApp.template.name} (${sentOnWhatsApp.template.language}), "${sentOnWhatsApp.template.bodyParameters.join('", "')}", its button opens the customer's page`,
  );

console.log(`
Open the app (the link carries a session token valid for 12 hours):
  ${shopify.adminUrl("/app").replace(/id_token=[^&]+/, `id_token=${shopify.auth.sessionToken({ expiresInSeconds: 12 * 3600 })}`)}

${
  customerLink
    ? `The customer's page for ${unclear.name} (confirm or fix the address, in Arabic or English):
  ${customerLink}

`
    : ""
}Checkout rates, as Shopify's checkout would show them:
${checkoutRates.slice(1).join("\n")}

Fulfil another order in the stand-in (sends the fulfillments/create webhook):
  curl -X POST '${shopify.url}/__standin/orders/%23${open[3]?.name.replace("#", "") ?? "1004"}/fulfill'
Move courier orders on:  curl -X POST '${courier.url}/__sandbox/advance' -d '{"target":"all"}'

The demo's bar at the foot of each page, or the same from a terminal (add ?order=KW100001 to
choose the courier order; without it, the newest that can get there):
  curl -X POST ${controlsUrl}/pause            (and /resume; /speed/slow, /speed/normal, /speed/fast)
  curl -X POST ${controlsUrl}/fail             a delivery attempt fails (the customer did not answer)
  curl -X POST ${controlsUrl}/exception        the courier cannot find the address: an exception
  curl -X POST ${controlsUrl}/return           returned to the shop after two failed attempts
  curl -X POST ${controlsUrl}/privacy          a customer asks for their data (customers/data_request)
Arabic: add &locale=ar to the link above, or choose it on the app's Language page.
App log: ${path.join(dataDir, "app.log")}. Stop with Ctrl-C.
`);

/** A few dozen more orders with addresses typed the ways Kuwaiti shoppers type them. */
function addMoreDemoOrders(target: InstanceType<typeof ShopifyStandInStore>, count: number) {
  const addresses = [
    { city: "Salmiya", address1: "Block 10, Street 5, House 12", provinceCode: "KW-HA" },
    { city: "السالمية", address1: "ق١٠ ش٥ م١٢", provinceCode: "KW-HA" },
    { city: "Jabriya", address1: "blk 1 st 1 ave 3 h 15", provinceCode: "KW-HA" },
    { city: "Mangaf", address1: "Block 4 Street 14 Building 22, Apt 5", provinceCode: "KW-AH" },
    { city: "Fahaheel", address1: "Block 11 Street 3 House 40", provinceCode: "KW-AH" },
    { city: "Khaitan", address1: "Blk 7 St 79 House 10", provinceCode: "KW-FA" },
    { city: "الجهراء", address1: "قطعة 3 شارع 12 منزل 7", provinceCode: "KW-JA" },
    { city: "Surra", address1: "Block 2, Street 10, Avenue 4, House 6", provinceCode: "KW-KU" },
    { city: "Kuwait", address1: "Mishref block 3 street 5 house 9", provinceCode: "KW-MU" },
    { city: "Kuwait", address1: "near the co-op, house 3", provinceCode: null },
    { city: "Sabah Al Salem", address1: "Block 12 Street 1 House 33", provinceCode: "KW-MU" },
    { city: "Rumaithiya", address1: "B8 S82 H5", provinceCode: "KW-HA" },
  ];
  const names = [
    ["Fatima", "Al-Sabah"],
    ["Ahmad", "Al-Mutairi"],
    ["Maryam", "Al-Enezi"],
    ["Yousef", "Al-Rashidi"],
    ["Hessa", "Al-Ajmi"],
    ["Khalid", "Al-Shammari"],
  ];
  for (let i = 0; i < count; i += 1) {
    const address = addresses[i % addresses.length]!;
    const [firstName, lastName] = names[i % names.length]!;
    target.addOrder({
      payment: i % 3 === 0 ? "cod" : "paid",
      shippingAddress: {
        firstName,
        lastName,
        ...address,
        provinceCode: address.provinceCode ?? undefined,
        phone: `+965 9${String(1000000 + i * 7919).slice(0, 7)}`,
      },
      lineItems: [
        {
          title: i % 2 ? "Oud Perfume 100ml" : "Dates Gift Box",
          price: i % 2 ? "35.000" : "12.500",
          grams: i % 2 ? 450 : 1200,
        },
      ],
    });
  }
}
