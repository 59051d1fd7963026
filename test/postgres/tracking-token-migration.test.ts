import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migratePostgres, readMigrations } from "../../scripts/pg-migrate";
import { databaseUrl, ident, withAdminConnection } from "./support/server";

/** The PostgreSQL migration that gives every delivery a tracking token, run over existing rows. */
describe("the tracking token migration on PostgreSQL", () => {
  it("gives each delivery already recorded its own random token, and keeps its id", async () => {
    const migrations = readMigrations();
    const at = migrations.findIndex((m) => m.name.endsWith("_tracking_token"));
    expect(at).toBeGreaterThan(0);
    const name = `${process.env.TEST_PG_PREFIX}_tt${randomBytes(4).toString("hex")}`;
    await withAdminConnection((c) => c.query(`CREATE DATABASE ${ident(name)}`));
    const url = databaseUrl(name);
    const client = new pg.Client({ connectionString: url });
    try {
      await migratePostgres(url, migrations.slice(0, at));
      await client.connect();
      for (const id of ["cm0legacy1", "cm0legacy2", "cm0legacy3"]) {
        await client.query(
          `INSERT INTO "Delivery" ("id", "shop", "orderId", "source", "state", "environment", "reference", "updatedAt")
           VALUES ($1, 's.myshopify.com', 'o', 'webhook', 'created', 'sandbox', $2, now())`,
          [id, `ref-${id}`],
        );
      }
      await migratePostgres(url, migrations.slice(0, at + 1));
      const { rows } = await client.query<{ id: string; trackingToken: string }>(
        `SELECT "id", "trackingToken" FROM "Delivery" ORDER BY "id"`,
      );
      expect(rows.map((r) => r.id)).toEqual(["cm0legacy1", "cm0legacy2", "cm0legacy3"]);
      for (const row of rows) expect(row.trackingToken).toMatch(/^[0-9a-f]{32}$/);
      expect(new Set(rows.map((r) => r.trackingToken)).size).toBe(3);
    } finally {
      await client.end().catch(() => undefined);
      await withAdminConnection((c) => c.query(`DROP DATABASE IF EXISTS ${ident(name)}`));
    }
  });
});
