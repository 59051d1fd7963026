import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeEach, vi } from "vitest";
import { adminApi } from "../../support/admin-api";
import { testEnvironment } from "../../support/test-env";
import { databaseUrl, ident, withAdminConnection } from "../support/server";

// A fresh database for every test file, copied from the run's migrated template, so files run in
// parallel without seeing each other's rows; the app connects to it through DATABASE_URL.
const template = process.env.TEST_PG_TEMPLATE;
if (!template) throw new Error("test/postgres/setup/global.ts did not run (TEST_PG_TEMPLATE).");
const database = `${process.env.TEST_PG_PREFIX}_f${randomBytes(6).toString("hex")}`;
await withAdminConnection((client) =>
  client.query(`CREATE DATABASE ${ident(database)} TEMPLATE ${ident(template)}`),
);
export const TEST_DATABASE_URL = databaseUrl(database);
Object.assign(process.env, testEnvironment({ DATABASE_URL: TEST_DATABASE_URL }));
globalThis.__prisma = undefined;

adminApi.install();

// Every test starts with empty tables (the migrations table stays).
const tables = new pg.Client({ connectionString: TEST_DATABASE_URL });
await tables.connect();
const names = (
  await tables.query<{ tablename: string }>(
    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_app_migrations'",
  )
).rows.map((r) => ident(r.tablename));
beforeEach(async () => {
  await tables.query(`TRUNCATE ${names.join(", ")}`);
});

// console.error during a test fails it, as in the node project.
let consoleErrors: unknown[][] = [];
beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
  adminApi.reset();
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
  await tables.end();
  await withAdminConnection((client) =>
    client.query(`DROP DATABASE IF EXISTS ${ident(database)} WITH (FORCE)`),
  );
});
