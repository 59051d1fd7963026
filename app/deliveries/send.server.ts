import { Prisma } from "@prisma/client";
import { matchAddress, resolveCourierIds } from "../addresses";
import { isCourierError } from "../courier";
import prisma from "../db.server";
import { listAreaOverrides } from "../models/area-overrides.server";
import { loadCourierApiKey } from "../models/courier-account.server";
import { getPickupLocation } from "../models/pickup-locations.server";
import { getShopSettings, type CourierEnvironment } from "../models/shop.server";
import { courierClientFor } from "../services/courier-connection.server";
import { loadCourierDirectory } from "../services/courier-directory.server";
import type { AdminGraphql } from "../shopify/graphql";
import { fetchOrdersByIds, fulfillFulfillmentOrder, type SendableOrder } from "../shopify/orders";
import { BULK_LIMIT } from "./limits";
import { DEFAULT_WEIGHT_KG } from "./request";
import { kickDeliveryWorker } from "./runner.server";

/**
 * "Send to courier" from the app, for one order or a selection: the app fulfils the order in
 * Shopify and the delivery follows the same path as one from a webhook. The intent row is written
 * before the fulfillment exists, so the fulfillments/create webhook that follows finds it
 * instead of recording a second delivery.
 */
export { BULK_LIMIT };

export type SendOutcome =
  | { orderId: string; orderName: string | null; ok: true; deliveryId: string }
  | {
      orderId: string;
      orderName: string | null;
      ok: false;
      error: string;
    };

export async function sendOrdersToCourier(
  shop: string,
  admin: AdminGraphql,
  orderIds: readonly string[],
  source: "manual" | "bulk" = "manual",
): Promise<SendOutcome[]> {
  if (orderIds.length === 0) return [];
  if (orderIds.length > BULK_LIMIT) {
    return orderIds.map((orderId) => ({
      orderId,
      orderName: null,
      ok: false as const,
      error: `Select at most ${BULK_LIMIT} orders at a time.`,
    }));
  }
  const settings = await getShopSettings(shop);
  const orders = await fetchOrdersByIds(admin, orderIds);
  const outcomes: SendOutcome[] = [];
  for (const orderId of orderIds) {
    const order = orders.find((o) => o.id === orderId);
    outcomes.push(
      !settings?.courierApiKeySealed
        ? {
            orderId,
            orderName: order?.name ?? null,
            ok: false,
            error: "Connect the courier in Settings first.",
          }
        : !order
          ? {
              orderId,
              orderName: null,
              ok: false,
              error: "The order is not open and unfulfilled any more.",
            }
          : await sendOne(shop, admin, order, settings.courierEnvironment, source),
    );
  }
  kickDeliveryWorker();
  return outcomes;
}

async function sendOne(
  shop: string,
  admin: AdminGraphql,
  order: SendableOrder,
  environment: string,
  source: "manual" | "bulk",
): Promise<SendOutcome> {
  const fail = (error: string): SendOutcome => ({
    orderId: order.id,
    orderName: order.name,
    ok: false,
    error,
  });
  if (order.shippingAddress?.countryCodeV2 !== "KW")
    return fail("The order does not ship to Kuwait.");
  const open = order.fulfillmentOrders.nodes.filter(
    (fo) => fo.status === "OPEN" && fo.assignedLocation.location,
  );
  let chosen: { id: string; locationId: string } | null = null;
  for (const fo of open) {
    const locationId = fo.assignedLocation.location!.id;
    if (await getPickupLocation(shop, locationId)) {
      chosen = { id: fo.id, locationId };
      break;
    }
  }
  if (!chosen) {
    return fail(
      open.length === 0
        ? "The order has nothing left to fulfil."
        : "The location it ships from has no confirmed pickup address (Pickup locations).",
    );
  }

  let deliveryId: string;
  try {
    const intent = await prisma.delivery.create({
      data: {
        shop,
        orderId: order.id,
        orderName: order.name,
        fulfillmentId: null,
        locationId: chosen.locationId,
        source,
        state: "pending",
        environment,
        reference: `SHPFY-${shop.replace(/\.myshopify\.com$/, "")}-FO${chosen.id.split("/").pop()}`,
        events: {
          create: {
            shop,
            kind: "received",
            message: `Sent to the courier from the app (${source}).`,
          },
        },
      },
    });
    deliveryId = intent.id;
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      return fail("This order is already being sent.");
    }
    throw error;
  }

  let fulfillmentId: string;
  try {
    fulfillmentId = await fulfillFulfillmentOrder(admin, chosen.id);
  } catch (error) {
    const message = error instanceof Error ? error.message : "Shopify did not fulfil the order.";
    await prisma.$transaction([
      prisma.delivery.update({
        where: { id: deliveryId },
        data: { state: "skipped", stateReason: message },
      }),
      prisma.deliveryEvent.create({ data: { shop, deliveryId, kind: "skipped", message } }),
    ]);
    return fail(message);
  }
  // The webhook may have attached the fulfillment already; either way the row now has it.
  await prisma.delivery.updateMany({
    where: { id: deliveryId, fulfillmentId: null },
    data: { fulfillmentId, nextAttemptAt: new Date() },
  });
  return { orderId: order.id, orderName: order.name, ok: true, deliveryId };
}

/**
 * The fulfillments/create webhook of a fulfillment the app made itself: it belongs to the intent
 * row written before the fulfillment existed. True when such a row took it.
 */
export async function attachToSentIntent(
  shop: string,
  orderId: string,
  fulfillmentId: string,
): Promise<boolean> {
  const { count } = await prisma.delivery.updateMany({
    where: {
      shop,
      orderId,
      source: { in: ["manual", "bulk"] },
      fulfillmentId: null,
      state: "pending",
    },
    data: { fulfillmentId, nextAttemptAt: new Date() },
  });
  return count > 0;
}

export type QuoteOutcome =
  | { ok: true; price: number | null; currency: string | null; area: string }
  | { ok: false; error: string };

/** The courier's price for an order before sending it by hand. */
export async function quoteOrder(
  shop: string,
  admin: AdminGraphql,
  orderId: string,
): Promise<QuoteOutcome> {
  const [settings, orders, stored] = await Promise.all([
    getShopSettings(shop),
    fetchOrdersByIds(admin, [orderId]),
    loadCourierApiKey(shop),
  ]);
  const order = orders.find((o) => o.id === orderId);
  if (stored.status === "unreadable") return { ok: false, error: stored.error };
  if (!settings || stored.status === "none")
    return { ok: false, error: "Connect the courier in Settings first." };
  if (!order?.shippingAddress) return { ok: false, error: "The order has no shipping address." };
  const environment = settings.courierEnvironment as CourierEnvironment;
  const locationId = order.fulfillmentOrders.nodes.find((fo) => fo.status === "OPEN")
    ?.assignedLocation.location?.id;
  const [pickup, directory, overrides] = await Promise.all([
    locationId ? getPickupLocation(shop, locationId) : null,
    loadCourierDirectory(shop, environment),
    listAreaOverrides(shop),
  ]);
  if (!pickup || !directory)
    return { ok: false, error: "Confirm the pickup address of the order's location first." };
  const match = matchAddress(
    { ...order.shippingAddress, countryCode: order.shippingAddress.countryCodeV2 },
    { overrides },
  );
  const resolution = match.area ? resolveCourierIds(match.area, directory.index) : null;
  if (!match.confident || resolution?.status !== "resolved") {
    return {
      ok: false,
      error:
        "The shipping address cannot be placed with confidence; send it and fix it in Address review.",
    };
  }
  const client = courierClientFor(environment, stored.apiKey);
  if (!client) return { ok: false, error: "This courier environment is not configured." };
  try {
    const quote = await client.calculatePrice({
      pickupAddress: { governanceId: pickup.governanceId, areaId: pickup.areaId },
      deliveryAddress: { governanceId: resolution.governanceId, areaId: resolution.areaId },
      packageDetails: {
        weight: DEFAULT_WEIGHT_KG,
        value: Number(order.totalPriceSet.shopMoney.amount),
      },
    });
    return { ok: true, price: quote.price, currency: quote.currency, area: match.area!.nameEn };
  } catch (error) {
    if (!isCourierError(error)) throw error;
    return { ok: false, error: error.message };
  }
}
