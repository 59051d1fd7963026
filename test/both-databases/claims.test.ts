import { spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import pg from "pg";
import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { claimDueDeliveries, dueDeliveriesWhere } from "../../app/models/deliveries.server";
import { claimDueTracking } from "../../app/models/tracking.server";
import { testDatabase, testDatabaseName } from "../support/database";
import { ROOT } from "../support/paths";
import { shopDomain } from "../support/shopify";

const dialect = testDatabase();
/** A behaviour only one database has is not defined on the other (never counted as skipped). */
const itOnTheOtherDatabase = (..._args: Parameters<typeof it>) => undefined;
const shop = shopDomain("claims");
const gone = shopDomain("claims-uninstalled");
const now = new Date("2026-11-22T10:00:00.000Z");
const minutes = (n: number) => new Date(now.getTime() + n * 60_000);

async function row(
  reference: string,
  data: Partial<Parameters<typeof prisma.delivery.create>[0]["data"]> = {},
) {
  return prisma.delivery.create({
    data: {
      shop,
      orderId: `gid://shopify/Order/${reference}`,
      fulfillmentId: `gid://shopify/Fulfillment/${reference}`,
      source: "webhook",
      state: "pending",
      environment: "sandbox",
      reference,
      nextAttemptAt: minutes(-1),
      ...data,
    },
  });
}

/** PostgreSQL: a transaction on a connection of its own that holds row locks until `release`. */
async function holdRowLocks(ids: string[]) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query("BEGIN");
  const locked = await client.query(`SELECT "id" FROM "Delivery" WHERE "id" = ANY($1) FOR UPDATE`, [
    ids,
  ]);
  expect(locked.rowCount).toBe(ids.length);
  return async () => {
    await client.query("ROLLBACK");
    await client.end();
  };
}

/** test/support/claimer.ts in a process of its own; resolves with its ids once told to go. */
function startClaimer(owner: string, limit: number) {
  const child = spawn(
    path.join(ROOT, "node_modules", ".bin", "tsx"),
    [path.join("test", "support", "claimer.ts"), owner, String(limit)],
    { cwd: ROOT, env: process.env, stdio: ["pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = readline.createInterface({ input: child.stdout });
  const output: string[] = [];
  let onLine: (() => void) | undefined;
  lines.on("line", (line) => {
    output.push(line);
    onLine?.();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const ready = new Promise<void>((resolve, reject) => {
    onLine = () => {
      if (output.includes("ready")) resolve();
    };
    void exited.then((code) => reject(new Error(`claimer ${owner} exited ${code}: ${stderr}`)));
  });
  return {
    ready,
    async go(): Promise<string[]> {
      child.stdin.write("go\n");
      const code = await exited;
      if (code !== 0) throw new Error(`claimer ${owner} exited ${code}: ${stderr}`);
      const result = JSON.parse(output.at(-1)!) as { owner: string; claimed: string[] };
      return result.claimed;
    },
  };
}

describe(`claiming due deliveries (${testDatabaseName()})`, () => {
  it("leases only the due rows of installed shops, never-tried first, then the longest waiting", async () => {
    await prisma.shopSettings.create({ data: { shop } });
    await prisma.shopSettings.create({ data: { shop: gone, uninstalledAt: minutes(-60) } });
    await row("late", { nextAttemptAt: minutes(-30) });
    await row("now", { nextAttemptAt: minutes(0) });
    await row("never-tried", { nextAttemptAt: null, state: "ready" });
    await row("untracked", { state: "created", nextAttemptAt: null });
    await row("lease-lapsed", { leaseOwner: "old", leaseExpiresAt: minutes(-1) });
    // Not due: later, leased, finished, tracked, skipped, or of a shop that uninstalled.
    await row("later", { nextAttemptAt: minutes(5) });
    await row("leased", { leaseOwner: "other", leaseExpiresAt: minutes(1) });
    await row("tracked", { state: "created", trackingPushedAt: minutes(-2) });
    await row("skipped", { state: "skipped", nextAttemptAt: null });
    await row("rejected", { state: "rejected" });
    await row("gone", { shop: gone });

    const claimed = await claimDueDeliveries("me", 10, 60_000, now);
    // The same order on both databases, though they sort a null next attempt differently.
    expect(claimed.map((d) => d.reference)).toEqual([
      "never-tried",
      "untracked",
      "late",
      "lease-lapsed",
      "now",
    ]);
    for (const delivery of claimed) {
      expect(delivery.leaseOwner).toBe("me");
      expect(delivery.leaseExpiresAt).toEqual(minutes(1));
    }
    const leasedByOther = await prisma.delivery.findFirstOrThrow({
      where: { reference: "leased" },
    });
    expect(leasedByOther.leaseOwner).toBe("other");
    expect(await claimDueDeliveries("me", 10, 60_000, now)).toEqual([]);
  });

  it("leases a delivery whose cancellation waits, in any state but a final one", async () => {
    await prisma.shopSettings.create({ data: { shop } });
    const asked = { cancelRequestedAt: minutes(-1), nextAttemptAt: null };
    await row("address", { state: "needs_address", ...asked });
    await row("on-the-road", { state: "in_transit", trackingPushedAt: minutes(-9), ...asked });
    await row("already-cancelled", { state: "cancelled", ...asked });
    await row("delivered", { state: "delivered", ...asked });
    await row("address-not-asked", { state: "needs_address", nextAttemptAt: null });
    const claimed = await claimDueDeliveries("me", 10, 60_000, now);
    expect(claimed.map((d) => d.reference).sort()).toEqual(["address", "on-the-road"]);
  });

  it("gives each row to one claimer only, up to its limit, however many claim at once", async () => {
    await prisma.shopSettings.create({ data: { shop } });
    for (let i = 0; i < 30; i++) await row(`r${String(i).padStart(2, "0")}`);
    const owners = ["a", "b", "c", "d"];
    const claims = await Promise.all(
      owners.map((owner) => claimDueDeliveries(owner, 8, 60_000, now)),
    );
    // Which claim comes last is up to the database on PostgreSQL (a pool of connections).
    expect(claims.map((c) => c.length).sort()).toEqual([6, 8, 8, 8]);
    const ids = claims.flat().map((d) => d.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    for (const [i, owner] of owners.entries()) {
      expect(claims[i]!.every((d) => d.leaseOwner === owner)).toBe(true);
    }
  });

  it("gives every row to exactly one of two worker processes claiming at once", async () => {
    await prisma.shopSettings.create({ data: { shop } });
    await prisma.delivery.createMany({
      data: Array.from({ length: 300 }, (_, i) => ({
        shop,
        orderId: `gid://shopify/Order/p${i}`,
        fulfillmentId: `gid://shopify/Fulfillment/p${i}`,
        source: "webhook",
        state: "pending",
        environment: "sandbox",
        reference: `p${i}`,
        nextAttemptAt: new Date(Date.now() - 60_000),
      })),
    });
    const one = startClaimer("worker-1", 5);
    const two = startClaimer("worker-2", 5);
    await Promise.all([one.ready, two.ready]);
    const [first, second] = await Promise.all([one.go(), two.go()]);

    const both = [...first, ...second];
    expect(new Set(first).size).toBe(first.length);
    expect(new Set(second).size).toBe(second.length);
    expect(first.filter((id) => second.includes(id))).toEqual([]);
    expect(both).toHaveLength(300);
    // Each row's lease names the process that reported it.
    const rows = await prisma.delivery.findMany({
      where: { shop },
      select: { id: true, leaseOwner: true },
    });
    const ownerOf = new Map(rows.map((r) => [r.id, r.leaseOwner]));
    expect(first.every((id) => ownerOf.get(id) === "worker-1")).toBe(true);
    expect(second.every((id) => ownerOf.get(id) === "worker-2")).toBe(true);
  });

  // SKIP LOCKED is PostgreSQL's: SQLite has one writer at a time and no row locks to pass over.
  (dialect === "postgresql" ? it : itOnTheOtherDatabase)(
    "passes over rows another transaction has locked instead of waiting for them",
    async () => {
      await prisma.shopSettings.create({ data: { shop } });
      const rows = [];
      for (let i = 0; i < 6; i++) {
        rows.push(await row(`s${i}`, { nextAttemptAt: minutes(-10 + i) }));
      }
      // The three longest waiting are being claimed by someone else right now.
      const release = await holdRowLocks(rows.slice(0, 3).map((r) => r.id));
      try {
        // Without SKIP LOCKED this would wait for the lock, and the test would time out.
        const claimed = await claimDueDeliveries("me", 10, 60_000, now);
        expect(claimed.map((d) => d.reference)).toEqual(["s3", "s4", "s5"]);
      } finally {
        await release();
      }
      // Released (the other claimer gave up): they are due, and claimed next.
      const next = await claimDueDeliveries("me-again", 10, 60_000, now);
      expect(next.map((d) => d.reference)).toEqual(["s0", "s1", "s2"]);
    },
  );

  it("finds due work through indexes, not by reading every delivery ever made", async () => {
    await prisma.shopSettings.create({ data: { shop } });
    // A shop's history: mostly finished deliveries, a few due, a few cancellations waiting.
    await prisma.delivery.createMany({
      data: Array.from({ length: 3_000 }, (_, i) => ({
        shop,
        orderId: `gid://shopify/Order/${i}`,
        fulfillmentId: `gid://shopify/Fulfillment/${i}`,
        source: "webhook",
        state: i % 100 === 0 ? "pending" : "delivered",
        cancelRequestedAt: i % 1_000 === 1 ? minutes(-1) : null,
        environment: "sandbox",
        reference: `history-${i}`,
      })),
    });
    const steps = dialect === "postgresql" ? await postgresPlan() : await sqlitePlan();
    expect(steps.filter((step) => /^SCAN Delivery\b|Seq Scan on "Delivery"/.test(step))).toEqual(
      [],
    );
    expect(steps).toContainEqual(expect.stringMatching(/Delivery_cancelRequestedAt_idx/));
  });

  /** The steps of the claim's query plan on SQLite, with statistics gathered and then dropped. */
  async function sqlitePlan() {
    await prisma.$executeRawUnsafe("ANALYZE");
    try {
      const plan = await prisma.$queryRaw<{ detail: string }[]>`
        EXPLAIN QUERY PLAN SELECT "id" FROM "Delivery" WHERE ${dueDeliveriesWhere(now)}
        ORDER BY "nextAttemptAt", "createdAt" LIMIT 25`;
      return plan.map((p) => p.detail);
    } finally {
      await prisma.$executeRawUnsafe("DROP TABLE IF EXISTS sqlite_stat1");
    }
  }

  /** The steps of the claim's query plan on PostgreSQL, with reading the table whole forbidden. */
  async function postgresPlan() {
    await prisma.$executeRawUnsafe(`ANALYZE "Delivery"`);
    // A table this small is cheaper to read whole; forbidding that shows whether anything else
    // can find the rows whose cancellation waits.
    const plan = await prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      return tx.$queryRaw<{ "QUERY PLAN": string }[]>`
        EXPLAIN SELECT "id" FROM "Delivery" WHERE ${dueDeliveriesWhere(now)}
        ORDER BY "nextAttemptAt" ASC NULLS FIRST, "createdAt" ASC LIMIT 25`;
    });
    return plan.map((p) => p["QUERY PLAN"]);
  }
});

describe(`claiming deliveries due for tracking (${testDatabaseName()})`, () => {
  const other = shopDomain("claims-other");

  async function tracked(s: string, reference: string, syncAt: Date, data = {}) {
    return prisma.delivery.create({
      data: {
        shop: s,
        orderId: `gid://shopify/Order/${reference}`,
        fulfillmentId: `gid://shopify/Fulfillment/${reference}`,
        source: "webhook",
        state: "in_transit",
        environment: "sandbox",
        reference,
        courierOrderId: `C-${reference}`,
        trackingPushedAt: minutes(-120),
        syncAt,
        ...data,
      },
    });
  }

  /** A busy shop with six due, a quiet one with one, and rows that are not due. */
  async function busyAndQuietShops() {
    await prisma.shopSettings.createMany({
      data: [{ shop }, { shop: other }, { shop: gone, uninstalledAt: minutes(-5) }],
    });
    for (let i = 0; i < 6; i++) await tracked(shop, `busy${i}`, minutes(-20 + i));
    await tracked(other, "quiet0", minutes(-1));
    await tracked(shop, "later", minutes(5));
    await tracked(shop, "leased", minutes(-30), { leaseOwner: "x", leaseExpiresAt: minutes(1) });
    await tracked(gone, "gone", minutes(-30));
  }

  it("shares a sync run between shops, the quiet shop's unused share going to the busy one", async () => {
    await busyAndQuietShops();
    // Two per shop; the quiet shop has one, so its share goes to the busy shop.
    const claimed = await claimDueTracking("sync-1", 4, 60_000, now);
    expect(claimed.map((d) => d.reference).sort()).toEqual(["busy0", "busy1", "busy2", "quiet0"]);
    expect(claimed.every((d) => d.leaseOwner === "sync-1")).toBe(true);

    // Not due, leased, or of a shop that uninstalled: never claimed.
    const rest = await claimDueTracking("sync-2", 10, 60_000, now);
    expect(rest.map((d) => d.reference).sort()).toEqual(["busy3", "busy4", "busy5"]);
    expect(await claimDueTracking("sync-3", 10, 60_000, now)).toEqual([]);
  });

  // Row locks held by another connection exist on PostgreSQL only (SKIP LOCKED, ADR 0009).
  (dialect === "postgresql" ? it : itOnTheOtherDatabase)(
    "skips a row another sync run has locked",
    async () => {
      await busyAndQuietShops();
      const locked = await prisma.delivery.findFirstOrThrow({ where: { reference: "busy0" } });

      const release = await holdRowLocks([locked.id]);
      let claimed;
      try {
        claimed = await claimDueTracking("sync-1", 4, 60_000, now);
      } finally {
        await release();
      }
      // The busy shop's oldest is locked by another claimer and passed over.
      expect(claimed.map((d) => d.reference).sort()).toEqual(["busy1", "busy2", "quiet0"]);
      expect(claimed.every((d) => d.leaseOwner === "sync-1")).toBe(true);

      const rest = await claimDueTracking("sync-2", 10, 60_000, now);
      expect(rest.map((d) => d.reference).sort()).toEqual(["busy0", "busy3", "busy4", "busy5"]);
      expect(await claimDueTracking("sync-3", 10, 60_000, now)).toEqual([]);
    },
  );

  it("gives each row to one sync run only, with many runs at once", async () => {
    await prisma.shopSettings.createMany({ data: [{ shop }, { shop: other }] });
    for (let i = 0; i < 30; i++) await tracked(i % 3 ? shop : other, `t${i}`, minutes(-30 + i / 2));
    const owners = ["s1", "s2", "s3", "s4"];
    const claims: string[][] = owners.map(() => []);
    // Passes at once, again and again, until nothing is due.
    for (let round = 0; round < 20; round++) {
      const results = await Promise.all(owners.map((o) => claimDueTracking(o, 5, 60_000, now)));
      results.forEach((rows, i) => claims[i]!.push(...rows.map((r) => r.id)));
      if (results.every((rows) => rows.length === 0)) break;
    }
    const ids = claims.flat();
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(30);
  });
});
