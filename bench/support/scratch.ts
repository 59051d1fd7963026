import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

/** Shared by the benchmarks: a scratch folder, a migrated SQLite file, a free port, figures. */

export const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** A folder under the system's temp dir, removed by `remove()` (and on exit, as a fallback). */
export function scratchDir(name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  process.once("exit", remove);
  return { dir, remove };
}

/** Applies the app's migrations to a new SQLite file with the real Prisma CLI. */
export function migrateDatabase(databaseFile: string): string {
  const databaseUrl = `file:${databaseFile}`;
  execFileSync(path.join(ROOT, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: "pipe",
  });
  return databaseUrl;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The journal mode SQLite reports for a file (WAL is persistent, DELETE is the default). */
export function journalMode(databaseFile: string): string {
  const db = new Database(databaseFile, { readonly: true });
  try {
    return String(db.pragma("journal_mode", { simple: true }));
  } finally {
    db.close();
  }
}

export const round = (value: number, digits = 0) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

export const perSecond = (value: number) => `${Math.round(value).toLocaleString("en-US")}/s`;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Switches a database file to WAL; the mode is kept in the file, for every later connection. */
export function switchToWal(databaseFile: string): void {
  const db = new Database(databaseFile);
  try {
    db.pragma("journal_mode = WAL");
  } finally {
    db.close();
  }
}

/** The p-th percentile (nearest rank) of the values; NaN for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Polls `check` every 250 ms until it gives a value; throws after `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 300_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(250);
  }
}
