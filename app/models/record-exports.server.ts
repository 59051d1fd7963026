import prisma from "../db.server";

/**
 * What the deliveries export shows beyond the list's own columns (the list's rows come from
 * app/models/delivery-list.server.ts, the one module of its queries): the courier's last status,
 * the tracking link and the last change, for one page of ids of one shop.
 */
export interface DeliveryExportDetails {
  courierStatus: string | null;
  trackingUrl: string | null;
  updatedAt: Date;
}

const CHUNK = 500;

export async function deliveryExportDetails(
  shop: string,
  ids: readonly string[],
): Promise<Map<string, DeliveryExportDetails>> {
  const details = new Map<string, DeliveryExportDetails>();
  // In chunks: Prisma refuses more bound values than SQLite allows (999) in one query.
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await prisma.delivery.findMany({
      where: { shop, id: { in: ids.slice(i, i + CHUNK) } },
      select: { id: true, courierStatus: true, trackingUrl: true, updatedAt: true },
    });
    for (const { id, ...row } of rows) details.set(id, row);
  }
  return details;
}
