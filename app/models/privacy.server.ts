import prisma from "../db.server";

/**
 * The GDPR side of the data model. Every table that holds a shop's rows is listed in
 * {@link deleteShopData}; a test walks the Prisma schema and fails when a table with a `shop`
 * column is not emptied by it.
 */

export type ComplianceTopic = "customers/data_request" | "customers/redact" | "shop/redact";

interface ComplianceInput {
  shop: string;
  webhookId: string;
  topic: ComplianceTopic;
  customerId?: string;
  orderIds?: string[];
}

/**
 * customers/data_request: what the app holds on the customer, summarised for the merchant, and
 * the request remembered (Shopify ids only). No table holds customer data yet; tables that do
 * (deliveries, with shipping addresses) add their rows to this summary.
 */
export async function recordCustomerDataRequest(input: Omit<ComplianceInput, "topic">) {
  const held = { deliveries: 0 };
  await remember(
    { ...input, topic: "customers/data_request" },
    `records held: ${JSON.stringify(held)}`,
  );
  return held;
}

/**
 * customers/redact: the customer's personal data in the given orders is erased. Until deliveries
 * exist the app keeps no personal data, so only the request is remembered.
 */
export async function redactCustomer(input: Omit<ComplianceInput, "topic">) {
  const erased = { deliveries: 0 };
  await remember(
    { ...input, topic: "customers/redact" },
    `records erased: ${JSON.stringify(erased)}`,
  );
  return erased;
}

/** shop/redact: every row of the shop, in every table, deleted in one transaction. */
export async function deleteShopData(shop: string): Promise<Record<string, number>> {
  const [sessions, settings, complianceRequests, masterData] = await prisma.$transaction([
    prisma.session.deleteMany({ where: { shop } }),
    prisma.shopSettings.deleteMany({ where: { shop } }),
    prisma.complianceRequest.deleteMany({ where: { shop } }),
    prisma.courierMasterData.deleteMany({ where: { shop } }),
  ]);
  return {
    Session: sessions.count,
    ShopSettings: settings.count,
    ComplianceRequest: complianceRequests.count,
    CourierMasterData: masterData.count,
  };
}

async function remember(input: ComplianceInput, outcome: string) {
  // Shopify may deliver the same webhook more than once: the (shop, webhookId) pair is unique.
  await prisma.complianceRequest.upsert({
    where: { shop_webhookId: { shop: input.shop, webhookId: input.webhookId } },
    create: {
      shop: input.shop,
      webhookId: input.webhookId,
      topic: input.topic,
      customerId: input.customerId,
      orderIds: JSON.stringify(input.orderIds ?? []),
      completedAt: new Date(),
      outcome,
    },
    update: {},
  });
}
