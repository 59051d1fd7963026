import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeEach, vi } from "vitest";
import { resetCostBudget } from "../../app/shopify/cost-budget";
import { adminApi } from "../support/admin-api";
import { TEMPLATE_DB, TEST_DATA_DIR } from "../support/paths";
import { testEnvironment } from "../support/test-env";

// A fresh migrated SQLite file for every test file, so files never see each other's rows.
const databaseFile = path.join(TEST_DATA_DIR, `file-${process.pid}-${randomUUID()}.sqlite`);
fs.copyFileSync(TEMPLATE_DB, databaseFile);
Object.assign(process.env, testEnvironment({ DATABASE_URL: `file:${databaseFile}` }));
globalThis.__prisma = undefined;

adminApi.install();

// Every test starts with empty tables (the migrations table stays). The copy is switched to WAL
// here, as the app's connection would (app/db/sqlite-connection.ts), before either opens it twice.
const database = new Database(databaseFile);
database.pragma("journal_mode = WAL");
const tables = database
  .prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'",
  )
  .all() as { name: string }[];
const emptyTables = database.transaction(() => {
  for (const { name } of tables) database.prepare(`DELETE FROM "${name}"`).run();
});
beforeEach(() => emptyTables());

// console.error during a test fails it: errors must be asserted, not printed and forgotten.
let consoleErrors: unknown[][] = [];
beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
  adminApi.reset();
  // Shopify's cost figures are remembered per shop in the process: each test starts with none.
  resetCostBudget();
});
afterEach(() => {
  vi.restoreAllMocks();
  if (consoleErrors.length > 0) {
    const printed = consoleErrors.map((args) => args.map(String).join(" ")).join("\n");
    throw new Error(`console.error was called during the test:\n${printed}`);
  }
});

afterAll(async () => {
  await globalThis.__prisma?.$disconnect();
  globalThis.__prisma = undefined;
  database.close();
  // WAL leaves a log and a shared-memory index beside the file while connections were open.
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(databaseFile + suffix, { force: true });
});
