import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { POSTGRES_SCHEMA, SQLITE_SCHEMA, postgresSchema } from "../../scripts/pg-schema";
import { readMigrations } from "../../scripts/pg-migrate";

describe("the PostgreSQL schema (ADR 0009)", () => {
  it("is generated from prisma/schema.prisma and committed in step with it (npm run pg:schema)", () => {
    const expected = postgresSchema(fs.readFileSync(SQLITE_SCHEMA, "utf8"));
    expect(fs.readFileSync(POSTGRES_SCHEMA, "utf8")).toBe(expected);
  });

  it("has the same models, the PostgreSQL provider and its own client output", () => {
    const schema = fs.readFileSync(POSTGRES_SCHEMA, "utf8");
    const models = (text: string) => [...text.matchAll(/^model (\w+) \{/gm)].map((m) => m[1]);
    expect(models(schema)).toEqual(models(fs.readFileSync(SQLITE_SCHEMA, "utf8")));
    expect(schema).toMatch(/provider = "postgresql"/);
    expect(schema).toMatch(/output\s+= "\.\.\/\.\.\/node_modules\/\.prisma\/client-pg"/);
  });

  it("has committed migrations, in order, each with its SQL", () => {
    const migrations = readMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations.map((m) => m.name)).toEqual(migrations.map((m) => m.name).sort());
    for (const migration of migrations) expect(migration.sql).toMatch(/CREATE|ALTER|DROP/);
  });
});
