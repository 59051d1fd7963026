import prisma from "../db.server";
import { eventDataColumn } from "../domain/event-data";
import { parseState } from "../domain/states";
import { languageOf } from "../i18n/languages";

/**
 * What the public tracking page may show of a delivery: its courier number, state and timeline,
 * never the customer. Found by the link's token (ADR 0012); the page is public, so the token is
 * the only key, and it is 128 random bits.
 */
const PUBLIC_FIELDS = {
  // The shop (never shown) finds the name and contact the merchant chose for the page.
  shop: true,
  state: true,
  courierOrderNumber: true,
  // The page opens in the language the customer shopped in.
  customerLanguage: true,
  events: {
    select: { at: true, message: true, kind: true, data: true },
    orderBy: { at: "asc" },
  },
} as const;

const LINK_KEY = /^[A-Za-z0-9_-]{1,64}$/;

export async function findDeliveryForTrackingPage(key: string) {
  if (!LINK_KEY.test(key)) return null;
  const row =
    (await prisma.delivery.findUnique({ where: { trackingToken: key }, select: PUBLIC_FIELDS })) ??
    // Links put on fulfillments before tracking tokens named the row id. They keep working for
    // exactly those deliveries (their stored link says so); no new link is ever made that way.
    (await prisma.delivery.findFirst({
      where: { id: key, trackingUrl: { endsWith: `/tracking/${key}` } },
      select: PUBLIC_FIELDS,
    }));
  return (
    row && {
      ...row,
      state: parseState(row.state),
      customerLanguage: languageOf(row.customerLanguage),
      events: row.events.map((e) => ({ ...e, data: eventDataColumn.decodeNullable(e.data) })),
    }
  );
}

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
