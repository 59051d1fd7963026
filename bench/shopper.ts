/**
 * Asking the shopper, end to end (issue 26): the built app (`npm start`, its worker and shopper
 * loop on) against the Shopify stand-in and the courier sandbox, as `npm run demo` runs them.
 *
 * 1. The flow, on SQLite: `--orders` new orders (default 1,000) reach the app by signed
 *    orders/create webhooks; 30 % have doubtful or incomplete addresses (a landmark, no block, an
 *    unknown area) and 20 % are cash on delivery with the merchant's cash confirmation on. Simulated
 *    shoppers open their links over HTTP and answer: of those asked about the address, some fix it,
 *    some never answer, some try after the courier has picked the parcel up (the merchant released
 *    the hold and fulfilled first); of those asked only about the cash, most confirm. Then the
 *    merchant fulfils every order. Counted from the stand-ins' own records, never from the app's:
 *    holds placed and released, shipping addresses written, writes to a wrong order or after
 *    pickup, deliveries created and where they went.
 * 1b. The WhatsApp messages (issue 27, bench/shopper-messages.ts): quiet hours, WhatsApp's faults,
 *    a server killed mid-send, replayed webhooks and callbacks, forged callbacks, the second
 *    chance after a failed attempt; counted from the WhatsApp stand-in's record.
 * 2. The page's speed, on PostgreSQL with `--deliveries` (default 1,000,000) in 1,000 shops and
 *    2,000 open asks in the largest shop: the shopper's page by an ask's link and by a delivery's,
 *    and the answer (POST), one request at a time, beside /healthz (a bare route) in the same run.
 * 3. The page's LCP and CLS in headless Chromium on a 390 px phone, English and Arabic.
 *
 *   npm run bench:shopper [-- --orders 1000 --deliveries 1000000 --skip-postgres --quick
 *                              --messages-only]
 *
 * `--quick`: 200 orders, PostgreSQL with 20,000 deliveries. Prints readable lines and ends with
 * one JSON line.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { AREAS, GOVERNORATES } from "../app/addresses";
import { gid, type ShopifyStandInStore } from "../sandbox/shopify";
import { HUMAN_USER_AGENT } from "../test/support/browser";
import { migratePostgres, readMigrations } from "../scripts/pg-migrate";
import { ensureBuilt, startBuiltServer } from "./support/app-server";
import { messagesPart, type MessageFigures } from "./shopper-messages";
import { BENCH_SHOP as SHOP, startShopperStack } from "./support/shopper-stack";
import {
  benchServerEnv,
  freshPostgres,
  launchVitalsBrowser,
  seedPostgres,
  shapes,
  vitalsOf,
} from "./pages";
import { freePort, percentile, ROOT, round, scratchDir, until } from "./support/scratch";

const { values: args } = parseArgs({
  options: {
    orders: { type: "string" },
    deliveries: { type: "string" },
    quick: { type: "boolean", default: false },
    "skip-postgres": { type: "boolean", default: false },
    "messages-only": { type: "boolean", default: false },
    samples: { type: "string" },
  },
});
const QUICK = args.quick!;
const ORDERS = Number(args.orders ?? (QUICK ? 200 : 1_000));
const DELIVERIES = Number(args.deliveries ?? (QUICK ? 20_000 : 1_000_000));
const SAMPLES = Number(args.samples ?? (QUICK ? 60 : 300));
const TARGET = { p95Ms: 100, lcpMs: 1000, cls: 0.02 };

const scratch = scratchDir("bench-shopper");
const log = (line: string) => console.log(line);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");

// ---- the orders ---------------------------------------------------------------------------------

type Kind = "clear" | "doubtful";
interface BenchOrder {
  id: number;
  gid: string;
  kind: Kind;
  cod: boolean;
  language: "ar" | "en";
}

const CLEAR = [
  { city: "Salmiya", address1: "Block 10, Street 5, House 12", provinceCode: "KW-HA" },
  { city: "السالمية", address1: "قطعة 4 شارع 20 منزل 7", provinceCode: "KW-HA" },
  { city: "Mangaf", address1: "Block 4 Street 14 Building 22", provinceCode: "KW-AH" },
  { city: "Khaitan", address1: "Blk 7 St 79 House 10", provinceCode: "KW-FA" },
];
/** What shoppers type that the courier cannot use: a landmark, no block, an unknown area. */
const DOUBTFUL = [
  { city: "Salmiya", address1: "near the co-op, behind the mosque", provinceCode: "KW-HA" },
  { city: "Salmiya", address1: "Street 5, House 12", provinceCode: "KW-HA" },
  { city: "Kuwait", address1: "house 3 near Sultan Center", provinceCode: undefined },
  { city: "الجابرية", address1: "قرب الجمعية", provinceCode: "KW-HA" },
  { city: "Al Bida'a Gardens", address1: "Block 2 Street 4 House 9", provinceCode: "KW-HA" },
];

function addOrders(store: ShopifyStandInStore, count: number): BenchOrder[] {
  const out: BenchOrder[] = [];
  for (let i = 0; i < count; i += 1) {
    // 3 in 10 doubtful, 1 in 5 cash on delivery, spread so the two overlap as in a real shop.
    const kind: Kind = i % 10 < 3 ? "doubtful" : "clear";
    const cod = i % 5 === 1;
    const language = i % 3 === 0 ? "ar" : "en";
    const address = kind === "doubtful" ? DOUBTFUL[i % DOUBTFUL.length]! : CLEAR[i % CLEAR.length]!;
    const order = store.addOrder({
      payment: cod ? "cod" : "paid",
      customerLocale: language,
      shippingAddress: {
        firstName: "Shopper",
        lastName: String(i),
        ...address,
        phone: `+965 9${String(1_000_000 + i).slice(-7)}`,
      },
      lineItems: [{ title: i % 2 ? "Oud Perfume 100ml" : "Dates Gift Box", price: "12.500" }],
    });
    out.push({ id: order.id, gid: gid("Order", order.id), kind, cod, language });
  }
  return out;
}

// ---- part 1: the flow -----------------------------------------------------------------------

interface FlowFigures {
  orders: number;
  expectedAsks: number;
  asked: number;
  askedAboutAddress: number;
  askedAboutCashOnly: number;
  answered: number;
  fixes: number;
  confirms: number;
  neverAnswered: number;
  triedAfterPickup: number;
  refusedAfterPickup: number;
  shopifyAddressesUpdated: number;
  holdsPlaced: number;
  holdsReleased: number;
  ordersStillHeld: number;
  wrongWrites: number;
  deliveriesCreated: number;
  fixedSentWithAnswer: number;
  waitingForMerchant: number;
  checkSeconds: number;
  flowPageP95Ms: number;
  flowAnswerP95Ms: number;
}

async function flow(): Promise<FlowFigures> {
  log(`\n1. The flow on SQLite: ${ORDERS} orders (load ${load()})`);
  const stack = await startShopperStack({ dir: scratch.dir, name: "flow" });
  const { appUrl, courier, store, shopify } = stack;
  try {
    const { default: prisma } = await import("../app/db.server");
    // The model's release, as the action does it (the server's shopper loop carries it out).
    const { releaseAsk } = await import("../app/models/shopper-asks.server");
    const { loadCourierDirectory } = await import("../app/services/courier-directory.server");
    const { normalizeArabic } = await import("../app/addresses");
    await prisma.shopSettings.update({
      where: { shop: SHOP },
      data: { askShoppers: true, askCashConfirmation: true, askWindowHours: 24 },
    });
    const directory = (await loadCourierDirectory(SHOP, "sandbox"))!;
    const jabriya = directory.areas.find(
      (a) => normalizeArabic(a.name) === normalizeArabic("الجابرية"),
    )!;

    // The orders arrive: each a signed orders/create webhook to the built app.
    const checkStarted = performance.now();
    const orders = addOrders(store, ORDERS);
    await shopify.webhooks.flush();
    const byGid = new Map(orders.map((o) => [o.gid, o]));
    await until(
      "every order checked",
      async () =>
        (await prisma.shopperAsk.count({ where: { shop: SHOP } })) === ORDERS &&
        (await prisma.shopperAsk.count({ where: { shop: SHOP, state: "checking" } })) === 0,
      600_000,
    );
    const checkSeconds = (performance.now() - checkStarted) / 1000;
    const asks = await prisma.shopperAsk.findMany({
      where: { shop: SHOP, state: "asked" },
      orderBy: { orderId: "asc" },
    });
    const expectedAsks = orders.filter((o) => o.kind === "doubtful" || o.cod).length;
    log(
      `  ${asks.length} of ${ORDERS} orders held and asked (${expectedAsks} expected: doubtful or cash on delivery), checked in ${checkSeconds.toFixed(1)} s`,
    );

    // The shoppers.
    const pageMs: number[] = [];
    const answerMs: number[] = [];
    let client = 0;
    const headers = () => ({
      "user-agent": HUMAN_USER_AGENT,
      "x-forwarded-for": `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client++ & 255}`,
    });
    const open = async (token: string) => {
      const started = performance.now();
      const response = await fetch(`${appUrl}/tracking/${token}`, { headers: headers() });
      await response.text();
      pageMs.push(performance.now() - started);
      return response.status;
    };
    const answer = async (token: string, form: Record<string, string>) => {
      const started = performance.now();
      const response = await fetch(`${appUrl}/tracking/${token}`, {
        method: "POST",
        headers: {
          ...headers(),
          origin: appUrl,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(form).toString(),
        redirect: "manual",
      });
      await response.text();
      answerMs.push(performance.now() - started);
      return response.status;
    };
    const fixForm = (cash: boolean) => ({
      intent: "fix",
      governanceId: String(jabriya.governanceId),
      areaId: String(jabriya.id),
      block: "1",
      street: "2",
      house: "3",
      notes: "Green gate",
      ...(cash ? { cashConfirmed: "on" } : {}),
    });

    const fixed = new Set<string>();
    const confirmed = new Set<string>();
    const never = new Set<string>();
    const afterPickup = new Set<string>();
    let addressAsks = 0;
    // Of those asked about the address: most fix it, 3 in 20 never answer. Of those asked only
    // to confirm the cash: most confirm, 3 in 20 never answer, 4 in 20 answer only after the
    // merchant, tired of waiting, released the hold and fulfilled, and the courier picked up.
    for (const [i, ask] of asks.entries()) {
      const questions = JSON.parse(ask.questions ?? "[]") as string[];
      const aboutAddress = questions.includes("address");
      if (aboutAddress) addressAsks += 1;
      const roll = i % 20;
      if (roll < 3) never.add(ask.orderId);
      else if (aboutAddress) fixed.add(ask.orderId);
      else if (roll < 7) afterPickup.add(ask.orderId);
      else confirmed.add(ask.orderId);
    }

    // Those who answer: open the page, then fix or confirm.
    let refusedAnswers = 0;
    for (const ask of asks) {
      if (!fixed.has(ask.orderId) && !confirmed.has(ask.orderId)) continue;
      const cash = (JSON.parse(ask.questions ?? "[]") as string[]).includes("cash");
      if ((await open(ask.token)) !== 200) throw new Error(`page ${ask.orderId} did not open`);
      const status = fixed.has(ask.orderId)
        ? await answer(ask.token, fixForm(cash))
        : await answer(ask.token, { intent: "confirm", ...(cash ? { cashConfirmed: "on" } : {}) });
      if (status !== 303 && status !== 302) refusedAnswers += 1;
    }
    log(
      `  ${fixed.size} shoppers fixed their address, ${confirmed.size} confirmed; ${refusedAnswers} answers refused`,
    );

    // Those who answer too late: the merchant released the hold and fulfilled; the courier has it.
    for (const ask of asks.filter((a) => afterPickup.has(a.orderId)))
      await releaseAsk(SHOP, ask.id, new Date());
    await until("the released holds gone", async () =>
      asks
        .filter((a) => afterPickup.has(a.orderId))
        .every((a) => store.fulfillmentHolds(byGid.get(a.orderId)!.id).length === 0),
    );
    for (const ask of asks.filter((a) => afterPickup.has(a.orderId)))
      store.fulfillOrder(byGid.get(ask.orderId)!.id);
    await shopify.webhooks.flush();
    const lateIds = [...afterPickup];
    await until("the late shoppers' parcels at the courier", async () => {
      const rows = await prisma.delivery.findMany({
        where: { shop: SHOP, orderId: { in: lateIds }, courierOrderId: { not: null } },
        select: { courierOrderId: true },
      });
      return rows.length === lateIds.length && rows;
    }).then((rows) => {
      for (const row of rows) courier.advance(row.courierOrderId!, "picked_up");
    });
    await courier.flushWebhooks();
    await until("the late shoppers' parcels picked up", async () =>
      (await prisma.delivery.count({
        where: { shop: SHOP, orderId: { in: lateIds }, state: "picked_up" },
      })) === lateIds.length
        ? true
        : null,
    );
    let refusedAfterPickup = 0;
    for (const ask of asks.filter((a) => afterPickup.has(a.orderId))) {
      await open(ask.token);
      const status = await answer(ask.token, fixForm(true));
      const row = await prisma.shopperAsk.findUniqueOrThrow({ where: { id: ask.id } });
      if (status !== 303 && status !== 302 && row.answer === null) refusedAfterPickup += 1;
    }
    log(`  ${afterPickup.size} shoppers tried after pickup: ${refusedAfterPickup} refused`);

    // Shopify writes done (the order's address, the holds), then the window passes for the rest.
    await until("the answers written to Shopify", async () => {
      const open = await prisma.shopperAsk.count({
        where: { shop: SHOP, state: "answered", NOT: { pendingWork: null } },
      });
      const pending = await prisma.shopperAsk.findMany({
        where: { shop: SHOP, state: "answered" },
        select: { pendingWork: true },
      });
      return open === 0 || pending.every((p) => p.pendingWork === "[]") ? true : null;
    });
    await prisma.shopperAsk.updateMany({
      where: { shop: SHOP, orderId: { in: [...never] } },
      data: { answerBy: new Date(Date.now() - 1000), nextAttemptAt: new Date(Date.now() - 1000) },
    });
    await until("the unanswered asks expired and released", async () =>
      asks
        .filter((a) => never.has(a.orderId))
        .every((a) => store.fulfillmentHolds(byGid.get(a.orderId)!.id).length === 0),
    );

    // The merchant fulfils every order left.
    let refusedFulfilments = 0;
    for (const order of orders) {
      if (afterPickup.has(order.gid)) continue;
      if (!store.tryFulfillOrder(order.id).ok) refusedFulfilments += 1;
    }
    await shopify.webhooks.flush();
    await until("every fulfilment taken by the worker", async () =>
      (await prisma.delivery.count({
        where: { shop: SHOP, state: { in: ["pending", "ready", "creating", "unknown"] } },
      })) === 0 && (await prisma.delivery.count({ where: { shop: SHOP } })) >= ORDERS
        ? true
        : null,
    );

    // Counted from the stand-ins' records.
    const calls = store.graphqlLog.filter((c) => c.outcome === "ok" && c.userErrors.length === 0);
    const orderOfFulfillmentOrder = (id: unknown) =>
      gid("Order", store.fulfillmentOrder(String(id)).orderId);
    const heldOrders = new Set<string>();
    const releasedOrders = new Set<string>();
    const updated = new Map<string, number>();
    let holdsPlaced = 0;
    for (const call of calls) {
      const v = call.variables as Record<string, unknown>;
      if (call.query.includes("fulfillmentOrderHold(")) {
        holdsPlaced += 1;
        heldOrders.add(orderOfFulfillmentOrder(v.id));
      } else if (call.query.includes("fulfillmentOrderReleaseHold(")) {
        releasedOrders.add(orderOfFulfillmentOrder(v.id));
      } else if (call.query.includes("orderUpdate(")) {
        const input = v.input as { id: string; shippingAddress?: unknown };
        if (input.shippingAddress) updated.set(input.id, (updated.get(input.id) ?? 0) + 1);
      }
    }
    const fixedAnswered = await prisma.shopperAsk.findMany({
      where: { shop: SHOP, orderId: { in: [...fixed] } },
      select: { orderId: true, answer: true },
    });
    let wrongWrites = 0;
    for (const [orderId, times] of updated) {
      // Written once, only to an order whose own shopper fixed it, never after pickup.
      if (!fixed.has(orderId) || afterPickup.has(orderId)) wrongWrites += times;
      else if (times > 1) wrongWrites += times - 1;
    }
    for (const row of fixedAnswered) {
      const address = store.order(byGid.get(row.orderId)!.id).shippingAddress;
      if (!address?.address1?.includes("Block 1") || !/Jabriya|الجابرية/.test(address.city ?? ""))
        wrongWrites += 1;
    }
    const sent = [...courier.orders.values()];
    const byReference = new Map(sent.map((o) => [o.orderId, o]));
    const deliveries = await prisma.delivery.findMany({
      where: { shop: SHOP },
      select: { orderId: true, courierOrderId: true, state: true },
    });
    let fixedSentWithAnswer = 0;
    for (const d of deliveries) {
      if (!fixed.has(d.orderId) || !d.courierOrderId) continue;
      const courierOrder = byReference.get(d.courierOrderId);
      if (courierOrder?.request.deliveryAddress.areaId === jabriya.id) fixedSentWithAnswer += 1;
    }
    const ordersStillHeld = orders.filter((o) => store.fulfillmentHolds(o.id).length > 0).length;
    const answered = await prisma.shopperAsk.count({
      where: { shop: SHOP, answeredAt: { not: null } },
    });
    const figures: FlowFigures = {
      orders: ORDERS,
      expectedAsks,
      asked: asks.length,
      askedAboutAddress: addressAsks,
      askedAboutCashOnly: asks.length - addressAsks,
      answered,
      fixes: fixed.size,
      confirms: confirmed.size,
      neverAnswered: never.size,
      triedAfterPickup: afterPickup.size,
      refusedAfterPickup,
      shopifyAddressesUpdated: updated.size,
      holdsPlaced,
      holdsReleased: [...heldOrders].filter((o) => releasedOrders.has(o)).length,
      ordersStillHeld,
      wrongWrites,
      deliveriesCreated: deliveries.filter((d) => d.courierOrderId !== null).length,
      fixedSentWithAnswer,
      waitingForMerchant: deliveries.filter((d) => d.state === "needs_address").length,
      checkSeconds: round(checkSeconds, 1),
      flowPageP95Ms: round(percentile(pageMs, 95), 1),
      flowAnswerP95Ms: round(percentile(answerMs, 95), 1),
    };
    log(
      `  Shopify: ${holdsPlaced} holds placed, ${figures.holdsReleased} orders' holds released, ${ordersStillHeld} still held; ${updated.size} shipping addresses written (${fixed.size} fixes), ${wrongWrites} wrong writes; ${refusedFulfilments} fulfilments refused`,
    );
    log(
      `  courier: ${figures.deliveriesCreated} deliveries created, ${fixedSentWithAnswer} of ${fixed.size} fixed ones sent to the shopper's area; ${figures.waitingForMerchant} wait in Address review`,
    );
    log(
      `  page p95 ${figures.flowPageP95Ms} ms, answer p95 ${figures.flowAnswerP95Ms} ms (SQLite, the worker busy beside)`,
    );
    await prisma.$disconnect();
    return figures;
  } catch (error) {
    console.error(stack.server().log().split("\n").slice(-30).join("\n"));
    throw error;
  } finally {
    await stack.close();
  }
}

// ---- part 2: the page under a large history ------------------------------------------------

const ASKS_IN_BIG_SHOP = 2_000;
/** Salmiya's ids in the seeded shops' master data (bench/pages.ts numbers the gazetteer's areas). */
const SALMIYA = (() => {
  const index = AREAS.findIndex((a) => a.nameEn === "Salmiya");
  const area = AREAS[index]!;
  return {
    areaId: 100 + index,
    governanceId: GOVERNORATES.findIndex((g) => g.code === area.governorateCode) + 1,
  };
})();

async function seedAsks(url: string, shop: string, count: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tokens: string[] = [];
    const now = Date.now();
    for (let start = 0; start < count; start += 500) {
      const params: unknown[] = [];
      const tuples: string[] = [];
      for (let i = start; i < Math.min(count, start + 500); i += 1) {
        const token = randomBytes(16).toString("hex");
        tokens.push(token);
        const snapshot = {
          address: {
            firstName: "Shopper",
            lastName: String(i),
            address1: i % 2 ? "near the co-op, behind the mosque" : "Street 5, House 12",
            address2: null,
            city: i % 3 ? "Salmiya" : "السالمية",
            provinceCode: "KW-HA",
            zip: null,
            countryCode: "KW",
            phone: `+965 9${String(1_000_000 + i).slice(-7)}`,
          },
          phone: null,
          items: [
            { title: "Oud Perfume 100ml", quantity: 1 },
            { title: "Dates Gift Box", quantity: 2 },
          ],
          cashToCollectFils: i % 5 === 0 ? 36_500 : null,
          currency: "KWD",
        };
        const v = [
          `ask-${i}`,
          shop,
          `gid://shopify/Order/${9_000_000 + i}`,
          `#B${9_000 + i}`,
          token,
          "asked",
          JSON.stringify(i % 5 === 0 ? ["address", "cash"] : ["address"]),
          JSON.stringify(["no_block"]),
          JSON.stringify(snapshot),
          i % 3 ? "en" : "ar",
          JSON.stringify([
            { fulfillmentOrderId: `gid://shopify/FulfillmentOrder/${i}`, holdId: null },
          ]),
          new Date(now),
          new Date(now + 24 * 3_600_000),
          new Date(now + 31 * 86_400_000),
          new Date(now + 24 * 3_600_000),
        ];
        const at = params.length;
        params.push(...v);
        tuples.push(`(${v.map((_, k) => `$${at + k + 1}`).join(",")}, now())`);
      }
      await client.query(
        `INSERT INTO "ShopperAsk" ("id","shop","orderId","orderName","token","state","questions","reasons","orderSnapshot","customerLanguage","holds","askedAt","answerBy","linkExpiresAt","nextAttemptAt","updatedAt") VALUES ${tuples.join(",")}`,
        params,
      );
    }
    await client.query(`ANALYZE "ShopperAsk"`);
    const { rows } = await client.query<{ trackingToken: string }>(
      `SELECT "trackingToken" FROM "Delivery" WHERE shop = $1 AND "courierOrderNumber" IS NOT NULL ORDER BY random() LIMIT $2`,
      [shop, count],
    );
    return { askTokens: tokens, deliveryTokens: rows.map((r) => r.trackingToken) };
  } finally {
    await client.end();
  }
}

interface PageFigures {
  database: string;
  deliveries: number;
  shopperPageP50Ms: number;
  shopperPageP95Ms: number;
  trackingPageP95Ms: number;
  answerP50Ms: number;
  answerP95Ms: number;
  bareRouteP95Ms: number;
  lcpMsEn: number;
  clsEn: number;
  lcpMsAr: number;
  clsAr: number;
}

async function pages(): Promise<PageFigures> {
  const shapesPg = shapes(DELIVERIES, QUICK ? 50 : 1_000, Math.round(DELIVERIES / 10));
  const bigShop = shapesPg[0]!.shop;
  log(
    `\n2. The page on PostgreSQL: ${DELIVERIES.toLocaleString("en-US")} deliveries in ${shapesPg.length} shops`,
  );
  const url = await freshPostgres("bench_shopper");
  const seedStarted = performance.now();
  await migratePostgres(url, readMigrations());
  await seedPostgres(url, shapesPg, Date.now());
  const { askTokens, deliveryTokens } = await seedAsks(url, bigShop, ASKS_IN_BIG_SHOP);
  log(
    `  seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s, ${askTokens.length} open asks in ${bigShop}`,
  );
  const port = await freePort();
  const server = await startBuiltServer({
    env: { ...benchServerEnv(port, url), TRUST_PROXY: "1" },
    port,
    logFile: path.join(scratch.dir, "pages-server.log"),
    startTimeoutMs: 90_000,
  });
  try {
    let client = 0;
    const headers = () => ({
      "user-agent": HUMAN_USER_AGENT,
      "x-forwarded-for": `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client++ & 255}`,
    });
    const time = async (path: string, init: RequestInit = {}) => {
      const started = performance.now();
      const response = await fetch(`${server.url}${path}`, {
        ...init,
        headers: { ...headers(), ...(init.headers as Record<string, string>) },
        redirect: "manual",
      });
      await response.text();
      return { ms: performance.now() - started, status: response.status };
    };
    // Warm: the first requests compile routes and fill the courier directory's cache.
    for (let i = 0; i < 10; i += 1) {
      await time(`/tracking/${askTokens[i]}`);
      await time("/healthz");
    }
    const askPage: number[] = [];
    const deliveryPage: number[] = [];
    const answers: number[] = [];
    const bare: number[] = [];
    const statuses = new Map<string, number>();
    const count = (kind: string, status: number) =>
      statuses.set(`${kind} ${status}`, (statuses.get(`${kind} ${status}`) ?? 0) + 1);
    for (let i = 0; i < SAMPLES; i += 1) {
      const ask = askTokens[10 + (i % (askTokens.length - 10))]!;
      const a = await time(`/tracking/${ask}`);
      askPage.push(a.ms);
      count("ask page", a.status);
      const d = await time(`/tracking/${deliveryTokens[i % deliveryTokens.length]}`);
      deliveryPage.push(d.ms);
      count("delivery page", d.status);
      const h = await time("/healthz");
      bare.push(h.ms);
      const p = await time(`/tracking/${ask}`, {
        method: "POST",
        headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          intent: "fix",
          governanceId: String(SALMIYA.governanceId),
          areaId: String(SALMIYA.areaId),
          block: "1",
          street: "2",
          house: String(i),
        }).toString(),
      });
      answers.push(p.ms);
      count("answer", p.status);
    }
    log(`  replies: ${[...statuses].map(([k, v]) => `${k}: ${v}`).join(", ")}`);
    const figures = {
      database: "postgresql",
      deliveries: DELIVERIES,
      shopperPageP50Ms: round(percentile(askPage, 50), 1),
      shopperPageP95Ms: round(percentile(askPage, 95), 1),
      trackingPageP95Ms: round(percentile(deliveryPage, 95), 1),
      answerP50Ms: round(percentile(answers, 50), 1),
      answerP95Ms: round(percentile(answers, 95), 1),
      bareRouteP95Ms: round(percentile(bare, 95), 1),
    };
    log(
      `  shopper's page by an ask's link: p50 ${figures.shopperPageP50Ms} ms, p95 ${figures.shopperPageP95Ms} ms (target ≤ ${TARGET.p95Ms})`,
    );
    log(`  shopper's page by a delivery's link: p95 ${figures.trackingPageP95Ms} ms`);
    log(
      `  the answer (POST, then the redirect's page not followed): p50 ${figures.answerP50Ms} ms, p95 ${figures.answerP95Ms} ms (target ≤ ${TARGET.p95Ms})`,
    );
    log(`  /healthz beside them: p95 ${figures.bareRouteP95Ms} ms  (load ${load()})`);

    // 3. Web vitals on a phone.
    log(`\n3. The page in Chromium at 390 px`);
    const browser = await launchVitalsBrowser();
    const vitals: Record<string, { lcp: number; cls: number }> = {};
    try {
      for (const language of ["en", "ar"] as const) {
        const context = await browser.newContext({
          viewport: { width: 390, height: 844 },
          deviceScaleFactor: 2,
          isMobile: true,
          hasTouch: true,
          userAgent: HUMAN_USER_AGENT,
          extraHTTPHeaders: { "x-forwarded-for": `10.250.0.${language === "en" ? 1 : 2}` },
        });
        const tab = await context.newPage();
        await tab.goto(`${server.url}/tracking/${askTokens[0]}?lang=${language}`, {
          waitUntil: "load",
        });
        await tab.waitForTimeout(1000);
        const measured = await vitalsOf(tab);
        vitals[language] = { lcp: Math.round(measured.lcp), cls: round(measured.cls, 3) };
        log(
          `  ${language}: LCP ${vitals[language].lcp} ms (target ≤ ${TARGET.lcpMs}), CLS ${vitals[language].cls} (target ≤ ${TARGET.cls})${measured.shifts.length ? `; shifts: ${measured.shifts.join("; ")}` : ""}`,
        );
        await context.close();
      }
    } finally {
      await browser.close();
    }
    return {
      ...figures,
      lcpMsEn: vitals.en!.lcp,
      clsEn: vitals.en!.cls,
      lcpMsAr: vitals.ar!.lcp,
      clsAr: vitals.ar!.cls,
    };
  } finally {
    await server.stop();
  }
}

/**
 * Part 1b in a process of its own: the app's modules keep one database and one environment per
 * process, and part 1 has set both to its own stack.
 */
function messagesInItsOwnProcess(): MessageFigures {
  const output = execFileSync(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(ROOT, "bench", "shopper.ts"),
      "--messages-only",
      ...(QUICK ? ["--quick"] : []),
    ],
    { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20 },
  );
  const lines = output.trimEnd().split("\n");
  for (const line of lines.slice(0, -1)) if (line.startsWith("  ")) log(line);
  // Its own JSON line, without its header and checks (this run's come at the end).
  const {
    bench: _bench,
    load: _load,
    checks: _checks,
    ...figures
  } = JSON.parse(lines.at(-1)!) as MessageFigures & {
    bench: string;
    load: number[];
    checks: unknown;
  };
  return figures;
}

// ---- main -----------------------------------------------------------------------------------

const built = ensureBuilt(scratch.dir);
log(
  `bench:shopper on ${os.cpus().length} cores, load ${load()}; build ${built.state}${built.state === "stale" ? ` (${built.reason})` : ""}`,
);
const MESSAGES_ONLY = args["messages-only"]!;
const flowFigures = MESSAGES_ONLY ? null : await flow();
log(`\n1b. WhatsApp messages on SQLite (load ${load()})`);
const messageFigures = MESSAGES_ONLY
  ? await messagesPart({
      dir: scratch.dir,
      orders: QUICK ? 40 : 120,
      rescues: QUICK ? 10 : 30,
      log,
    })
  : messagesInItsOwnProcess();
const pageFigures = args["skip-postgres"] || MESSAGES_ONLY ? null : await pages();
const result = {
  bench: "shopper",
  load: os.loadavg().map((l) => round(l, 2)),
  ...(flowFigures ?? {}),
  ...messageFigures,
  ...(pageFigures ?? {}),
  checks: {
    ...(flowFigures
      ? {
          holdsPlacedEqualsAsked: flowFigures.holdsPlaced === flowFigures.asked,
          holdsReleasedEqualsAsked: flowFigures.holdsReleased === flowFigures.asked,
          addressesUpdatedEqualsFixes: flowFigures.shopifyAddressesUpdated === flowFigures.fixes,
          noWrongWrites: flowFigures.wrongWrites === 0,
        }
      : {}),
    noDuplicateMessages: messageFigures.duplicateMessages === 0,
    noMessagesInQuietHours: messageFigures.messagesInQuietHours === 0,
    everyCallbackVerified:
      messageFigures.statusCallbacksVerified === messageFigures.statusCallbacks &&
      messageFigures.forgedRefused === messageFigures.forgedCallbacks,
    failedToMessageP95: messageFigures.failedToMessageP95Ms <= 60_000,
    ...(pageFigures
      ? {
          pageP95: pageFigures.shopperPageP95Ms <= TARGET.p95Ms,
          answerP95: pageFigures.answerP95Ms <= TARGET.p95Ms,
          lcp: Math.max(pageFigures.lcpMsEn, pageFigures.lcpMsAr) <= TARGET.lcpMs,
          cls: Math.max(pageFigures.clsEn, pageFigures.clsAr) <= TARGET.cls,
        }
      : {}),
  },
};
console.log(JSON.stringify(result));
fs.rmSync(scratch.dir, { recursive: true, force: true });
process.exit(0);
