import { providerOf, type DatabaseProvider } from "../../app/db.server";

/**
 * The database a test file runs on: SQLite in the `node` project, PostgreSQL in the `postgres`
 * project, whose setup files point DATABASE_URL at a fresh migrated copy for the file.
 * test/both-databases/ runs in both; a behaviour only one of them has is guarded by this.
 */
export function testDatabase(): DatabaseProvider {
  const url = process.env.DATABASE_URL;
  if (!url)
    throw new Error("DATABASE_URL is not set: run this file under the node or postgres project.");
  return providerOf(url);
}

/** The database's name as test titles and messages show it. */
export function testDatabaseName(): string {
  return testDatabase() === "postgresql" ? "PostgreSQL" : "SQLite";
}
