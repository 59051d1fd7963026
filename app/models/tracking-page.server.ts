import prisma from "../db.server";

/** The shop's name and contact as the tracking page shows them (Settings). */
export interface TrackingPageContact {
  shopName: string | null;
  phone: string | null;
  email: string | null;
}

export async function readTrackingPageContact(shop: string): Promise<TrackingPageContact> {
  const row = await prisma.shopSettings.findUnique({
    where: { shop },
    select: { trackingShopName: true, trackingContactPhone: true, trackingContactEmail: true },
  });
  return {
    shopName: row?.trackingShopName ?? null,
    phone: row?.trackingContactPhone ?? null,
    email: row?.trackingContactEmail ?? null,
  };
}

export async function saveTrackingPageContact(shop: string, contact: TrackingPageContact) {
  await prisma.shopSettings.update({
    where: { shop },
    data: {
      trackingShopName: contact.shopName,
      trackingContactPhone: contact.phone,
      trackingContactEmail: contact.email,
    },
  });
}
