import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { LOCK_WAIT_MS } from "../../app/db/database-busy";
import { sqliteFilePath } from "../../app/db/sqlite-path";

/**
 * The app's SQLite connection while another process holds the file's write lock (ADR 0053):
 * statements and transactions wait on timers, never inside SQLite, so the event loop runs on.
 */

let holder: Database.Database | null = null;
afterEach(() => {
  if (holder?.inTransaction) holder.exec("ROLLBACK");
  holder?.close();
  holder = null;
});

/** Takes the write lock from a connection of its own, as a backup or a sqlite3 shell would. */
function lockTheFile(): () => void {
  holder = new Database(sqliteFilePath(process.env.DATABASE_URL));
  holder.exec("BEGIN IMMEDIATE");
  holder.prepare(`DELETE FROM "ShopSettings" WHERE "shop" = 'nobody'`).run();
  return () => holder!.exec("COMMIT");
}

/** Counts the event loop's turns on a 10 ms timer until stopped. */
function countTicks() {
  let ticks = 0;
  const timer = setInterval(() => (ticks += 1), 10);
  return () => {
    clearInterval(timer);
    return ticks;
  };
}

describe("the SQLite connection while another process holds the file", () => {
  it("waits for the lock on timers, then writes", async () => {
    await prisma.shopSettings.findFirst();
    const release = lockTheFile();
    const ticks = countTicks();
    // Prisma runs a query when it is awaited: `then` starts it now, while the file is locked.
    const write = prisma.shopSettings
      .create({ data: { shop: "waits.myshopify.com" } })
      .then(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 600));
    release();
    await write;
    // About 60 turns of a 10 ms timer in 600 ms: the loop was free while the write waited.
    expect(ticks()).toBeGreaterThan(30);
    expect(await prisma.shopSettings.count({ where: { shop: "waits.myshopify.com" } })).toBe(1);
  });

  it("begins a transaction once the lock is free, with every statement in it", async () => {
    await prisma.shopSettings.findFirst();
    const release = lockTheFile();
    const transaction = prisma.$transaction(async (tx) => {
      await tx.shopSettings.create({ data: { shop: "first.myshopify.com" } });
      await tx.shopSettings.create({ data: { shop: "second.myshopify.com" } });
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    release();
    await transaction;
    expect(await prisma.shopSettings.count()).toBe(2);
  });

  it("reads while the file is locked for writing", async () => {
    await prisma.shopSettings.create({ data: { shop: "read.myshopify.com" } });
    lockTheFile();
    const started = performance.now();
    expect(await prisma.shopSettings.count()).toBe(1);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("gives up on a write once the lock outlasts its wait, having written nothing", async () => {
    await prisma.shopSettings.findFirst();
    const release = lockTheFile();
    const started = Date.now();
    await expect(
      prisma.shopSettings.create({ data: { shop: "gives-up.myshopify.com" } }),
    ).rejects.toThrow(/locked by another process/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LOCK_WAIT_MS);
    release();
    expect(await prisma.shopSettings.count()).toBe(0);
  }, 15_000);
});
