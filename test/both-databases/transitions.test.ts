import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import {
  recordShopifyFulfillmentCancelled,
  requestCancel,
} from "../../app/models/cancel-requests.server";
import {
  BalanceCollectedElsewhereError,
  startCreating,
  transition,
} from "../../app/models/delivery-state";
import { testDatabaseName } from "../support/database";
import { shopDomain } from "../support/shopify";

const shop = shopDomain("transitions");

async function part(order: number, fulfillment: number) {
  return prisma.delivery.create({
    data: {
      shop,
      orderId: `gid://shopify/Order/${order}`,
      fulfillmentId: `gid://shopify/Fulfillment/${fulfillment}`,
      source: "webhook",
      state: "pending",
      environment: "sandbox",
      reference: `ref-${fulfillment}`,
    },
  });
}

describe(`moving deliveries between states (${testDatabaseName()})`, () => {
  it("gives an order's balance to one of its deliveries when several are built at the same moment", async () => {
    const orders = [1, 2, 3, 4, 5, 6, 7, 8];
    const rows = await Promise.all(
      orders.flatMap((order) => [1, 2, 3].map((n) => part(order, order * 10 + n))),
    );
    const outcomes = await Promise.allSettled(
      rows.map((row) =>
        transition({
          shop,
          id: row.id,
          from: "pending",
          to: "ready",
          leaseOwner: null,
          data: { cashToCollect: "30.000" },
          event: { kind: "ready", message: "built" },
          soleCollectorOf: row.orderId,
        }),
      ),
    );
    for (const outcome of outcomes) {
      if (outcome.status === "rejected")
        expect(outcome.reason).toBeInstanceOf(BalanceCollectedElsewhereError);
    }
    const collecting = await prisma.delivery.groupBy({
      by: ["orderId"],
      where: { shop, cashToCollect: { not: null } },
      _count: { _all: true },
    });
    expect(collecting.map((c) => c._count._all)).toEqual(orders.map(() => 1));
    // The refused moves left their rows as they were, without an event.
    expect(await prisma.delivery.count({ where: { shop, state: "pending" } })).toBe(
      orders.length * 2,
    );
    expect(await prisma.deliveryEvent.count({ where: { shop } })).toBe(orders.length);
  });

  it("moves to creating only the ready rows this worker still leases, counting the attempt", async () => {
    const at = new Date("2026-11-22T10:00:00.000Z");
    const mine = await part(9, 91);
    const theirs = await part(9, 92);
    // Leased by this worker once, lost, and taken again since (by it or another): not its now.
    const retaken = await part(9, 93);
    await prisma.delivery.update({
      where: { id: mine.id },
      data: { state: "ready", leaseOwner: "me", leaseGeneration: 4 },
    });
    await prisma.delivery.update({
      where: { id: theirs.id },
      data: { state: "ready", leaseOwner: "someone-else", leaseGeneration: 4 },
    });
    await prisma.delivery.update({
      where: { id: retaken.id },
      data: { state: "ready", leaseOwner: "me", leaseGeneration: 5 },
    });
    const moved = await startCreating(
      [mine, theirs, retaken].map((d) => ({
        shop,
        id: d.id,
        leaseGeneration: 4,
        request: "{}",
        message: "sending",
      })),
      "me",
      at,
      new Date(at.getTime() + 60_000),
    );
    expect([...moved]).toEqual([mine.id]);
    const after = await prisma.delivery.findUniqueOrThrow({ where: { id: mine.id } });
    expect(after).toMatchObject({
      state: "creating",
      attempts: 1,
      unknownSince: at,
      request: "{}",
      leaseExpiresAt: new Date(at.getTime() + 60_000),
    });
    for (const other of [theirs, retaken])
      expect((await prisma.delivery.findUniqueOrThrow({ where: { id: other.id } })).state).toBe(
        "ready",
      );
    expect(
      await prisma.deliveryEvent.count({ where: { deliveryId: mine.id, kind: "sending" } }),
    ).toBe(1);
  });

  it("refuses a worker's move on a row it lost and took again since", async () => {
    const row = await part(10, 101);
    // Taken by "me" at generation 4, lost while paused, taken again by "me" (generation 5).
    await prisma.delivery.update({
      where: { id: row.id },
      data: { state: "created", leaseOwner: "me", leaseGeneration: 5 },
    });
    const move = (fence: { leaseGeneration?: number }) =>
      transition({
        shop,
        id: row.id,
        from: "created",
        to: "created",
        leaseOwner: "me",
        ...fence,
        data: { trackingUrl: "https://app.example/tracking/late" },
        event: { kind: "tracking", message: "Tracking number added." },
      });
    await expect(move({ leaseGeneration: 4 })).rejects.toThrow(/no longer created/);
    await expect(move({})).rejects.toThrow(/generation/);
    const after = await prisma.delivery.findUniqueOrThrow({ where: { id: row.id } });
    expect(after.trackingUrl).toBeNull();
    expect(await prisma.deliveryEvent.count({ where: { deliveryId: row.id } })).toBe(0);
    await move({ leaseGeneration: 5 });
    expect(
      (await prisma.delivery.findUniqueOrThrow({ where: { id: row.id } })).trackingUrl,
    ).toContain("late");
  });

  it("records a cancellation request with its event", async () => {
    const at = new Date("2026-11-22T10:00:00.000Z");
    const live = await part(7, 71);
    expect(await requestCancel(shop, live.id, "the order was cancelled in Shopify", at)).toBe(true);
    expect(await prisma.delivery.findUniqueOrThrow({ where: { id: live.id } })).toMatchObject({
      cancelRequestedAt: at,
      cancelReason: "the order was cancelled in Shopify",
      nextAttemptAt: at,
    });
    expect(
      await prisma.deliveryEvent.findMany({
        where: { shop },
        select: { deliveryId: true, kind: true },
      }),
    ).toEqual([{ deliveryId: live.id, kind: "cancel_requested" }]);
  });

  it("records no cancellation request on a delivered delivery", async () => {
    const at = new Date("2026-11-22T10:00:00.000Z");
    const done = await part(7, 72);
    await prisma.delivery.update({ where: { id: done.id }, data: { state: "delivered" } });
    expect(await requestCancel(shop, done.id, "the order was cancelled in Shopify", at)).toBe(
      false,
    );
    expect(await prisma.delivery.findUniqueOrThrow({ where: { id: done.id } })).toMatchObject({
      cancelRequestedAt: null,
    });
    expect(await prisma.deliveryEvent.count({ where: { shop } })).toBe(0);
  });

  it("records the merchant's wish to cancel the Shopify fulfillment too, which a later request keeps", async () => {
    const at = new Date("2026-11-22T10:00:00.000Z");
    const live = await part(8, 81);
    expect(
      await requestCancel(shop, live.id, "cancelled by the merchant in the app", at, {
        cancelFulfillment: true,
      }),
    ).toBe(true);
    expect(await requestCancel(shop, live.id, "the order was cancelled in Shopify", at)).toBe(true);
    expect(await prisma.delivery.findUniqueOrThrow({ where: { id: live.id } })).toMatchObject({
      cancelFulfillment: true,
      shopifyCancelledAt: null,
    });
    const kept = await part(8, 82);
    expect(await requestCancel(shop, kept.id, "cancelled by the merchant in the app", at)).toBe(
      true,
    );
    expect(
      (await prisma.delivery.findUniqueOrThrow({ where: { id: kept.id } })).cancelFulfillment,
    ).toBe(false);

    // The fulfillment cancelled in Shopify is recorded once, with one timeline entry.
    const later = new Date("2026-11-22T10:05:00.000Z");
    expect(await recordShopifyFulfillmentCancelled(shop, live.id, "gone", later)).toBe(true);
    expect(await recordShopifyFulfillmentCancelled(shop, live.id, "gone", later)).toBe(false);
    expect(
      (await prisma.delivery.findUniqueOrThrow({ where: { id: live.id } })).shopifyCancelledAt,
    ).toEqual(later);
    expect(
      await prisma.deliveryEvent.count({
        where: { deliveryId: live.id, kind: "shopify_fulfillment_cancelled" },
      }),
    ).toBe(1);
  });
});
