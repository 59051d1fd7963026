import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { BalanceCollectedElsewhereError, transition } from "../../app/models/deliveries.server";
import { shopDomain } from "../support/shopify";

const shop = shopDomain("pg-transitions");

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

describe("transitions on PostgreSQL", () => {
  it("give an order's balance to one of its deliveries when several are built at the same moment", async () => {
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
});
