import prisma from "../../db.server";

/**
 * The latest delivery of each of these orders, for pages that list orders (customer answers):
 * one query, scoped by shop.
 */
export async function latestDeliveryOfOrders(
  shop: string,
  orderIds: string[],
): Promise<Map<string, { id: string; state: string }>> {
  if (orderIds.length === 0) return new Map();
  const rows = await prisma.delivery.findMany({
    where: { shop, orderId: { in: orderIds } },
    select: { id: true, orderId: true, state: true },
    orderBy: { createdAt: "asc" },
  });
  return new Map(rows.map((row) => [row.orderId, { id: row.id, state: row.state }]));
}
