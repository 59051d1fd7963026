import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { claimDueDeliveries, dueDeliveriesWhere } from "../../app/models/deliveries.server";
import { shopDomain } from "../support/shopify";

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

describe("claimDueDeliveries", () => {
  it("leases due rows of installed shops, the longest waiting first, and nothing else", async () => {
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
    expect(claimed.map((d) => d.reference)).toEqual([
      // SQLite sorts a null next attempt first, as Prisma's orderBy did.
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

  it("gives each row to one claimer only, however many claim at once, up to the limit each", async () => {
    await prisma.shopSettings.create({ data: { shop } });
    for (let i = 0; i < 30; i++) await row(`r${String(i).padStart(2, "0")}`);
    const claims = await Promise.all(
      ["a", "b", "c", "d"].map((owner) => claimDueDeliveries(owner, 8, 60_000, now)),
    );
    expect(claims.map((c) => c.length)).toEqual([8, 8, 8, 6]);
    const ids = claims.flat().map((d) => d.id);
    expect(new Set(ids).size).toBe(30);
    for (const [i, owner] of ["a", "b", "c", "d"].entries()) {
      expect(claims[i]!.every((d) => d.leaseOwner === owner)).toBe(true);
    }
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
    await prisma.$executeRawUnsafe("ANALYZE");
    try {
      const plan = await prisma.$queryRaw<{ detail: string }[]>`
        EXPLAIN QUERY PLAN SELECT "id" FROM "Delivery" WHERE ${dueDeliveriesWhere(now)}
        ORDER BY "nextAttemptAt", "createdAt" LIMIT 25`;
      const steps = plan.map((p) => p.detail);
      expect(steps.filter((step) => /^SCAN Delivery\b/.test(step))).toEqual([]);
      expect(steps).toContainEqual(expect.stringMatching(/Delivery_cancelRequestedAt_idx/));
    } finally {
      await prisma.$executeRawUnsafe("DROP TABLE IF EXISTS sqlite_stat1");
    }
  });
});
