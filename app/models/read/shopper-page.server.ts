import prisma from "../../db.server";
import { eventDataColumn } from "../../domain/event-data";
import { Unreadable } from "../../domain/json-column";
import { parseState, type DeliveryState } from "../../domain/states";
import { requestColumn } from "../../domain/stored-request";
import { languageOf, type Language } from "../../i18n/languages";
import { parseEnvironment } from "../shop.server";
import { findAskByToken, findAskForOrder, type AskRow } from "../shopper-asks.server";

/**
 * What the shopper's public page reads (issue 26): the ask and the order's latest delivery, found
 * by either link the shopper may hold (the ask's, sent before fulfilment, or the delivery's on
 * the Shopify fulfillment), and the shop's name and contact. Two unique-index look-ups and the
 * delivery's timeline; never another order's rows.
 */
export interface PageDelivery {
  id: string;
  shop: string;
  orderId: string;
  orderName: string | null;
  state: DeliveryState;
  /** The public page's key for this delivery (the link on the Shopify fulfillment). */
  trackingToken: string | null;
  courierOrderNumber: string | null;
  cashToCollect: string | null;
  customerLanguage: Language | null;
  customerPhone: string | null;
  /** Where the courier was (or is to be) sent: its ids and parts, and the pickup day. */
  sent: {
    governanceId: number;
    areaId: number;
    block: string;
    street: string;
    avenue: string;
    house: string;
    building: string;
    floor: string;
    pickupDate: string;
  } | null;
  events: { at: Date; kind: string; data: ReturnType<typeof eventDataColumn.decodeNullable> }[];
}

const LINK = /^[0-9a-f]{32}$/;
/** A delivery's id, as links put on fulfillments before tracking tokens named it. */
const OLD_LINK = /^[A-Za-z0-9_-]{1,64}$/;

const DELIVERY_FIELDS = {
  id: true,
  shop: true,
  orderId: true,
  orderName: true,
  state: true,
  trackingToken: true,
  courierOrderNumber: true,
  cashToCollect: true,
  customerLanguage: true,
  customerPhone: true,
  request: true,
  events: { select: { at: true, kind: true, data: true }, orderBy: { at: "asc" } },
} as const;

type DeliveryFields = NonNullable<
  Awaited<ReturnType<typeof prisma.delivery.findFirst<{ select: typeof DELIVERY_FIELDS }>>>
>;

function pageDelivery(row: DeliveryFields): PageDelivery {
  const request = row.request === null ? null : requestColumn.decode(row.request);
  const body = request && !(request instanceof Unreadable) && !request.erased ? request.body : null;
  const to = body?.deliveryAddress;
  return {
    id: row.id,
    shop: row.shop,
    orderId: row.orderId,
    orderName: row.orderName,
    state: parseState(row.state),
    trackingToken: row.trackingToken,
    courierOrderNumber: row.courierOrderNumber,
    cashToCollect: row.cashToCollect,
    customerLanguage: languageOf(row.customerLanguage),
    customerPhone: row.customerPhone,
    sent:
      body && to
        ? {
            governanceId: to.governanceId,
            areaId: to.areaId,
            block: to.block,
            street: to.street,
            avenue: to.avenue ?? "",
            house: to.house ?? "",
            building: to.building,
            floor: to.floor ?? "",
            pickupDate: body.pickupDate,
          }
        : null,
    events: row.events.map((e) => ({ ...e, data: eventDataColumn.decodeNullable(e.data) })),
  };
}

/** The order's latest delivery that is not cancelled, else its latest. */
export async function latestDelivery(shop: string, orderId: string): Promise<PageDelivery | null> {
  const rows = await prisma.delivery.findMany({
    where: { shop, orderId },
    orderBy: { createdAt: "desc" },
    take: 5,
    select: DELIVERY_FIELDS,
  });
  const row = rows.find((r) => r.state !== "cancelled") ?? rows[0];
  return row ? pageDelivery(row) : null;
}

export interface ShopperPageRows {
  ask: AskRow | null;
  delivery: PageDelivery | null;
  /** The order's deliveries' states: nothing may change once one has been picked up. */
  shop: string;
}

/** The rows behind a link, or null when it names nothing (or an expired ask with no delivery). */
export async function shopperPageRows(
  token: string,
  now = new Date(),
): Promise<ShopperPageRows | null> {
  if (!LINK.test(token)) return OLD_LINK.test(token) ? oldLinkRows(token) : null;
  const ask = await findAskByToken(token);
  if (ask) {
    const delivery = await latestDelivery(ask.shop, ask.orderId);
    if (ask.linkExpiresAt <= now && !delivery) return null;
    return { ask, delivery, shop: ask.shop };
  }
  const row = await prisma.delivery.findUnique({
    where: { trackingToken: token },
    select: DELIVERY_FIELDS,
  });
  if (!row) return null;
  const delivery = pageDelivery(row);
  return {
    ask: await findAskForOrder(delivery.shop, delivery.orderId),
    delivery,
    shop: delivery.shop,
  };
}

/**
 * Links put on fulfillments before tracking tokens named the delivery's id. They keep working for
 * exactly those deliveries (their stored link says so); no new link is ever made that way.
 */
async function oldLinkRows(id: string): Promise<ShopperPageRows | null> {
  const row = await prisma.delivery.findFirst({
    where: { id, trackingUrl: { endsWith: `/tracking/${id}` } },
    select: DELIVERY_FIELDS,
  });
  if (!row) return null;
  const delivery = pageDelivery(row);
  // Read-only: a row id is not the 128 random bits a link that may change the address needs.
  return { ask: null, delivery, shop: delivery.shop };
}

/** States of all the order's deliveries (a split order may have several). */
export async function orderDeliveryStates(shop: string, orderId: string): Promise<DeliveryState[]> {
  const rows = await prisma.delivery.findMany({
    where: { shop, orderId },
    select: { state: true },
  });
  return rows.map((r) => parseState(r.state));
}

/** The shop's name and how shoppers reach it, as the page shows them. */
export async function shopForShopperPage(shop: string) {
  const row = await prisma.shopSettings.findUnique({
    where: { shop },
    select: {
      trackingShopName: true,
      shopifyShopName: true,
      trackingContactPhone: true,
      trackingContactEmail: true,
      courierEnvironment: true,
    },
  });
  return {
    name: row?.trackingShopName || row?.shopifyShopName || null,
    phone: row?.trackingContactPhone ?? null,
    email: row?.trackingContactEmail ?? null,
    courierEnvironment: parseEnvironment(row?.courierEnvironment ?? "sandbox"),
  };
}
