import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

// The PostgreSQL schema's CLI configuration (ADR 0009); paths are relative to this file. The
// WebAssembly engines and the pg adapter let `prisma generate` and `prisma migrate diff` work
// offline, as for SQLite. Migrations are applied by scripts/pg-migrate.ts, not `migrate deploy`
// (prisma/orm#27403 fails it offline).
//   npx prisma generate --config prisma/postgresql/prisma.config.ts

// generate and diff never connect, but the schema's env("DATABASE_URL") must look like PostgreSQL
// even where the app itself runs on SQLite.
if (!/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "")) {
  process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/postgres";
}
const connectionString = process.env.DATABASE_URL;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "schema.prisma",
  migrations: { path: "migrations" },
  async adapter() {
    return new PrismaPg({ connectionString });
  },
});
