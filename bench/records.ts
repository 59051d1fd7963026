/**
 * The courier's records at scale, on a scratch SQLite database:
 *  1. import and match a courier statement of STATEMENT_LINES lines (CSV, Arabic titles, UTF-8
 *     with a byte order mark) against as many delivered cash-on-delivery deliveries: read the
 *     file, find the columns, read every line, load the deliveries they name, match, total;
 *  2. stream EXPORT_ROWS deliveries to CSV (the deliveries export), timing it and sampling the
 *     process's resident memory; the reference is the same rows exported the naive way (every
 *     row read at once, the whole document built as one string), in the same run.
 *
 *   npm run bench:records [-- --lines 20000 --rows 100000]
 *
 * Prints readable lines and ends with one JSON line: statementLines, importSeconds, exportRows,
 * exportSeconds, exportRssGrowthMb, the reference's figures, and targetsMet (exit 1 when false).
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { productionBenchEnvironment } from "../test/support/test-env";
import { migrateDatabase, round, scratchDir } from "./support/scratch";

const { values: args } = parseArgs({
  options: { lines: { type: "string" }, rows: { type: "string" } },
});
const STATEMENT_LINES = Number(args.lines ?? 20_000);
const EXPORT_ROWS = Number(args.rows ?? 100_000);
const TARGET = { importSeconds: 2, exportSeconds: 10, exportRssGrowthMb: 100 };
const SHOP = "bench-records.myshopify.com";

const scratch = scratchDir("bench-records");
const databaseFile = path.join(scratch.dir, "bench.sqlite");
const databaseUrl = migrateDatabase(databaseFile);
Object.assign(
  process.env,
  productionBenchEnvironment({ DATABASE_URL: databaseUrl, DELIVERY_WORKER: "off" }),
);

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const rssMb = () => process.memoryUsage.rss() / 1024 / 1024;

// Seeding through better-sqlite3 directly: the figures are about reading, not writing.
function seed(rows: number) {
  const db = new Database(databaseFile);
  const insert =
    db.prepare(`INSERT INTO "Delivery" ("id","shop","orderId","orderName","fulfillmentId",
    "source","state","environment","reference","cashToCollect","courierOrderNumber","courierOrderId",
    "courierStatus","trackingUrl","stateReason","lastMovedAt","createdAt","updatedAt")
    VALUES (?,?,?,?,?,'webhook',?,'sandbox',?,?,?,?,?,?,?,?,?,?)`);
  const start = Date.UTC(2026, 9, 1);
  db.transaction(() => {
    for (let i = 0; i < rows; i++) {
      // As Prisma writes DateTime on SQLite, so its comparisons (the export's keyset) hold.
      const at = new Date(start + i * 60_000).toISOString().replace("Z", "+00:00");
      const delivered = i < STATEMENT_LINES + 500 || i % 3 !== 0;
      const cash = i % 5 === 4 ? null : `${(i % 97) + 1}.${String(i % 1000).padStart(3, "0")}`;
      insert.run(
        `bench${String(i).padStart(8, "0")}`,
        SHOP,
        `gid://shopify/Order/${100000 + i}`,
        // Names and reasons with commas, quotes and Arabic, as real ones have.
        `#${1000 + i}`,
        `gid://shopify/Fulfillment/${500000 + i}`,
        delivered ? "delivered" : "in_transit",
        `SHPFY-bench-${500000 + i}`,
        cash,
        `CO-${700000 + i}`,
        String(900000 + i),
        delivered ? "Delivered / تم التوصيل" : 'With driver, "on the way"',
        `https://courier-app.example/tracking/${i.toString(16)}`,
        i % 7 === 0 ? "Customer asked, call first; سالمية" : null,
        at,
        at,
        at,
      );
    }
  })();
  db.close();
}

function statementCsv(lines: number): Uint8Array {
  let text = "\uFEFFكشف تحصيل المندوب\r\nرقم الطلب,المبلغ,التاريخ\r\n";
  for (let i = 0; i < lines; i++) {
    const day = new Date(Date.UTC(2026, 9, 1) + i * 60_000 + 3 * 3_600_000);
    const cash = i % 5 === 4 ? "0.000" : `${(i % 97) + 1}.${String(i % 1000).padStart(3, "0")}`;
    // A few amounts differ, as real statements do.
    const amount = i % 1000 === 17 ? "1.000" : cash;
    const date = `${String(day.getUTCDate()).padStart(2, "0")}/${String(day.getUTCMonth() + 1).padStart(2, "0")}/${day.getUTCFullYear()}`;
    text += `CO-${700000 + i},${amount},${date}\r\n`;
  }
  return new TextEncoder().encode(text);
}

console.log(`Seeding ${EXPORT_ROWS.toLocaleString("en-US")} deliveries…`);
seed(EXPORT_ROWS);
const { default: prisma } = await import("../app/db.server");
const { prepareStatement, reconcileStatement } = await import("../app/domain/settlements");
const { ledgerDeliveriesForNumbers } = await import("../app/models/cash-ledger.server");
const { csvDocument, csvStream } = await import("../app/domain/csv");
const { deliveriesExportRows } = await import("../app/pages/deliveries-export-rows.server");
// The English words of the export, from the catalogs (the app's i18next loads them through Vite).
const catalog = (namespace: string) =>
  JSON.parse(
    fs.readFileSync(
      path.join(import.meta.dirname, "..", "app", "i18n", "locales", "en", `${namespace}.json`),
      "utf8",
    ),
  ) as Record<string, Record<string, string>>;
const deliveriesWords = catalog("deliveries");
const stateWords = catalog("common").states!;
const exportWords = deliveriesWords.export!;
await prisma.$queryRaw`SELECT 1`;

// 1. Statement import and match.
const file = statementCsv(STATEMENT_LINES);
const importStart = performance.now();
const prepared = await prepareStatement(file, "statement.csv", null);
if (!prepared.ready) throw new Error("The bench statement's columns were not recognised.");
const parseSeconds = (performance.now() - importStart) / 1000;
const lastDay = prepared.lines.reduce<string | null>(
  (max, l) => (l.day && (!max || l.day > max) ? l.day : max),
  null,
);
const deliveries = await ledgerDeliveriesForNumbers(
  SHOP,
  prepared.lines.map((l) => l.courierOrderNumber),
  lastDay,
);
const readSeconds = (performance.now() - importStart) / 1000;
const reconciliation = reconcileStatement({ lines: prepared.lines, deliveries });
const importSeconds = (performance.now() - importStart) / 1000;
console.log(
  `Statement: ${prepared.lines.length.toLocaleString("en-US")} lines read and matched in ${round(importSeconds, 3)} s ` +
    `(${reconciliation.totals.matched.toLocaleString("en-US")} matched, ${reconciliation.differences.length} differences, ` +
    `${prepared.problems.length} rows refused; file read ${round(parseSeconds, 3)} s, deliveries loaded ${round(readSeconds - parseSeconds, 3)} s)`,
);

// 2. Export, streamed.
gc();
const baseline = rssMb();
let peak = baseline;
const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 20);
const exportStart = performance.now();
// The list page's export with no filter: every delivery of the shop, as the route streams it.
const csv = await deliveriesExportRows(SHOP, new URLSearchParams(), {
  header: [
    exportWords.order!,
    exportWords.customer!,
    exportWords.area!,
    exportWords.cash!,
    exportWords.status!,
    exportWords.reason!,
    exportWords.courierNumber!,
    exportWords.courierStatus!,
    exportWords.trackingLink!,
    exportWords.created!,
    exportWords.lastChange!,
  ],
  state: (state) => stateWords[state] ?? state,
  stuck: String(deliveriesWords.stuck),
  reason: (reason) => reason,
  areaLanguage: "en",
});
const reader = csvStream(csv.header, csv.batches).getReader();
let bytes = 0;
let lineBreaks = 0;
for (;;) {
  const { done, value } = await reader.read();
  if (done) break;
  bytes += value.byteLength;
  for (let i = 0; i < value.length; i++) if (value[i] === 0x0a) lineBreaks++;
  peak = Math.max(peak, rssMb());
}
const exportSeconds = (performance.now() - exportStart) / 1000;
clearInterval(sampler);
const exportRssGrowthMb = peak - baseline;
const exportedRows = lineBreaks - 1;
console.log(
  `Export (streamed): ${exportedRows.toLocaleString("en-US")} rows, ${round(bytes / 1024 / 1024, 1)} MB of CSV in ${round(exportSeconds, 2)} s, resident memory +${round(exportRssGrowthMb, 1)} MB`,
);

// Reference: the naive export, every row at once and one string.
gc();
const naiveBaseline = rssMb();
let naivePeak = naiveBaseline;
const naiveSampler = setInterval(() => (naivePeak = Math.max(naivePeak, rssMb())), 20);
const naiveStart = performance.now();
const all = await prisma.delivery.findMany({
  where: { shop: SHOP },
  orderBy: [{ createdAt: "desc" }, { id: "desc" }],
});
const document = new TextEncoder().encode(
  csvDocument(
    csv.header,
    all.map((d) => [
      d.orderName,
      d.customerName,
      d.areaId,
      d.cashToCollect,
      d.state,
      d.stateReason,
      d.courierOrderNumber,
      d.courierStatus,
      d.trackingUrl,
      d.createdAt.toISOString(),
      d.updatedAt.toISOString(),
    ]),
  ),
);
naivePeak = Math.max(naivePeak, rssMb());
const naiveSeconds = (performance.now() - naiveStart) / 1000;
clearInterval(naiveSampler);
const naiveRssGrowthMb = naivePeak - naiveBaseline;
console.log(
  `Export (reference, all rows at once): ${all.length.toLocaleString("en-US")} rows, ${round(document.byteLength / 1024 / 1024, 1)} MB in ${round(naiveSeconds, 2)} s, resident memory +${round(naiveRssGrowthMb, 1)} MB`,
);
if (all.length !== exportedRows)
  console.log(`The two exports differ in rows (${all.length} and ${exportedRows}).`);

await prisma.$disconnect();
scratch.remove();

const targetsMet =
  importSeconds <= TARGET.importSeconds &&
  exportSeconds <= TARGET.exportSeconds &&
  exportRssGrowthMb <= TARGET.exportRssGrowthMb &&
  exportedRows === EXPORT_ROWS &&
  all.length === exportedRows;
console.log(
  `Targets: import ≤ ${TARGET.importSeconds} s, export ≤ ${TARGET.exportSeconds} s and ≤ ${TARGET.exportRssGrowthMb} MB: ${targetsMet ? "met" : "MISSED"}`,
);
console.log(
  JSON.stringify({
    statementLines: prepared.lines.length,
    importSeconds: round(importSeconds, 3),
    exportRows: exportedRows,
    exportSeconds: round(exportSeconds, 3),
    exportRssGrowthMb: round(exportRssGrowthMb, 1),
    referenceExportSeconds: round(naiveSeconds, 3),
    referenceExportRssGrowthMb: round(naiveRssGrowthMb, 1),
    matched: reconciliation.totals.matched,
    differences: reconciliation.differences.length,
    loadAverage: round((await import("node:os")).loadavg()[0]!, 1),
    targetsMet,
  }),
);
process.exit(targetsMet ? 0 : 1);
