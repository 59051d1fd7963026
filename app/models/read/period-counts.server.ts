import prisma from "../../db.server";
import { deliveryState, type DeliveryState } from "../../domain/states";

/**
 * The app's own count of deliveries created at the courier in a period of Kuwait days (from and
 * to included), by state: what the Courier reports page sets beside the courier's figures.
 */
export async function deliveriesAtCourierInPeriod(
  shop: string,
  from: string,
  to: string,
): Promise<{ total: number; byState: Partial<Record<DeliveryState, number>> }> {
  const start = new Date(`${from}T00:00:00+03:00`);
  const end = new Date(new Date(`${to}T00:00:00+03:00`).getTime() + 86_400_000);
  const rows = await prisma.delivery.groupBy({
    by: ["state"],
    where: { shop, courierOrderNumber: { not: null }, createdAt: { gte: start, lt: end } },
    _count: { _all: true },
  });
  const byState: Partial<Record<DeliveryState, number>> = {};
  let total = 0;
  for (const row of rows) {
    const state = deliveryState.safeParse(row.state);
    if (state.success) byState[state.data] = row._count._all;
    total += row._count._all;
  }
  return { total, byState };
}
