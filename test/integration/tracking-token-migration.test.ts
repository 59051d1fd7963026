import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { readMigrations } from "../../scripts/pg-migrate";
import { ROOT, TEST_DATA_DIR } from "../support/paths";

/** The SQLite migration that gives every delivery a tracking token, run over existing rows. */
describe("the tracking token migration on SQLite", () => {
  it("gives each delivery already recorded its own random token, and keeps its id", () => {
    const migrations = readMigrations(path.join(ROOT, "prisma", "migrations"));
    const at = migrations.findIndex((m) => m.name.endsWith("_tracking_token"));
    expect(at).toBeGreaterThan(0);
    const file = path.join(TEST_DATA_DIR, `tracking-token-${process.pid}.sqlite`);
    const db = new Database(file);
    try {
      for (const m of migrations.slice(0, at)) db.exec(m.sql);
      const insert = db.prepare(
        `INSERT INTO "Delivery" ("id", "shop", "orderId", "source", "state", "environment", "reference", "trackingUrl", "updatedAt")
         VALUES (?, 's.myshopify.com', 'o', 'webhook', 'created', 'sandbox', ?, ?, 0)`,
      );
      for (const id of ["cm0legacy1", "cm0legacy2", "cm0legacy3"]) {
        insert.run(id, `ref-${id}`, `https://app.example/tracking/${id}`);
      }
      db.exec(migrations[at]!.sql);
      const rows = db
        .prepare(`SELECT "id", "trackingToken", "trackingUrl" FROM "Delivery" ORDER BY "id"`)
        .all() as { id: string; trackingToken: string; trackingUrl: string }[];
      expect(rows.map((r) => r.id)).toEqual(["cm0legacy1", "cm0legacy2", "cm0legacy3"]);
      for (const row of rows) expect(row.trackingToken).toMatch(/^[0-9a-f]{32}$/);
      expect(new Set(rows.map((r) => r.trackingToken)).size).toBe(3);
      // The links already sent stay as they were: the page still honours them (ADR 0012).
      expect(rows[0]!.trackingUrl).toBe("https://app.example/tracking/cm0legacy1");
    } finally {
      db.close();
      fs.rmSync(file, { force: true });
    }
  });
});
