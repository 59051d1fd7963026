import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { DEFAULT_DATABASE_URL, sqliteFilePath } from "./app/db/sqlite-path";

// The schema reads env("DATABASE_URL"); the CLI needs it set even though the adapter opens the file.
process.env.DATABASE_URL ||= DEFAULT_DATABASE_URL;

// The WebAssembly engines and the better-sqlite3 adapter let the CLI work offline (no engine
// download); see ../shared/ENVIRONMENT.md and docs/decisions/0002-database-and-prisma.md.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    return new PrismaBetterSQLite3({ url: sqliteFilePath(process.env.DATABASE_URL) });
  },
});
