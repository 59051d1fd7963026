/**
 * The merchant's pages under a large history (issue 14): the built server (`npm start`, NODE_ENV
 * unset) on loopback, with seeded shops, measured one request at a time so each figure is the
 * server's time for that page alone:
 *
 * - SQLite: 200,000 deliveries in 100 shops (one with 100,000, one with 10,000, one with 10);
 * - PostgreSQL: 1,000,000 deliveries in 1,000 shops (the same three shapes, the rest ~890 each);
 *
 * and for each: home (the dashboard), the deliveries list (first page, every tab, a filter, a
 * name search, a phone search, a deep page), a delivery's page, the labels page with 50 labels
 * and the courier reports page (its courier unreachable: the app's own part), in the 100k shop,
 * the list and home again in the 10k and 10-row shops (cost must not grow with the rows), and
 * /healthz (a bare route) in the same run. Then web vitals (LCP, CLS) of each page in headless Chromium.
 *
 *   npm run bench:pages [-- --quick] [--against main] [--skip-postgres] [--samples 40]
 *
 * `--quick`: 20,000 SQLite rows (big shop 10,000), PostgreSQL skipped, fewer samples: CI-sized.
 * `--pages labels:50,reports`: only the pages named, without web vitals.
 * `--against REF` builds that commit in a scratch copy and measures its pages on the same
 * databases first (seeded for its schema), as the "before".
 * Prints readable lines and ends with one JSON line.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { API_KEY, API_SECRET_KEY, getJwt } from "@shopify/shopify-api/test-helpers";
import Database from "better-sqlite3";
import pg from "pg";
import { AREAS, GOVERNORATES } from "../app/addresses";
import { foldName } from "../app/models/read/delivery-list";
import { migratePostgres, readMigrations } from "../scripts/pg-migrate";
import type { Browser, Page } from "playwright-core";
import { HUMAN_USER_AGENT, launchBrowser } from "../test/support/browser";
import { TEST_ENCRYPTION_KEYS, TEST_SCOPES } from "../test/support/test-env";
import { ensureBuilt, startBuiltServer, type RunningServer } from "./support/app-server";
import { buildBefore } from "./support/before-tree";
import { freePort, migrateDatabase, ROOT, round, scratchDir } from "./support/scratch";

// Run as `npm run bench:pages`; imported (bench/vitals.ts), only its pieces are used.
const IS_MAIN = path.resolve(process.argv[1] ?? "") === fileURLToPath(import.meta.url);
const { values: args } = parseArgs({
  args: IS_MAIN ? undefined : [],
  options: {
    quick: { type: "boolean", default: false },
    against: { type: "string" },
    "skip-postgres": { type: "boolean", default: false },
    samples: { type: "string" },
    pages: { type: "string" },
  },
});
/** `--pages labels:50,reports`: only these pages (and no vitals), to follow one page's figure. */
const ONLY = args.pages?.split(",").map((name) => name.trim());
const QUICK = args.quick!;
const SAMPLES = Number(args.samples ?? (QUICK ? 15 : 40));
const POSTGRES_ADMIN_URL =
  process.env.BENCH_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const DAY_MS = 86_400_000;
const TARGET = { p95Ms: 100, lcpMs: 1000, cls: 0.02 };

interface ShopShape {
  shop: string;
  rows: number;
}

export function shapes(total: number, shops: number, big: number): ShopShape[] {
  const mid = Math.min(10_000, Math.round(big / 10));
  const fixed: ShopShape[] = [
    { shop: "bench-big.myshopify.com", rows: big },
    { shop: "bench-mid.myshopify.com", rows: mid },
    { shop: "bench-tiny.myshopify.com", rows: 10 },
  ];
  const rest = total - big - mid - 10;
  const others = shops - fixed.length;
  for (let i = 0; i < others; i += 1) {
    fixed.push({
      shop: `bench-${i}.myshopify.com`,
      rows: Math.floor(rest / others) + (i < rest % others ? 1 : 0),
    });
  }
  return fixed;
}

// ---- seed rows --------------------------------------------------------------------------------

const FIRST = [
  "Ahmed",
  "Fatima",
  "Mohammed",
  "Mariam",
  "Ali",
  "Noura",
  "Yousef",
  "Sara",
  "أحمد",
  "فاطمة",
  "محمد",
  "مريم",
];
const LAST = [
  "Al-Sabah",
  "Al-Mutairi",
  "Al-Azmi",
  "Al-Enezi",
  "Haddad",
  "Karam",
  "العتيبي",
  "الرشيدي",
  "الكندري",
];
const GOVERNANCE_IDS = GOVERNORATES.map((g, i) => ({ id: i + 1, code: g.code, nameAr: g.nameAr }));
const AREA_IDS = AREAS.map((a, i) => ({
  id: 100 + i,
  governanceId: GOVERNANCE_IDS.find((g) => g.code === a.governorateCode)!.id,
  nameAr: a.nameAr,
}));

/** The courier's master data the seeded shops have, built from the gazetteer. */
const MASTER_DATA = {
  governances: JSON.stringify(
    GOVERNANCE_IDS.map((g) => ({ governanceId: g.id, governanceName: g.nameAr })),
  ),
  areas: JSON.stringify(
    AREA_IDS.map((a) => ({
      areaId: a.id,
      areaName: a.nameAr,
      governanceId: a.governanceId,
      raw: { areaId: a.id, areaName: a.nameAr },
    })),
  ),
};

/** Outcomes of a delivery older than a few days; recent ones are still under way. */
function stateFor(ageDays: number, r: number): string {
  if (ageDays > 3) {
    if (r < 0.86) return "delivered";
    if (r < 0.9) return "returned";
    if (r < 0.93) return "cancelled";
    if (r < 0.95) return "skipped";
    if (r < 0.96) return "failed";
    return "delivered";
  }
  const active = [
    "pending",
    "ready",
    "needs_address",
    "created",
    "picked_up",
    "in_transit",
    "out_for_delivery",
    "delivered",
    "delivered",
    "failed",
    "rejected",
  ];
  return active[Math.floor(r * active.length)]!;
}

interface SeedRow {
  id: string;
  shop: string;
  orderId: string;
  orderName: string;
  fulfillmentId: string;
  state: string;
  reference: string;
  request: string;
  cashToCollect: string | null;
  courierOrderId: string | null;
  courierOrderNumber: string | null;
  trackingUrl: string | null;
  trackingPushedAt: Date | null;
  lastMovedAt: Date | null;
  createdAt: Date;
  // Derived (the new schema's list fields).
  customerName: string;
  customerPhone: string;
  nameKey: string;
  nameKey2: string | null;
  governanceId: number;
  areaId: number;
}

let seq = 0;
function* rowsOf(shape: ShopShape, now: number): Generator<SeedRow> {
  const span = Math.min(365, Math.max(14, shape.rows / 50)) * DAY_MS;
  for (let i = 0; i < shape.rows; i += 1) {
    seq += 1;
    const n = seq;
    // Evenly through the span, newest last; a little jitter.
    const createdAt = new Date(now - span + (span * (i + Math.random() * 0.5)) / shape.rows);
    const ageDays = (now - createdAt.getTime()) / DAY_MS;
    const state = stateFor(ageDays, Math.random());
    const tracked = !["pending", "ready", "needs_address", "skipped", "rejected"].includes(state);
    const area = AREA_IDS[n % AREA_IDS.length]!;
    const name = `${FIRST[n % FIRST.length]} ${LAST[(n >> 3) % LAST.length]}`;
    const phone = `${[5, 6, 9][n % 3]}${String(1_000_000 + ((n * 7919) % 9_000_000)).padStart(7, "0")}`;
    const moved = Math.min(now - 60_000, createdAt.getTime() + (2 + (n % 40)) * 3_600_000);
    const key = foldName(name);
    const space = key.indexOf(" ");
    yield {
      // 20 characters: the shape of a delivery id the API takes (a cuid is 25).
      id: `b${n.toString(36).padStart(11, "0")}${randomBytes(4).toString("hex")}`,
      shop: shape.shop,
      orderId: `gid://shopify/Order/${n}`,
      orderName: `#${1000 + i}`,
      fulfillmentId: `gid://shopify/Fulfillment/${n}`,
      state,
      reference: `SHPFY-bench-${n}`,
      request: JSON.stringify({
        pickupAddress: {
          governanceId: 1,
          areaId: 100,
          block: "1",
          street: "1",
          contactName: "Shop",
          contactPhone: "22000000",
        },
        pickupDate: "2026-11-25T10:00:00",
        paymentMethod: "COD",
        deliveryAddress: {
          governanceId: area.governanceId,
          areaId: area.id,
          block: String(1 + (n % 12)),
          street: String(1 + (n % 40)),
          office: "",
          floor: "",
          house: String(1 + (n % 90)),
          avenue: "",
          building: "",
          contactCountryCode: "+965",
          contactName: name,
          contactPhone: phone,
          notes: "",
        },
        packageDetails: { weight: "1.000", description: "Order items", value: "12.500" },
        notes: `SHPFY-bench-${n}`,
      }),
      cashToCollect: n % 2 === 0 ? `${5 + (n % 30)}.${String(n % 1000).padStart(3, "0")}` : null,
      courierOrderId: tracked ? `C${n}` : null,
      courierOrderNumber: tracked ? `KW${String(n).padStart(9, "0")}` : null,
      // As the courier answers it: each label prints it as a QR code.
      trackingUrl: tracked
        ? `https://track.courier.example/t/KW${String(n).padStart(9, "0")}`
        : null,
      trackingPushedAt: tracked ? new Date(createdAt.getTime() + 60_000) : null,
      lastMovedAt: tracked ? new Date(moved) : null,
      createdAt,
      customerName: name,
      customerPhone: phone,
      nameKey: key,
      nameKey2: space > 0 ? key.slice(space + 1) : null,
      governanceId: area.governanceId,
      areaId: area.id,
    };
  }
}

const BASE_COLUMNS = [
  "id",
  "shop",
  "orderId",
  "orderName",
  "fulfillmentId",
  "source",
  "state",
  "environment",
  "reference",
  "request",
  "cashToCollect",
  "courierOrderId",
  "courierOrderNumber",
  "trackingUrl",
  "trackingPushedAt",
  "lastMovedAt",
  "createdAt",
  "updatedAt",
] as const;
const LIST_COLUMNS = [
  "customerName",
  "customerPhone",
  "nameKey",
  "nameKey2",
  "governanceId",
  "areaId",
] as const;

function values(row: SeedRow, withList: boolean, time: (d: Date | null) => unknown) {
  const base = [
    row.id,
    row.shop,
    row.orderId,
    row.orderName,
    row.fulfillmentId,
    "webhook",
    row.state,
    "sandbox",
    row.reference,
    row.request,
    row.cashToCollect,
    row.courierOrderId,
    row.courierOrderNumber,
    row.trackingUrl,
    time(row.trackingPushedAt),
    time(row.lastMovedAt),
    time(row.createdAt),
    time(row.lastMovedAt ?? row.createdAt),
  ];
  return withList
    ? [
        ...base,
        row.customerName,
        row.customerPhone,
        row.nameKey,
        row.nameKey2,
        row.governanceId,
        row.areaId,
      ]
    : base;
}

/** The indexes and triggers of migration 20261125110000_list_indexes, dropped. */
function withoutListIndexes(file: string) {
  const sql = fs.readFileSync(
    path.join(ROOT, "prisma", "migrations", "20261125110000_list_indexes", "migration.sql"),
    "utf8",
  );
  const db = new Database(file);
  for (const [, name] of sql.matchAll(/CREATE INDEX "([^"]+)"/g)) db.exec(`DROP INDEX "${name}"`);
  for (const [, name] of sql.matchAll(/CREATE TRIGGER "([^"]+)"/g))
    db.exec(`DROP TRIGGER "${name}"`);
  db.close();
}

/**
 * The shop's name as Shopify has it, which the app keeps once read (the labels print it): a shop
 * with a history has been opened before. Without it each labels page asked Shopify again.
 */
const shopName = (shop: string) => `Bench ${shop.replace(".myshopify.com", "")}`;

const sqliteTime = (d: Date | null) => (d === null ? null : d.toISOString().replace("Z", "+00:00"));

export function seedSqlite(file: string, all: ShopShape[], now: number) {
  const db = new Database(file);
  const withList = (db.prepare(`PRAGMA table_info("Delivery")`).all() as { name: string }[]).some(
    (c) => c.name === "nameKey",
  );
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  // The list fields are written with the rows; the trigger that derives them is not needed here.
  const triggers = db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'Delivery'`)
    .all() as { name: string; sql: string }[];
  for (const t of triggers) db.exec(`DROP TRIGGER "${t.name}"`);
  const columns = [...BASE_COLUMNS, ...(withList ? LIST_COLUMNS : [])];
  const insert = db.prepare(
    `INSERT INTO "Delivery" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  const settings = db.prepare(
    `INSERT INTO "ShopSettings" ("id", "shop", "courierEnvironment", "shopifyShopName", "updatedAt") VALUES (?, ?, 'sandbox', ?, ?)`,
  );
  const master = db.prepare(
    `INSERT INTO "CourierMasterData" ("id", "shop", "environment", "governances", "areas", "fetchedAt") VALUES (?, ?, 'sandbox', ?, ?, ?)`,
  );
  const session = db.prepare(
    `INSERT INTO "Session" ("id", "shop", "state", "isOnline", "scope", "accessToken") VALUES (?, ?, '', 0, ?, ?)`,
  );
  db.transaction(() => {
    for (const shape of all) {
      const at = sqliteTime(new Date(now));
      settings.run(`s-${shape.shop}`, shape.shop, shopName(shape.shop), at);
      master.run(`m-${shape.shop}`, shape.shop, MASTER_DATA.governances, MASTER_DATA.areas, at);
      session.run(
        `offline_${shape.shop}`,
        shape.shop,
        TEST_SCOPES,
        `shpat_${randomBytes(16).toString("hex")}`,
      );
      for (const row of rowsOf(shape, now))
        insert.run(...(values(row, withList, sqliteTime) as never[]));
    }
  })();
  for (const t of triggers) db.exec(t.sql);
  db.exec("ANALYZE");
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}

export async function seedPostgres(url: string, all: ShopShape[], now: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'Delivery' AND column_name = 'nameKey'`,
    );
    const withList = rows.length > 0;
    const columns = [...BASE_COLUMNS, ...(withList ? LIST_COLUMNS : [])];
    // Triggers off for this session: the list fields are written with the rows.
    await client.query("SET session_replication_role = replica");
    const iso = (d: Date | null) => (d === null ? null : d.toISOString());
    const BATCH = 1000;
    let batch: unknown[][] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const params: unknown[] = [];
      const tuples = batch.map((v) => {
        const start = params.length;
        params.push(...v);
        return `(${v.map((_, i) => `$${start + i + 1}`).join(",")})`;
      });
      await client.query(
        `INSERT INTO "Delivery" (${columns.map((c) => `"${c}"`).join(",")}) VALUES ${tuples.join(",")}`,
        params,
      );
      batch = [];
    };
    await client.query("BEGIN");
    for (const shape of all) {
      await client.query(
        `INSERT INTO "ShopSettings" ("id", "shop", "courierEnvironment", "shopifyShopName", "updatedAt") VALUES ($1, $2, 'sandbox', $3, now())`,
        [`s-${shape.shop}`, shape.shop, shopName(shape.shop)],
      );
      await client.query(
        `INSERT INTO "CourierMasterData" ("id", "shop", "environment", "governances", "areas", "fetchedAt") VALUES ($1, $2, 'sandbox', $3, $4, now())`,
        [`m-${shape.shop}`, shape.shop, MASTER_DATA.governances, MASTER_DATA.areas],
      );
      await client.query(
        `INSERT INTO "Session" ("id", "shop", "state", "isOnline", "scope", "accessToken") VALUES ($1, $2, '', false, $3, $4)`,
        [
          `offline_${shape.shop}`,
          shape.shop,
          TEST_SCOPES,
          `shpat_${randomBytes(16).toString("hex")}`,
        ],
      );
      for (const row of rowsOf(shape, now)) {
        batch.push(values(row, withList, iso));
        if (batch.length >= BATCH) await flush();
      }
    }
    await flush();
    await client.query("COMMIT");
    // Settled as a history of months is: vacuumed (else autovacuum's first pass over a million
    // fresh rows runs on the same two cores while pages are timed) and written out (else the
    // checkpointer writes the load's gigabyte meanwhile). Timed on the settled database, the
    // tabs' p95 was 34-53 ms where the run right after the load printed 82-123 ms.
    await client.query("VACUUM ANALYZE");
    // CHECKPOINT needs a superuser or pg_checkpoint; without either the run goes on unsettled.
    await client.query("CHECKPOINT").catch((error: Error) => {
      console.warn(`  CHECKPOINT refused (${error.message}): timing without it`);
    });
  } finally {
    await client.end();
  }
}

export async function freshPostgres(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.href;
}

// ---- measuring --------------------------------------------------------------------------------

const UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

export async function embeddedUrl(base: string, shop: string, pagePath: string) {
  const name = shop.replace(".myshopify.com", "");
  const { token } = await getJwt(name, API_KEY, API_SECRET_KEY);
  const url = new URL(pagePath, base);
  url.searchParams.set("embedded", "1");
  url.searchParams.set("shop", shop);
  url.searchParams.set("host", Buffer.from(`admin.shopify.com/store/${name}`).toString("base64"));
  url.searchParams.set("id_token", token);
  return url.href;
}

const p95 = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
};

async function timePage(
  base: string,
  shop: string | null,
  pagePath: string,
  expect?: PageSet[string]["expect"],
): Promise<{ p95: number; median: number }> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES + 3; i += 1) {
    const url = shop ? await embeddedUrl(base, shop, pagePath) : `${base}${pagePath}`;
    const started = performance.now();
    const response = await fetch(url, { headers: { "User-Agent": UA }, redirect: "manual" });
    const text = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`${pagePath} answered ${response.status}`);
    if (i === 0 && expect && count(text, expect.text) < expect.times)
      throw new Error(
        `${pagePath} holds "${expect.text}" ${count(text, expect.text)} times, not ${expect.times}`,
      );
    if (i >= 3) times.push(ms);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { p95: round(p95(times), 1), median: round(sorted[Math.floor(sorted.length / 2)]!, 1) };
}

const count = (text: string, part: string) => text.split(part).length - 1;

interface PageSet {
  /** `expect`: a text the page must hold at least so many times (what it shows, not only a 200). */
  [name: string]: { shop: string | null; path: string; expect?: { text: string; times: number } };
}

export async function pageSet(kind: "after" | "before", db: Lookup): Promise<PageSet> {
  const big = "bench-big.myshopify.com";
  const deep = await db.deepCursor(big);
  const search = await db.someName(big);
  const pages: PageSet = {
    bare: { shop: null, path: "/healthz" },
    home: { shop: big, path: "/app" },
    list: { shop: big, path: "/app/deliveries" },
    delivery: { shop: big, path: `/app/deliveries/${await db.someId(big)}` },
  };
  if (kind === "after") {
    for (const tab of [
      "attention",
      "in_progress",
      "out_for_delivery",
      "delivered",
      "failed_returned",
      "cancelled",
    ]) {
      pages[`tab:${tab}`] = { shop: big, path: `/app/deliveries?tab=${tab}` };
    }
    pages.filter = { shop: big, path: "/app/deliveries?governorate=2&cod=cod" };
    pages["search:name"] = {
      shop: big,
      path: `/app/deliveries?q=${encodeURIComponent(search.name)}`,
    };
    pages["search:phone"] = { shop: big, path: `/app/deliveries?q=${search.phone}` };
    pages.deep = { shop: big, path: `/app/deliveries?after=${deep.cursor}` };
    pages["list:mid"] = { shop: "bench-mid.myshopify.com", path: "/app/deliveries" };
    pages["list:tiny"] = { shop: "bench-tiny.myshopify.com", path: "/app/deliveries" };
    pages["tab:delivered:mid"] = {
      shop: "bench-mid.myshopify.com",
      path: "/app/deliveries?tab=delivered",
    };
    pages["home:mid"] = { shop: "bench-mid.myshopify.com", path: "/app" };
  } else {
    pages["tab:delivered"] = { shop: big, path: "/app/deliveries?state=delivered" };
    pages["tab:attention"] = { shop: big, path: "/app/deliveries?state=attention" };
    pages["search:name"] = {
      shop: big,
      path: `/app/deliveries?q=${encodeURIComponent(search.order)}`,
    };
    pages.deep = { shop: big, path: `/app/deliveries?page=${deep.page}` };
    pages["list:mid"] = { shop: "bench-mid.myshopify.com", path: "/app/deliveries" };
    pages["list:tiny"] = { shop: "bench-tiny.myshopify.com", path: "/app/deliveries" };
  }
  // Both trees have these two pages: the before's figures are the same pages'.
  pages["labels:50"] = {
    shop: big,
    path: `/app/labels?deliveryIds=${(await db.labelIds(big, 50)).join(",")}`,
    // Each label's section, in the frame's document (in the page's data; main had it twice).
    expect: { text: "data-delivery=", times: 50 },
  };
  pages.reports = { shop: big, path: "/app/reports" };
  return pages;
}

interface Lookup {
  deepCursor(shop: string): Promise<{ cursor: string; page: number }>;
  someName(shop: string): Promise<{ name: string; phone: string; order: string }>;
  someId(shop: string): Promise<string>;
  /** Deliveries of the shop that have a label to print (created at the courier, not finished). */
  labelIds(shop: string, count: number): Promise<string[]>;
}

// LABEL_STATES of app/extension-api/delivery-view.ts, as SQL.
const LABEL_STATE_LIST = `('created', 'picked_up', 'in_transit', 'out_for_delivery', 'failed')`;

export function sqliteLookup(file: string): Lookup {
  const open = () => new Database(file, { readonly: true });
  return {
    async deepCursor(shop) {
      const db = open();
      const total = (
        db.prepare(`SELECT count(*) AS n FROM "Delivery" WHERE shop = ?`).get(shop) as { n: number }
      ).n;
      const offset = Math.max(0, total - 250);
      const row = db
        .prepare(
          `SELECT "id", "createdAt" FROM "Delivery" WHERE shop = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT 1 OFFSET ?`,
        )
        .get(shop, offset) as { id: string; createdAt: string };
      db.close();
      return {
        cursor: `${Date.parse(row.createdAt).toString(36)}.${row.id}`,
        page: Math.floor(offset / 25),
      };
    },
    async someName(shop) {
      const db = open();
      const row =
        (db
          .prepare(
            `SELECT "request", "orderName" FROM "Delivery" WHERE shop = ? LIMIT 1 OFFSET 5000`,
          )
          .get(shop) as { request: string; orderName: string } | undefined) ??
        (db
          .prepare(`SELECT "request", "orderName" FROM "Delivery" WHERE shop = ? LIMIT 1`)
          .get(shop) as { request: string; orderName: string });
      db.close();
      const address = (
        JSON.parse(row.request) as {
          deliveryAddress: { contactName: string; contactPhone: string };
        }
      ).deliveryAddress;
      return { name: address.contactName, phone: address.contactPhone, order: row.orderName };
    },
    async someId(shop) {
      const db = open();
      const row = db
        .prepare(`SELECT "id" FROM "Delivery" WHERE shop = ? LIMIT 1 OFFSET 100`)
        .get(shop) as { id: string };
      db.close();
      return row.id;
    },
    async labelIds(shop, count) {
      const db = open();
      const rows = db
        .prepare(
          `SELECT "id" FROM "Delivery" WHERE shop = ? AND "courierOrderNumber" IS NOT NULL AND "state" IN ${LABEL_STATE_LIST} LIMIT ?`,
        )
        .all(shop, count) as { id: string }[];
      db.close();
      return rows.map((r) => r.id);
    },
  };
}

function postgresLookup(url: string): Lookup {
  const one = async <T>(sql: string, params: unknown[]) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows[0] as T;
    } finally {
      await client.end();
    }
  };
  return {
    async deepCursor(shop) {
      const { n } = await one<{ n: string }>(
        `SELECT count(*) AS n FROM "Delivery" WHERE shop = $1`,
        [shop],
      );
      const offset = Math.max(0, Number(n) - 250);
      const row = await one<{ id: string; createdAt: Date }>(
        `SELECT "id", "createdAt" FROM "Delivery" WHERE shop = $1 ORDER BY "createdAt" DESC, "id" DESC LIMIT 1 OFFSET $2`,
        [shop, offset],
      );
      return {
        cursor: `${row.createdAt.getTime().toString(36)}.${row.id}`,
        page: Math.floor(offset / 25),
      };
    },
    async someName(shop) {
      const row = await one<{ request: string; orderName: string }>(
        `SELECT "request", "orderName" FROM "Delivery" WHERE shop = $1 LIMIT 1 OFFSET 5000`,
        [shop],
      );
      const address = (
        JSON.parse(row.request) as {
          deliveryAddress: { contactName: string; contactPhone: string };
        }
      ).deliveryAddress;
      return { name: address.contactName, phone: address.contactPhone, order: row.orderName };
    },
    async someId(shop) {
      return (
        await one<{ id: string }>(
          `SELECT "id" FROM "Delivery" WHERE shop = $1 LIMIT 1 OFFSET 100`,
          [shop],
        )
      ).id;
    },
    async labelIds(shop, count) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query(
          `SELECT "id" FROM "Delivery" WHERE shop = $1 AND "courierOrderNumber" IS NOT NULL AND "state" IN ${LABEL_STATE_LIST} LIMIT $2`,
          [shop, count],
        );
        return (rows as { id: string }[]).map((r) => r.id);
      } finally {
        await client.end();
      }
    },
  };
}

/** The built server's environment for a page bench: production mode, no worker, no courier. */
export function benchServerEnv(port: number, databaseUrl: string, appBridgeUrl?: string) {
  return {
    ...(appBridgeUrl ? { APP_BRIDGE_URL: appBridgeUrl } : {}),
    NODE_ENV: undefined,
    DATABASE_URL: databaseUrl,
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET_KEY,
    SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
    SCOPES: TEST_SCOPES,
    ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    COURIER_SANDBOX_URL: "http://127.0.0.1:9",
    DELIVERY_WORKER: "off",
  };
}

/**
 * The App Bridge stand-in served on loopback, for pages measured without request interception
 * (Playwright's routes send every request of the page through this process; a merchant's browser
 * has no such detour). Started once; its URL goes in the server's APP_BRIDGE_URL.
 */
let bridgeUrl: Promise<string> | null = null;
export function appBridgeStandIn(): Promise<string> {
  bridgeUrl ??= (async () => {
    const script = fs.readFileSync(path.join(ROOT, "sandbox", "shopify", "app-bridge-standin.js"));
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/javascript", "cache-control": "max-age=3600" });
      res.end(script);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    server.unref();
    return `http://127.0.0.1:${(server.address() as { port: number }).port}/app-bridge.js`;
  })();
  return bridgeUrl;
}

/**
 * Chromium as a merchant's browser loads the pages, without request interception (the tests'
 * newAdminPage routes every request of a page through Playwright: 100-350 ms more LCP on a list
 * page on this machine). App Bridge comes from the loopback stand-in (APP_BRIDGE_URL,
 * appBridgeStandIn); off-machine hosts (the Inter stylesheet on Shopify's CDN) fail at once, as
 * offline, where the tests answer them empty.
 */
export function launchVitalsBrowser() {
  return launchBrowser(["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]);
}

/** A page in a context of its own (nothing cached from the page before); close its context. */
export async function newVitalsPage(browser: Browser) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    userAgent: HUMAN_USER_AGENT,
  });
  return context.newPage();
}

export async function webVitals(base: string, pages: PageSet) {
  const browser = await launchVitalsBrowser();
  const out: Record<string, { lcpMs: number; cls: number; shifts: string[] }> = {};
  try {
    for (const name of ["home", "list", "tab:delivered", "search:name", "deep", "delivery"]) {
      const page = pages[name];
      if (!page?.shop) continue;
      const tab = await newVitalsPage(browser);
      await tab.goto(await embeddedUrl(base, page.shop, page.path), { waitUntil: "load" });
      await tab.waitForTimeout(1000);
      const vitals = await vitalsOf(tab);
      out[name] = {
        lcpMs: Math.round(vitals.lcp),
        cls: round(vitals.cls, 3),
        shifts: vitals.shifts,
      };
      await tab.context().close();
    }
  } finally {
    await browser.close();
  }
  return out;
}

/** LCP and CLS of a loaded page, with what moved (for bench/vitals.ts --explain). */
export function vitalsOf(tab: Page) {
  return tab.evaluate(
    () =>
      new Promise<{ lcp: number; cls: number; shifts: string[] }>((resolve) => {
        let lcp = 0;
        let cls = 0;
        // What moved, for bench/vitals.ts --explain: each shift's elements, before and after.
        const shifts: string[] = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) lcp = Math.max(lcp, e.startTime);
        }).observe({ type: "largest-contentful-paint", buffered: true });
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
            sources?: {
              node?: Node;
              previousRect: DOMRectReadOnly;
              currentRect: DOMRectReadOnly;
            }[];
          })[]) {
            if (e.hadRecentInput) continue;
            cls += e.value;
            for (const source of e.sources ?? []) {
              const node = source.node as Element | undefined;
              const a = source.previousRect;
              const b = source.currentRect;
              shifts.push(
                `${e.value.toFixed(4)} at ${Math.round(e.startTime)} ms <${node?.nodeName?.toLowerCase() ?? "?"} class="${String(node?.className ?? "").slice(0, 60)}"> "${(node?.textContent ?? "").trim().slice(0, 30)}" ${Math.round(a.x)},${Math.round(a.y)} ${Math.round(a.width)}x${Math.round(a.height)} -> ${Math.round(b.x)},${Math.round(b.y)} ${Math.round(b.width)}x${Math.round(b.height)}`,
              );
            }
          }
        }).observe({ type: "layout-shift", buffered: true });
        setTimeout(() => resolve({ lcp, cls, shifts }), 300);
      }),
  );
}

async function measure(
  label: string,
  root: string,
  databaseUrl: string,
  kind: "after" | "before",
  lookup: Lookup,
  logDir: string,
  vitals: boolean,
) {
  const port = await freePort();
  const server: RunningServer = await startBuiltServer({
    root,
    port,
    startTimeoutMs: 120_000,
    logFile: path.join(logDir, `${label.replace(/\W+/g, "-")}.log`),
    env: benchServerEnv(port, databaseUrl, await appBridgeStandIn()),
  });
  try {
    const pages = await pageSet(kind, lookup);
    const p95Ms: Record<string, number> = {};
    const medianMs: Record<string, number> = {};
    const cpuMs: Record<string, number> = {};
    for (const [name, page] of Object.entries(pages)) {
      if (ONLY && !ONLY.includes(name)) continue;
      const cpuBefore = server.cpuSeconds();
      const timed = await timePage(server.url, page.shop, page.path, page.expect);
      const cpuAfter = server.cpuSeconds();
      p95Ms[name] = timed.p95;
      medianMs[name] = timed.median;
      // The server's own CPU time per request (warm-ups included): what a busy machine's wait
      // times hide. /proc counts in hundredths of a second, over ~40 requests.
      if (cpuBefore !== null && cpuAfter !== null)
        cpuMs[name] = round(((cpuAfter - cpuBefore) * 1000) / (SAMPLES + 3), 1);
      console.log(
        `  ${label.padEnd(22)} ${name.padEnd(24)} p95 ${String(p95Ms[name]).padStart(7)} ms (median ${medianMs[name]} ms, server CPU ${cpuMs[name] ?? "?"} ms a request)`,
      );
    }
    const v = vitals && !ONLY ? await webVitals(server.url, pages) : {};
    const figuresOf: Record<string, { lcpMs: number; cls: number }> = {};
    for (const [name, { lcpMs, cls, shifts }] of Object.entries(v)) {
      console.log(
        `  ${label.padEnd(22)} ${`vitals ${name}`.padEnd(24)} LCP ${lcpMs} ms, CLS ${cls}`,
      );
      for (const shift of cls > 0.005 ? shifts : []) console.log(`      moved: ${shift}`);
      figuresOf[name] = { lcpMs, cls };
    }
    return { p95Ms, medianMs, cpuMs, vitals: figuresOf };
  } catch (error) {
    console.error(server.log().split("\n").slice(-40).join("\n"));
    throw error;
  } finally {
    await server.stop();
  }
}

// ---- run --------------------------------------------------------------------------------------

async function main() {
  const scratch = scratchDir("bench-pages");
  const load = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(
    `Pages under a large history: built server on loopback, Node ${process.version}, ${os.cpus().length} CPUs, load ${load()}, ${SAMPLES} samples a page`,
  );
  const build = ensureBuilt(scratch.dir);
  console.log(`  build ${build.state}${build.state === "stale" ? `: ${build.reason}` : ""}`);
  const beforeRoot = args.against ? buildBefore(args.against, scratch.dir) : null;
  const now = Date.now();
  const result: Record<string, unknown> = { quick: QUICK, samples: SAMPLES, target: TARGET };

  const sqliteShapes = QUICK ? shapes(20_000, 20, 10_000) : shapes(200_000, 100, 100_000);
  const sqliteTotal = sqliteShapes.reduce((s, x) => s + x.rows, 0);
  {
    const targets: { kind: "after" | "before"; root: string; label: string }[] = [
      ...(beforeRoot
        ? [{ kind: "before" as const, root: beforeRoot, label: `sqlite ${args.against}` }]
        : []),
      { kind: "after", root: ROOT, label: "sqlite this branch" },
    ];
    const sqlite: Record<string, unknown> = { deliveries: sqliteTotal };
    for (const target of targets) {
      const file = path.join(scratch.dir, `${target.kind}.sqlite`);
      const started = performance.now();
      migrateDatabase(file);
      // The before runs on this tree's Prisma client, so its database has this tree's columns, but
      // not the list's indexes and triggers: what the before's own migrations built.
      if (target.kind === "before") withoutListIndexes(file);
      seq = 0;
      seedSqlite(file, sqliteShapes, now);
      console.log(
        `  ${target.label}: seeded ${sqliteTotal.toLocaleString("en-US")} deliveries in ${round((performance.now() - started) / 1000, 1)} s`,
      );
      sqlite[target.kind] = await measure(
        target.label,
        target.root,
        `file:${file}`,
        target.kind,
        sqliteLookup(file),
        scratch.dir,
        target.kind === "after" || !QUICK,
      );
      fs.rmSync(file, { force: true });
    }
    result.sqlite = sqlite;
  }

  if (!QUICK && !args["skip-postgres"]) {
    const pgShapes = shapes(1_000_000, 1_000, 100_000);
    const pgTotal = pgShapes.reduce((s, x) => s + x.rows, 0);
    const postgres: Record<string, unknown> = { deliveries: pgTotal };
    const targets: { kind: "after" | "before"; root: string; label: string }[] = [
      ...(beforeRoot
        ? [{ kind: "before" as const, root: beforeRoot, label: `postgres ${args.against}` }]
        : []),
      { kind: "after", root: ROOT, label: "postgres this branch" },
    ];
    for (const target of targets) {
      const url = await freshPostgres(`bench_pages_${target.kind}`);
      const started = performance.now();
      await migratePostgres(url, readMigrations());
      if (target.kind === "before") {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        const sql = fs.readFileSync(
          path.join(
            ROOT,
            "prisma",
            "postgresql",
            "migrations",
            "20261125110000_list_indexes",
            "migration.sql",
          ),
          "utf8",
        );
        for (const [, name] of sql.matchAll(/CREATE INDEX "([^"]+)"/g))
          await client.query(`DROP INDEX "${name}"`);
        await client.query(`DROP TRIGGER "Delivery_list_fields" ON "Delivery"`);
        await client.end();
      }
      seq = 0;
      await seedPostgres(url, pgShapes, now);
      console.log(
        `  ${target.label}: seeded ${pgTotal.toLocaleString("en-US")} deliveries in ${round((performance.now() - started) / 1000, 1)} s`,
      );
      postgres[target.kind] = await measure(
        target.label,
        target.root,
        url,
        target.kind,
        postgresLookup(url),
        scratch.dir,
        target.kind === "after",
      );
    }
    result.postgres = postgres;
  }

  console.log(JSON.stringify({ bench: "pages", ...result }));
}

if (IS_MAIN) await main();
