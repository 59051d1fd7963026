import pg from "pg";
import { describe, expect, it } from "vitest";
import { migratePostgres, readMigrations } from "../../scripts/pg-migrate";
import { POSTGRES_SCHEMA } from "../../scripts/pg-schema";
import { schemaModels } from "../support/schema-models";
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

describe("the committed PostgreSQL migrations", () => {
  it("build exactly the tables, columns, nullability and unique keys of prisma/postgresql/schema.prisma", async () => {
    const columns = await query<{ table_name: string; column_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, is_nullable FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name <> '_app_migrations'`,
    );
    const indexes = (
      await query<{ indexname: string }>(
        `SELECT indexname FROM pg_indexes WHERE schemaname = 'public'`,
      )
    ).map((r) => r.indexname);
    const models = schemaModels(POSTGRES_SCHEMA);
    expect(models.length).toBeGreaterThan(5);
    expect([...new Set(columns.map((c) => c.table_name))].sort()).toEqual(
      models.map((m) => m.name).sort(),
    );
    for (const model of models) {
      const inTable = columns.filter((c) => c.table_name === model.name);
      expect(
        inTable.map((c) => [c.column_name, c.is_nullable === "NO"]).sort(),
        model.name,
      ).toEqual([...model.columns].sort());
      for (const fields of model.uniques) {
        expect(indexes, `${model.name} unique ${fields.join(", ")}`).toContain(
          `${model.name}_${fields.join("_")}_key`,
        );
      }
    }
  });

  it("are recorded as applied, and applying them again does nothing", async () => {
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
