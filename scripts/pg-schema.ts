/**
 * Writes prisma/postgresql/schema.prisma from prisma/schema.prisma: the same models, with the
 * PostgreSQL provider and its own client output, so that the SQLite client (the default
 * `@prisma/client`, which the session storage imports) and the PostgreSQL one coexist (ADR 0009).
 * `--check` exits 1 when the committed file differs (test/unit/pg-schema.test.ts does the same).
 *   usage: tsx scripts/pg-schema.ts [--check]
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SQLITE_SCHEMA = path.join(ROOT, "prisma", "schema.prisma");
export const POSTGRES_SCHEMA = path.join(ROOT, "prisma", "postgresql", "schema.prisma");

const HEADER = `// GENERATED from ../schema.prisma by scripts/pg-schema.ts: edit that file, then run
// \`npm run pg:schema\` and write a migration (README, "PostgreSQL"). Same models, PostgreSQL
// provider, own client output (node_modules/.prisma/client-pg) so both clients coexist (ADR 0009).
`;

const GENERATOR = `generator client {
  provider   = "prisma-client-js"
  engineType = "client"
  output     = "../../node_modules/.prisma/client-pg"
}`;

const DATASOURCE = `datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
}`;

function replaceBlock(schema: string, name: "generator" | "datasource", block: string): string {
  const pattern = new RegExp(`^${name} \\w+ \\{[^}]*\\}`, "m");
  if (!pattern.test(schema)) throw new Error(`prisma/schema.prisma has no ${name} block`);
  return schema.replace(pattern, block);
}

/**
 * Column defaults computed by the database, in each one's SQL. A tracking token is 128 random bits
 * as 32 hex digits: SQLite's randomblob (ChaCha20 seeded by the OS); PostgreSQL's
 * gen_random_uuid (pg_strong_random, core since 13) twice, 244 random bits, hashed down to 128.
 */
const DATABASE_DEFAULTS: Record<string, string> = {
  'dbgenerated("lower(hex(randomblob(16)))")':
    'dbgenerated("md5((gen_random_uuid())::text || (gen_random_uuid())::text)")',
};

/** The PostgreSQL schema for a SQLite schema's text. */
export function postgresSchema(sqliteSchema: string): string {
  for (const [expression] of sqliteSchema.matchAll(/dbgenerated\("[^"]*"\)/g)) {
    if (!(expression in DATABASE_DEFAULTS)) {
      throw new Error(`scripts/pg-schema.ts has no PostgreSQL form for ${expression}`);
    }
  }
  let schema = replaceBlock(sqliteSchema, "generator", GENERATOR);
  schema = replaceBlock(schema, "datasource", DATASOURCE);
  for (const [sqlite, postgres] of Object.entries(DATABASE_DEFAULTS)) {
    schema = schema.replaceAll(sqlite, postgres);
  }
  // The SQLite file's opening comment speaks of SQLite; the header replaces it.
  schema = schema.replace(/^(\/\/[^\n]*\n)+\n?/, "");
  return HEADER + "\n" + schema;
}

function main() {
  const expected = postgresSchema(fs.readFileSync(SQLITE_SCHEMA, "utf8"));
  const current = fs.existsSync(POSTGRES_SCHEMA) ? fs.readFileSync(POSTGRES_SCHEMA, "utf8") : "";
  if (process.argv.includes("--check")) {
    if (current !== expected) {
      console.error(
        "prisma/postgresql/schema.prisma is out of step with prisma/schema.prisma: run `npm run pg:schema`.",
      );
      process.exit(1);
    }
    return;
  }
  fs.mkdirSync(path.dirname(POSTGRES_SCHEMA), { recursive: true });
  fs.writeFileSync(POSTGRES_SCHEMA, expected);
  console.log(`wrote ${path.relative(ROOT, POSTGRES_SCHEMA)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
