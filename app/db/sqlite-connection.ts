import type Database from "better-sqlite3";
import { whileLocked } from "./database-busy";

/**
 * How the app's one SQLite connection is set up when Prisma opens it (app/db.server.ts).
 *
 * - WAL: readers (the admin pages, the browser tests' own client) never wait for the writer, and
 *   a commit appends to the log instead of rewriting pages through a rollback journal.
 * - synchronous=NORMAL: a commit is safe from a crash of the process; only a power loss or an OS
 *   crash can take back the last commits before a checkpoint. The writes that acknowledge
 *   something to Shopify (webhook intake) are made with {@link durableTransaction} instead, which
 *   syncs the log before it returns.
 * - secure_delete: deleted and overwritten content is zeroed in its page, and freed pages are
 *   zeroed too, so an erased customer or an uninstalled shop's tokens do not linger in free
 *   space. The log keeps older page images until a checkpoint: {@link checkpointErasure}.
 */
export function configureSqliteConnection(db: Database.Database): void {
  // An in-memory database answers "memory" and stays so; a file switches (the mode is persistent).
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("secure_delete = ON");
  // Never sleep inside SQLite for a lock another process holds: the thread is the event loop's.
  // Refused statements are tried again on timers instead (app/db/database-busy.ts, ADR 0053).
  db.pragma("busy_timeout = 0");
}

/**
 * After an erasure (customers/redact, shop/redact, app/uninstalled): the write-ahead log still
 * holds the pages as they were before, so it is checkpointed into the file (whose copies are
 * zeroed by secure_delete) and truncated to nothing. Waits for a transaction open on the
 * connection to end first; retries while another connection reads. False if it never got through.
 */
export async function checkpointErasure(db: Database.Database, attempts = 40): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    while (db.inTransaction) await new Promise<void>((resolve) => setImmediate(resolve));
    // Prisma's connection reads integers as BigInt.
    const [result] = db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number | bigint }[];
    if (!result || Number(result.busy) === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/**
 * Runs `work` in one transaction on `db` and returns after the commit is on disk (the WAL synced,
 * as synchronous=FULL does), so what it wrote survives a power loss too. Synchronous from BEGIN
 * to COMMIT: nothing else on this thread can run in between.
 */
export function durableTransaction<T>(db: Database.Database, work: () => T): T {
  if (db.inTransaction) throw new Error("durableTransaction cannot run inside a transaction");
  db.pragma("synchronous = FULL");
  try {
    return db.transaction(work).immediate();
  } finally {
    db.pragma("synchronous = NORMAL");
  }
}

/**
 * {@link durableTransaction} once the connection is free: after any Prisma transaction open on it
 * has ended, and while another process holds the file's write lock, tried again on timers (ADR
 * 0050). `work` runs whole each time it is tried: a refused attempt wrote nothing.
 */
export function durableWrite<T>(db: Database.Database, work: () => T): Promise<T> {
  return whileLocked(async () => {
    while (db.inTransaction) await new Promise<void>((resolve) => setImmediate(resolve));
    return durableTransaction(db, work);
  });
}
