import type { AsyncLocalStorage } from "node:async_hooks";

/**
 * Waiting for a SQLite file another process holds (ADR 0053). SQLite's own busy handler sleeps
 * inside the call, and better-sqlite3 runs on the event loop's thread: every statement waiting
 * for a lock held elsewhere (a backup, a `sqlite3` shell) froze the whole process, webhooks and
 * pages with it, for up to 5 s each. The app's connection therefore never sleeps in SQLite
 * (busy_timeout 0): a statement refused for a lock is tried again after a timer, letting the event
 * loop run meanwhile, until {@link LOCK_WAIT_MS} have passed; then it fails with
 * {@link DatabaseBusyError}, which the server answers with 503 and Retry-After
 * (server/database-busy.js).
 */

/** How long one statement, transaction or webhook intake waits for another process's lock. */
export const LOCK_WAIT_MS = 3_000;

export class DatabaseBusyError extends Error {
  constructor() {
    super(
      "The database file is locked by another process (a backup or a sqlite3 shell?); nothing was written. Try again in a few seconds.",
    );
    this.name = "DatabaseBusyError";
  }
}

/** Whether SQLite refused a statement because another connection holds a lock it needs. */
export function isSqliteBusy(error: unknown): boolean {
  const codes = [
    (error as { code?: unknown })?.code,
    // Prisma's driver adapter keeps SQLite's code as the cause's originalCode.
    (error as { cause?: { originalCode?: unknown } })?.cause?.originalCode,
  ];
  return codes.some(
    (code) =>
      typeof code === "string" &&
      (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")),
  );
}

/** The delay before try `attempt` (1, 2, …): short at first, at most 100 ms. */
export function lockRetryDelayMs(attempt: number): number {
  return Math.min(100, 5 * 2 ** Math.min(attempt, 5));
}

/**
 * Runs `attempt` until it does not fail for a lock, waiting on timers in between, for at most
 * `waitMs`; then throws {@link DatabaseBusyError}. Any other failure is thrown at once.
 */
export async function whileLocked<T>(
  attempt: () => T | Promise<T>,
  waitMs = LOCK_WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isSqliteBusy(error)) throw error;
      if (Date.now() >= deadline) throw noteDatabaseBusy(new DatabaseBusyError());
    }
    await new Promise((resolve) => setTimeout(resolve, lockRetryDelayMs(tries)));
  }
}

/**
 * The request the server is answering, as server.js shares it (an AsyncLocalStorage under a
 * global symbol: the app's bundle and server.js are separate modules). A request during which the
 * database stayed locked is answered 503 even when a route turned the error into a 500.
 */
const REQUEST_SCOPE = Symbol.for("kuwait-courier.request-scope");

export interface RequestScope {
  databaseBusy: boolean;
}

export function noteDatabaseBusy<E>(error: E): E {
  const scope = (globalThis as { [REQUEST_SCOPE]?: AsyncLocalStorage<RequestScope> })[
    REQUEST_SCOPE
  ]?.getStore();
  if (scope) scope.databaseBusy = true;
  return error;
}
