import { describe, expect, it } from "vitest";
import { auditIntake } from "../../bench/support/intake-audit";
import prisma from "../../app/db.server";

const shop = "bench-audit.myshopify.com";

async function delivery(n: number, firstEvents: number) {
  const row = await prisma.delivery.create({
    data: {
      shop,
      orderId: `gid://shopify/Order/${n}`,
      fulfillmentId: `gid://shopify/Fulfillment/${n}`,
      source: "webhook",
      state: "pending",
      environment: "sandbox",
      reference: `SHPFY-bench-audit-${n}`,
    },
  });
  for (let i = 0; i < firstEvents; i += 1) {
    await prisma.deliveryEvent.create({
      data: { shop, deliveryId: row.id, kind: "received", message: "Fulfillment received." },
    });
  }
  return row;
}

describe("the webhook benchmark's audit", () => {
  it("counts nothing lost or doubled when each acknowledged fulfillment was recorded once", async () => {
    await delivery(1, 1);
    await delivery(2, 1);
    // Recorded, but its answer came after the load stopped listening: neither lost nor doubled.
    await delivery(3, 1);
    const audit = await auditIntake(prisma, shop, new Set([1, 2].map(fulfillment)));
    expect(audit).toEqual({
      lost: 0,
      duplicated: 0,
      deliveries: 3,
      firstEvents: 3,
      unacknowledged: 1,
    });
  });

  it("counts a fulfillment recorded twice, and one acknowledged but missing or half written, whatever the indexes", async () => {
    await delivery(1, 1);
    // Intake wrote the first event again for a redelivery: the unique index did not see it.
    await delivery(2, 2);
    // Acknowledged, the row is there but its first event is not.
    await delivery(3, 0);
    // A second row for order 4 under another fulfillment id (a misread id, say).
    await delivery(4, 1);
    const second = await delivery(5, 1);
    await prisma.delivery.update({
      where: { id: second.id },
      data: { orderId: "gid://shopify/Order/4" },
    });
    // 6 was acknowledged and never written.
    const audit = await auditIntake(prisma, shop, new Set([1, 2, 3, 4, 5, 6].map(fulfillment)));
    expect(audit).toMatchObject({ lost: 2, duplicated: 2 });
  });
});

function fulfillment(n: number) {
  return `gid://shopify/Fulfillment/${n}`;
}
