import { createRequire } from "node:module";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import Database from "better-sqlite3";
import pg from "pg";
import { whileLocked } from "./db/database-busy";
import { checkpointErasure, configureSqliteConnection } from "./db/sqlite-connection";
import { sqliteFilePath } from "./db/sqlite-path";
import { env } from "./env.server";

/**
 * Prisma's better-sqlite3 adapter, with the connection it opens set up for the app (WAL,
 * app/db/sqlite-connection.ts) before Prisma's first query, and kept at hand: the few hot paths
 * that write raw SQL (webhook intake's group commit) use the very same connection, so they never
 * wait on a lock held by Prisma, nor Prisma on theirs.
 */
class AppSqliteAdapterFactory extends PrismaBetterSQLite3 {
  database: Database.Database | null = null;
  /** Resolves once no Prisma transaction is open, ahead of transactions not yet started. */
  outsideTransaction: () => Promise<void> = () => Promise.resolve();

  override async connect() {
    const adapter = await super.connect();
    // The adapter keeps its better-sqlite3 Database as `client` (6.19); checked, not assumed.
    const client = (adapter as unknown as { client?: unknown }).client;
    if (!(client instanceof Database)) {
      throw new Error("The Prisma SQLite adapter no longer exposes its better-sqlite3 connection.");
    }
    configureSqliteConnection(client);
    this.outsideTransaction = keepQueriesOutOfTransactions(adapter, client);
    this.database = client;
    return adapter;
  }
}

type Adapter = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;

/**
 * The adapter runs every query on its one connection and locks interactive transactions only
 * against each other: a query from elsewhere that runs while a transaction awaits between its
 * statements would land inside it, and be rolled back with it. So a query outside a transaction
 * waits until none is open (better-sqlite3 runs it synchronously once called, so nothing can
 * open one in between), and a new transaction lets the queries already waiting go first.
 */
function keepQueriesOutOfTransactions(adapter: Adapter, client: Database.Database) {
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  let waiting = 0;
  const outsideTransaction = async () => {
    if (!client.inTransaction) return;
    waiting += 1;
    try {
      while (client.inTransaction) await nextTurn();
    } finally {
      waiting -= 1;
    }
  };
  // A query answers synchronously and its promise settles without a turn of the event loop, so a
  // chain of them (a worker pass: hundreds) kept webhooks and pages waiting until it ended. Each
  // query outside a transaction now lets the requests that arrived meanwhile in first (ADR 0016);
  // inside one it does not, so a transaction, which holds everyone else back, stays short.
  // A statement another process's lock refuses is tried again on a timer (ADR 0053).
  const outside =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      whileLocked(async () => {
        await outsideTransaction();
        const result = await run(...args);
        if (!client.inTransaction) await nextTurn();
        return result;
      });
  adapter.queryRaw = outside(adapter.queryRaw.bind(adapter));
  adapter.executeRaw = outside(adapter.executeRaw.bind(adapter));
  // A transaction takes the file's write lock when it begins (BEGIN IMMEDIATE), tried again on
  // timers while another process holds it, so none of its statements can be refused for a lock
  // halfway; the adapter's own deferred BEGIN that follows is then skipped.
  const prepare = client.prepare.bind(client);
  let begun = false;
  client.prepare = ((source: string) => {
    if (source === "BEGIN" && begun) {
      begun = false;
      return { run: () => ({ changes: 0, lastInsertRowid: 0 }) };
    }
    return prepare(source);
  }) as typeof client.prepare;
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (...args) => {
    while (waiting > 0 && !client.inTransaction) await nextTurn();
    await whileLocked(async () => {
      while (client.inTransaction) await nextTurn();
      prepare("BEGIN IMMEDIATE").run();
      begun = true;
    });
    return startTransaction(...args);
  };
  return outsideTransaction;
}

/** Which database DATABASE_URL names: SQLite (one instance) or PostgreSQL (several, ADR 0009). */
export type DatabaseProvider = "sqlite" | "postgresql";

export function providerOf(databaseUrl: string): DatabaseProvider {
  return /^postgres(ql)?:\/\//.test(databaseUrl) ? "postgresql" : "sqlite";
}

type AppDatabase =
  | { provider: "sqlite"; prisma: PrismaClient; adapter: AppSqliteAdapterFactory }
  | { provider: "postgresql"; prisma: PrismaClient; pool: pg.Pool };

declare global {
  // Survives Vite's module reloads in development so that one connection is kept.
  var __prisma: PrismaClient | undefined;
  var __appDatabase: AppDatabase | undefined;
}

function createClient(): AppDatabase {
  const url = env().DATABASE_URL;
  if (providerOf(url) === "postgresql") return createPostgresClient(url);
  const adapter = new AppSqliteAdapterFactory({ url: sqliteFilePath(url) });
  return { provider: "sqlite", prisma: new PrismaClient({ adapter }), adapter };
}

/**
 * PostgreSQL: the client generated from prisma/postgresql/schema.prisma (same models, so the same
 * API as the app's PrismaClient type; it shares @prisma/client's runtime, scripts/pg-generate.ts)
 * through the pg adapter, on a pool the app keeps for the raw SQL of webhook intake. Loaded only
 * here, by `require` from node_modules, so a SQLite install never needs it.
 */
function createPostgresClient(connectionString: string): AppDatabase {
  let generated: { PrismaClient: new (options: { adapter: PrismaPg }) => unknown };
  try {
    generated = createRequire(import.meta.url)(".prisma/client-pg") as typeof generated;
  } catch {
    throw new Error(
      "DATABASE_URL is PostgreSQL but its Prisma client is not generated: run `npm run setup`.",
    );
  }
  // No JIT: it compiled each of Home's aggregates (20–60 ms a query, more than running them took)
  // and an OLTP app's queries are too short to repay it (ADR 0046).
  const pool = new pg.Pool({ connectionString, options: "-c jit=off" });
  // A connection the server ends (a restart, a failover, pg_terminate_backend) emits 'error' on
  // its client; unheard, that ends the process. The pool listens only while a client is idle, so
  // every client gets a listener of its own for its whole life: whoever holds it (intake, a
  // Prisma transaction) sees its query fail, and the pool drops it when it comes back (issue 24).
  const connectionLost = (error: Error) => {
    console.warn(`PostgreSQL connection lost (${error.message}); the next query reconnects.`);
  };
  pool.on("connect", (client) => client.on("error", connectionLost));
  pool.on("error", connectionLost);
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  const prisma = new generated.PrismaClient({ adapter }) as PrismaClient;
  return { provider: "postgresql", prisma, pool };
}

// The test harness resets __prisma between test files; a new client comes with its own adapter.
const database: AppDatabase =
  globalThis.__prisma && globalThis.__appDatabase?.prisma === globalThis.__prisma
    ? globalThis.__appDatabase
    : createClient();
const prisma: PrismaClient = database.prisma;
if (env().NODE_ENV !== "production") {
  globalThis.__prisma = prisma;
  globalThis.__appDatabase = database;
}

/** The database this process runs on. */
export function databaseProvider(): DatabaseProvider {
  return database.provider;
}

/** The pool Prisma's PostgreSQL adapter queries through, for raw SQL on the hot paths. */
export function postgresPool(): pg.Pool {
  if (database.provider !== "postgresql") throw new Error("The app is not on PostgreSQL.");
  return database.pool;
}

/** Prisma's own SQLite connection (opened if need be), for raw SQL on the hot paths. */
export async function sqliteConnection(): Promise<Database.Database> {
  if (database.provider !== "sqlite") throw new Error("The app is not on SQLite.");
  const sqlite = database.adapter;
  const current = sqlite.database;
  if (current?.open) return current;
  await prisma.$connect();
  const opened = sqlite.database;
  if (!opened?.open) throw new Error("Prisma did not open its SQLite connection.");
  return opened;
}

/**
 * On SQLite, resolves once no Prisma transaction is open on the app's connection; a transaction
 * about to start lets this caller go first (webhook intake's group commit, ADR 0016).
 */
export async function outsidePrismaTransaction(): Promise<void> {
  if (database.provider === "sqlite") await database.adapter.outsideTransaction();
}

/**
 * Makes erased rows unreadable on disk as well (ADR 0012). SQLite: the log's older page images
 * are checkpointed away (app/db/sqlite-connection.ts). PostgreSQL keeps deleted row versions until
 * (auto)vacuum reclaims them and in its WAL archives for their retention: encrypt its disks.
 */
export async function eraseFromDisk(): Promise<void> {
  if (database.provider !== "sqlite") return;
  if (!(await checkpointErasure(await sqliteConnection()))) {
    console.warn(
      "Erased data may stay in the SQLite log until its next checkpoint: it stayed busy.",
    );
  }
}

export default prisma;
