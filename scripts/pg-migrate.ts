/**
 * Applies prisma/postgresql/migrations/<name>/migration.sql to a PostgreSQL database, in name
 * order, each in its own transaction, recording the applied ones in "_app_migrations". Offline
 * `prisma migrate deploy` fails on PostgreSQL (prisma/orm#27403), hence this (ADR 0009). Several
 * instances may start at once: an advisory lock lets one migrate while the others wait. A
 * migration already applied whose file changed since stops the run.
 *   usage: DATABASE_URL=postgresql://… npm run pg:migrate
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const POSTGRES_MIGRATIONS = path.join(ROOT, "prisma", "postgresql", "migrations");

// Any fixed number: the key of the advisory lock held while migrating.
const LOCK_KEY = 727_403;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = POSTGRES_MIGRATIONS): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** Applies what is missing; returns the names applied now. */
export async function migratePostgres(
  connectionString: string,
  migrations = readMigrations(),
): Promise<string[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_KEY]);
    await client.query(`
      CREATE TABLE IF NOT EXISTS "_app_migrations" (
        "name" TEXT PRIMARY KEY,
        "checksum" TEXT NOT NULL,
        "appliedAt" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    const { rows } = await client.query<{ name: string; checksum: string }>(
      `SELECT "name", "checksum" FROM "_app_migrations"`,
    );
    const applied = new Map(rows.map((r) => [r.name, r.checksum]));
    const now: string[] = [];
    for (const migration of migrations) {
      const checksum = applied.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new Error(
            `Migration ${migration.name} was applied, and its file has changed since. Write a new migration instead of editing an applied one.`,
          );
        }
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query(`INSERT INTO "_app_migrations" ("name", "checksum") VALUES ($1, $2)`, [
          migration.name,
          migration.checksum,
        ]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`Migration ${migration.name} failed, nothing of it applied: ${reason}`);
      }
      now.push(migration.name);
    }
    return now;
  } finally {
    await client.end();
  }
}

async function main() {
  const url = process.env.DATABASE_URL ?? "";
  if (!/^postgres(ql)?:\/\//.test(url)) {
    console.error(
      "DATABASE_URL must be a postgresql:// URL (e.g. postgresql://user@host:5432/db).",
    );
    process.exit(1);
  }
  const applied = await migratePostgres(url);
  console.log(
    applied.length === 0
      ? "PostgreSQL: every migration was already applied."
      : `PostgreSQL: applied ${applied.join(", ")}.`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
