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
  /** Shopify's numeric order ids, as the compliance webhooks send them. */
  orderIds?: string[];
}

const orderGids = (orderIds: readonly string[] = []) =>
  orderIds.map((id) => (id.startsWith("gid://") ? id : `gid://shopify/Order/${id}`));

/**
 * customers/data_request: what the app holds on the customer — the deliveries of the named
 * orders, whose requests carry the shipping address and phone — counted for the merchant, and the
 * request remembered (Shopify ids only).
 */
export async function recordCustomerDataRequest(input: Omit<ComplianceInput, "topic">) {
  const deliveries = await prisma.delivery.count({
    where: { shop: input.shop, orderId: { in: orderGids(input.orderIds) } },
  });
  const held = { deliveries };
  await remember(
    { ...input, topic: "customers/data_request" },
    `records held: ${JSON.stringify(held)}`,
  );
  return held;
}

/**
 * customers/redact: the personal data in the deliveries of the given orders (the request sent to
 * the courier and the address match) is erased; the courier's ids and the states stay, so the
 * merchant's records of what was shipped remain.
 */
export async function redactCustomer(input: Omit<ComplianceInput, "topic">) {
  const where = { shop: input.shop, orderId: { in: orderGids(input.orderIds) } };
  const deliveries = await prisma.delivery.findMany({ where, select: { id: true } });
  await prisma.$transaction([
    prisma.delivery.updateMany({ where, data: { request: null, addressMatch: null } }),
    prisma.deliveryEvent.updateMany({
      where: { shop: input.shop, deliveryId: { in: deliveries.map((d) => d.id) } },
      data: { data: null },
    }),
  ]);
  const erased = { deliveries: deliveries.length };
  await remember(
    { ...input, topic: "customers/redact" },
    `records erased: ${JSON.stringify(erased)}`,
  );
  return erased;
}

/** shop/redact: every row of the shop, in every table, deleted in one transaction. */
export async function deleteShopData(shop: string): Promise<Record<string, number>> {
  const where = { where: { shop } };
  const results = await prisma.$transaction([
    prisma.deliveryEvent.deleteMany(where),
    prisma.delivery.deleteMany(where),
    prisma.processedWebhook.deleteMany(where),
    prisma.areaOverride.deleteMany(where),
    prisma.pickupLocation.deleteMany(where),
    prisma.courierMasterData.deleteMany(where),
    prisma.courierStatusMapping.deleteMany(where),
    prisma.complianceRequest.deleteMany(where),
    prisma.shopSettings.deleteMany(where),
    prisma.session.deleteMany(where),
  ]);
  const tables = [
    "DeliveryEvent",
    "Delivery",
    "ProcessedWebhook",
    "AreaOverride",
    "PickupLocation",
    "CourierMasterData",
    "CourierStatusMapping",
    "ComplianceRequest",
    "ShopSettings",
    "Session",
  ];
  return Object.fromEntries(tables.map((table, i) => [table, results[i]?.count ?? 0]));
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
