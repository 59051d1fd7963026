import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migratePostgres, readMigrations, type Migration } from "../../scripts/pg-migrate";
import { testDatabase, testDatabaseName } from "../support/database";
import { ROOT, TEST_DATA_DIR } from "../support/paths";
import { databaseUrl, ident, withAdminConnection } from "../postgres/support/server";

interface LegacyRow {
  id: string;
  trackingToken: string;
  trackingUrl: string;
}

/** A scratch database of the test file's kind, migrated step by step, then dropped. */
interface Scratch {
  migrations: Migration[];
  /** Applies the migrations from the last one applied up to `count` of them. */
  migrate(count: number): Promise<void>;
  insertDelivery(id: string, trackingUrl: string): Promise<void>;
  deliveries(): Promise<LegacyRow[]>;
  drop(): Promise<void>;
}

async function sqliteScratch(): Promise<Scratch> {
  const file = path.join(TEST_DATA_DIR, `tracking-token-${process.pid}.sqlite`);
  const db = new Database(file);
  const migrations = readMigrations(path.join(ROOT, "prisma", "migrations"));
  let applied = 0;
  return {
    migrations,
    async migrate(count) {
      for (const m of migrations.slice(applied, count)) db.exec(m.sql);
      applied = count;
    },
    async insertDelivery(id, trackingUrl) {
      db.prepare(
        `INSERT INTO "Delivery" ("id", "shop", "orderId", "source", "state", "environment", "reference", "trackingUrl", "updatedAt")
         VALUES (?, 's.myshopify.com', 'o', 'webhook', 'created', 'sandbox', ?, ?, 0)`,
      ).run(id, `ref-${id}`, trackingUrl);
    },
    async deliveries() {
      return db
        .prepare(`SELECT "id", "trackingToken", "trackingUrl" FROM "Delivery" ORDER BY "id"`)
        .all() as LegacyRow[];
    },
    async drop() {
      db.close();
      fs.rmSync(file, { force: true });
    },
  };
}

async function postgresScratch(): Promise<Scratch> {
  const name = `${process.env.TEST_PG_PREFIX}_tt${randomBytes(4).toString("hex")}`;
  await withAdminConnection((c) => c.query(`CREATE DATABASE ${ident(name)}`));
  const url = databaseUrl(name);
  const client = new pg.Client({ connectionString: url });
  const migrations = readMigrations();
  let connected = false;
  return {
    migrations,
    async migrate(count) {
      // The applied ones are recorded: only the others run.
      await migratePostgres(url, migrations.slice(0, count));
    },
    async insertDelivery(id, trackingUrl) {
      if (!connected) await client.connect();
      connected = true;
      await client.query(
        `INSERT INTO "Delivery" ("id", "shop", "orderId", "source", "state", "environment", "reference", "trackingUrl", "updatedAt")
         VALUES ($1, 's.myshopify.com', 'o', 'webhook', 'created', 'sandbox', $2, $3, now())`,
        [id, `ref-${id}`, trackingUrl],
      );
    },
    async deliveries() {
      const { rows } = await client.query<LegacyRow>(
        `SELECT "id", "trackingToken", "trackingUrl" FROM "Delivery" ORDER BY "id"`,
      );
      return rows;
    },
    async drop() {
      if (connected) await client.end().catch(() => undefined);
      await withAdminConnection((c) => c.query(`DROP DATABASE IF EXISTS ${ident(name)}`));
    },
  };
}

/** The migration that gives every delivery a tracking token, run over existing rows. */
describe(`the tracking token migration (${testDatabaseName()})`, () => {
  it("gives each delivery already recorded its own random token, keeping its id and link", async () => {
    const scratch =
      testDatabase() === "postgresql" ? await postgresScratch() : await sqliteScratch();
    try {
      const at = scratch.migrations.findIndex((m) => m.name.endsWith("_tracking_token"));
      expect(at).toBeGreaterThan(0);
      await scratch.migrate(at);
      for (const id of ["cm0legacy1", "cm0legacy2", "cm0legacy3"]) {
        await scratch.insertDelivery(id, `https://app.example/tracking/${id}`);
      }
      await scratch.migrate(at + 1);
      const rows = await scratch.deliveries();
      expect(rows.map((r) => r.id)).toEqual(["cm0legacy1", "cm0legacy2", "cm0legacy3"]);
      for (const row of rows) expect(row.trackingToken).toMatch(/^[0-9a-f]{32}$/);
      expect(new Set(rows.map((r) => r.trackingToken)).size).toBe(3);
      // The links already sent stay as they were: the page still honours them (ADR 0012).
      expect(rows[0]!.trackingUrl).toBe("https://app.example/tracking/cm0legacy1");
    } finally {
      await scratch.drop();
    }
  });
});
