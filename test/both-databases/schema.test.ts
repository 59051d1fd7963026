import path from "node:path";
import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { POSTGRES_SCHEMA } from "../../scripts/pg-schema";
import { testDatabase, testDatabaseName } from "../support/database";
import { ROOT } from "../support/paths";
import { schemaModels } from "../support/schema-models";

const dialect = testDatabase();

/** A column as the database describes it. */
interface Column {
  table: string;
  column: string;
  notNull: boolean;
}

/** The test file's database as migrated: its tables' columns and unique indexes. */
async function migratedShape(): Promise<{ columns: Column[]; uniqueIndexes: string[] }> {
  if (dialect === "postgresql") {
    const columns = await prisma.$queryRaw<{ table: string; column: string; nullable: string }[]>`
      SELECT table_name::text AS "table", column_name::text AS "column", is_nullable::text AS nullable
      FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name <> '_app_migrations'`;
    const indexes = await prisma.$queryRaw<{ name: string }[]>`
      SELECT indexname::text AS name FROM pg_indexes
      WHERE schemaname = 'public' AND indexdef LIKE 'CREATE UNIQUE INDEX%'`;
    return {
      columns: columns.map((c) => ({ ...c, notNull: c.nullable === "NO" })),
      uniqueIndexes: indexes.map((i) => i.name),
    };
  }
  const columns = await prisma.$queryRaw<
    { table: string; column: string; notnull: bigint | number; pk: bigint | number }[]
  >`
    SELECT m.name AS "table", c.name AS "column", c."notnull" AS "notnull", c.pk AS pk
    FROM sqlite_master m, pragma_table_info(m.name) c
    WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> '_prisma_migrations'`;
  const indexes = await prisma.$queryRaw<{ name: string }[]>`
    SELECT i.name AS name FROM sqlite_master m, pragma_index_list(m.name) i
    WHERE m.type = 'table' AND i."unique" = 1 AND i.name NOT LIKE 'sqlite_autoindex%'`;
  return {
    columns: columns.map((c) => ({
      table: c.table,
      column: c.column,
      notNull: Number(c.notnull) === 1 || Number(c.pk) === 1,
    })),
    uniqueIndexes: indexes.map((i) => i.name),
  };
}

// Each test file's database is a copy of the run's template, migrated from the committed
// migrations as a merchant's machine is: SQLite's by the real Prisma CLI (`npm run setup`),
// PostgreSQL's by scripts/pg-migrate.ts. A migration written from an outdated schema (a table
// rebuild that drops newer columns) fails here.
describe(`the committed migrations (${testDatabaseName()})`, () => {
  it("build exactly the tables, columns, nullability and unique keys of the Prisma schema", async () => {
    const schema =
      dialect === "postgresql" ? POSTGRES_SCHEMA : path.join(ROOT, "prisma", "schema.prisma");
    const models = schemaModels(schema);
    expect(models.length).toBeGreaterThan(5);
    const { columns, uniqueIndexes } = await migratedShape();
    expect([...new Set(columns.map((c) => c.table))].sort()).toEqual(
      models.map((m) => m.name).sort(),
    );
    for (const model of models) {
      const inTable = columns.filter((c) => c.table === model.name);
      expect(inTable.map((c) => [c.column, c.notNull]).sort(), model.name).toEqual(
        [...model.columns].sort(),
      );
      for (const fields of model.uniques) {
        expect(uniqueIndexes, `${model.name} unique ${fields.join(", ")}`).toContain(
          `${model.name}_${fields.join("_")}_key`,
        );
      }
    }
  });
});
