import { migratePostgres } from "../../../scripts/pg-migrate";
import { databaseUrl, ident, withAdminConnection } from "../support/server";

/**
 * Creates this run's template database on the real PostgreSQL server and applies the committed
 * migrations with scripts/pg-migrate.ts; each test file then gets its own copy (setup/file.ts).
 * An unreachable server fails the run with how to start it: these tests never skip.
 * Everything this run created is dropped at the end.
 */
export default async function setup() {
  const prefix = `app_test_${process.pid}`;
  const template = `${prefix}_template`;
  await withAdminConnection(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${ident(template)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${ident(template)}`);
  });
  await migratePostgres(databaseUrl(template));
  process.env.TEST_PG_PREFIX = prefix;
  process.env.TEST_PG_TEMPLATE = template;
  return async () => {
    await withAdminConnection(async (client) => {
      const { rows } = await client.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE starts_with(datname, $1)",
        [`${prefix}_`],
      );
      for (const { datname } of rows) {
        await client.query(`DROP DATABASE IF EXISTS ${ident(datname)} WITH (FORCE)`);
      }
    });
  };
}
