import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { ROOT, TEMPLATE_DB } from "../support/paths";
import { schemaModels } from "../support/schema-models";

// The template every test file copies was migrated by the real Prisma CLI from
// prisma/migrations: it is what `npm run setup` builds on a merchant's machine. A migration
// written from an outdated schema (a table rebuild that drops newer columns) fails here.
describe("the committed SQLite migrations", () => {
  it("build exactly the tables, columns, nullability and unique keys of prisma/schema.prisma", () => {
    const db = new Database(TEMPLATE_DB, { readonly: true });
    try {
      const models = schemaModels(path.join(ROOT, "prisma", "schema.prisma"));
      expect(models.length).toBeGreaterThan(5);
      const tables = (
        db
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'",
          )
          .all() as { name: string }[]
      ).map((t) => t.name);
      expect(tables.sort()).toEqual(models.map((m) => m.name).sort());

      for (const model of models) {
        const info = db.prepare(`PRAGMA table_info("${model.name}")`).all() as {
          name: string;
          notnull: number;
          pk: number;
        }[];
        expect(info.map((c) => [c.name, c.notnull === 1 || c.pk === 1]).sort(), model.name).toEqual(
          [...model.columns].sort(),
        );
        const uniqueIndexes = (
          db.prepare(`PRAGMA index_list("${model.name}")`).all() as {
            name: string;
            unique: number;
          }[]
        )
          .filter((i) => i.unique === 1 && !i.name.startsWith("sqlite_autoindex"))
          .map((i) => i.name);
        for (const fields of model.uniques) {
          expect(uniqueIndexes, `${model.name} unique ${fields.join(", ")}`).toContain(
            `${model.name}_${fields.join("_")}_key`,
          );
        }
      }
    } finally {
      db.close();
    }
  });
});
