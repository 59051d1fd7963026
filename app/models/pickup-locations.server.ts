import type { PickupLocation } from "@prisma/client";
import prisma from "../db.server";

export type PickupLocationInput = Omit<PickupLocation, "id" | "shop" | "confirmedAt" | "updatedAt">;

export async function listPickupLocations(shop: string): Promise<PickupLocation[]> {
  return prisma.pickupLocation.findMany({ where: { shop }, orderBy: { name: "asc" } });
}

export async function getPickupLocation(
  shop: string,
  locationId: string,
): Promise<PickupLocation | null> {
  return prisma.pickupLocation.findUnique({ where: { shop_locationId: { shop, locationId } } });
}

/** The merchant confirmed this mapping: from now on deliveries from the location may be sent. */
export async function confirmPickupLocation(
  shop: string,
  input: PickupLocationInput,
  at = new Date(),
): Promise<PickupLocation> {
  const data = { ...input, confirmedAt: at };
  return prisma.pickupLocation.upsert({
    where: { shop_locationId: { shop, locationId: input.locationId } },
    create: { shop, ...data },
    update: data,
  });
}
