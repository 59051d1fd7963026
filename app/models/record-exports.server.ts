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

export async function deliveryExportDetails(
  shop: string,
  ids: readonly string[],
): Promise<Map<string, DeliveryExportDetails>> {
  const rows = await prisma.delivery.findMany({
    where: { shop, id: { in: [...ids] } },
    select: { id: true, courierStatus: true, trackingUrl: true, updatedAt: true },
  });
  return new Map(rows.map(({ id, ...details }) => [id, details]));
}
