import pg from "pg";

/**
 * The PostgreSQL server the `postgres` test project runs against: the machine's own
 * (127.0.0.1:5432, trust auth, user postgres), or TEST_POSTGRES_URL. Never mocked.
 */
export const ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export const START_HINT =
  "Start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start " +
  "(or point TEST_POSTGRES_URL at a server where this user may CREATE DATABASE).";

/** The URL of database `name` on the same server. */
export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `work` on a connection to the server's maintenance database. */
export async function withAdminConnection<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `The PostgreSQL tests need a running server at ${ADMIN_URL}, and it is unreachable (${reason}). ${START_HINT}`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Database names are made here, from digits and letters only; quoted all the same. */
export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
