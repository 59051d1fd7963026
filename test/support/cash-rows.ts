import { randomBytes } from "node:crypto";
import type { PrismaClient } from "@prisma/client";

/**
 * One row of each table the cash ledger, exceptions, Flow, the shopper's asks and WhatsApp
 * messages add, for shop-wide deletion tests.
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
  await prisma.whatsAppAccount.create({
    data: {
      shop,
      phoneNumberId: "1",
      accessTokenSealed: "",
      appSecretSealed: "",
      webhookToken: randomBytes(16).toString("base64url"),
      verifyToken: randomBytes(16).toString("base64url"),
    },
  });
  await prisma.shopperMessage.create({
    data: {
      shop,
      orderId: "gid://shopify/Order/1",
      purpose: "address_check",
      dedupeKey: "ask:seed:1:address_check",
      language: "ar",
      state: "queued",
      notBefore: new Date(),
    },
  });
  await prisma.whatsAppOptOut.create({
    data: { shop, phoneDigest: randomBytes(16).toString("base64url"), source: "stop_reply" },
  });
}
