import pg from "pg";
import { describe, expect, it } from "vitest";
import { migratePostgres, readMigrations } from "../../scripts/pg-migrate";
import { TEST_DATABASE_URL } from "./setup/file";

async function query<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

// scripts/pg-migrate.ts, PostgreSQL's migration runner (SQLite's is Prisma's own). What the
// migrations build is checked on both databases by test/both-databases/schema.test.ts.
describe("the PostgreSQL migration runner", () => {
  it("records each migration it applied, so that running again applies none", async () => {
    const applied = await query<{ name: string }>(
      `SELECT "name" FROM "_app_migrations" ORDER BY "name"`,
    );
    expect(applied.map((r) => r.name)).toEqual(readMigrations().map((m) => m.name));
    expect(await migratePostgres(TEST_DATABASE_URL)).toEqual([]);
  });

  it("refuses to run when an applied migration's file has changed", async () => {
    const [first, ...rest] = readMigrations();
    const edited = { ...first!, checksum: "edited" };
    await expect(migratePostgres(TEST_DATABASE_URL, [edited, ...rest])).rejects.toThrow(
      /was applied, and its file has changed/,
    );
  });
});
