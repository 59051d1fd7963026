import { randomBytes } from "node:crypto";
import type { PrismaClient } from "@prisma/client";

/**
 * One row of each table the cash ledger, exceptions, Flow and the shopper's asks add, for
 * shop-wide deletion tests.
 */
export async function seedCashRows(prisma: PrismaClient, shop: string): Promise<void> {
  await prisma.settlement.create({
    data: {
      shop,
      source: "manual",
      receivedOn: "2026-11-24",
      lineCount: 1,
      statementFils: 10_000n,
      expectedFils: 10_000n,
      differences: 0,
      lines: { create: { shop, courierOrderNumber: "CO-1", amountFils: 10_000 } },
    },
  });
  const settlement = await prisma.settlement.findFirstOrThrow({ where: { shop } });
  await prisma.settlementGap.create({
    data: {
      shop,
      settlementId: settlement.id,
      deliveryId: "d",
      courierOrderNumber: "CO-2",
      expectedFils: 1,
    },
  });
  await prisma.courierException.create({
    data: { shop, environment: "sandbox", key: "e1", raw: "{}" },
  });
  await prisma.flowEvent.create({ data: { shop, trigger: "delivery-delivered", payload: "{}" } });
  await prisma.shopperAsk.create({
    data: {
      shop,
      orderId: "gid://shopify/Order/1",
      token: randomBytes(16).toString("hex"),
      state: "asked",
      linkExpiresAt: new Date(Date.now() + 86_400_000),
    },
  });
}
