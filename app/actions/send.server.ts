import { Prisma } from "@prisma/client";
import prisma from "../db.server";
import { addDeliveryEvent, findByReference, type DeliveryRow } from "../models/deliveries.server";
import { recordSendIntent, skipIntent } from "../models/delivery-state";
import { getShopSettings } from "../models/shop.server";
import type { AdminGraphql } from "../shopify/graphql";
import { fetchOrdersByIds, fulfillFulfillmentOrder, type SendableOrder } from "../shopify/orders";
import {
  readFulfillmentOrderOutcome,
  whenShopifyAllows,
  type FulfillmentOrderOutcome,
} from "../shopify/sending";
import { SEND_BATCH } from "../domain/limits";
import { currencyCodesProblem } from "../domain/request";
import { notice, type Notice } from "../domain/notices";
import { type DeliveryState } from "../domain/states";
import { kickDeliveryWorker } from "../pipeline/drain-loop.server";
import { chooseFulfillmentOrder, type ChosenFulfillmentOrder } from "./sendable-orders.server";

/**
 * "Send to courier" from the app, for one order or a selection: the app fulfils the order in
 * Shopify and the delivery follows the same path as one from a webhook (the worker sends the
 * ready deliveries of a shop in create-bulk batches). The intent row is written before the
 * fulfillment exists, so the fulfillments/create webhook that follows finds it instead of
 * recording a second delivery. The page sends a selection SEND_BATCH orders per request and then
 * follows each delivery with `readSendStatuses` (send-status.server.ts) until it has settled.
 */

export type SendOutcome =
  | { orderId: string; orderName: string | null; ok: true; deliveryId: string }
  | {
      orderId: string;
      orderName: string | null;
      ok: false;
      error: Notice;
      /** The intent that was written and then given up, when there was one. */
      deliveryId: string | null;
    };

/**
 * How long an intent may wait for Shopify's answer to fulfillmentCreate. Written longer ago, still
 * without a fulfillment, and with the fulfillment order still open, it was orphaned (the app
 * stopped mid-send) and the order may be sent again. Counted from its creation: the worker's
 * retries, looking for the fulfillment, touch the row all along.
 */
export const INTENT_GRACE_MS = 2 * 60_000;

/** Orders of one request fulfilled at the same time (each is a 10-point Shopify mutation). */
const SEND_CONCURRENCY = 4;

export async function sendOrdersToCourier(
  shop: string,
  admin: AdminGraphql,
  orderIds: readonly string[],
  source: "manual" | "bulk" = "manual",
): Promise<SendOutcome[]> {
  const ids = [...new Set(orderIds)];
  const refuseAll = (error: Notice): SendOutcome[] =>
    ids.map((orderId) => ({ orderId, orderName: null, ok: false, error, deliveryId: null }));
  if (ids.length === 0) return [];
  if (ids.length > SEND_BATCH)
    return refuseAll(notice("send_batch_too_large", { count: SEND_BATCH }));
  const settings = await getShopSettings(shop);
  if (!settings?.courierApiKeySealed) return refuseAll(notice("connect_courier_first"));
  let orders: SendableOrder[];
  try {
    orders = await whenShopifyAllows(() => fetchOrdersByIds(admin, ids));
  } catch (error) {
    console.warn(`Shopify did not give the orders: ${messageOf(error)}`);
    return refuseAll(notice("shopify_orders_unavailable"));
  }
  const outcomes = await inParallel(ids, SEND_CONCURRENCY, async (orderId) => {
    const order = orders.find((o) => o.id === orderId);
    if (!order) {
      return {
        orderId,
        orderName: null,
        ok: false as const,
        error: notice("order_not_open"),
        deliveryId: null,
      };
    }
    return sendOne(shop, admin, order, settings.courierEnvironment, source);
  });
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
  const fail = (error: Notice, deliveryId: string | null = null): SendOutcome => ({
    orderId: order.id,
    orderName: order.name,
    ok: false,
    error,
    deliveryId,
  });
  const sent = (deliveryId: string): SendOutcome => ({
    orderId: order.id,
    orderName: order.name,
    ok: true,
    deliveryId,
  });
  if (order.shippingAddress?.countryCodeV2 !== "KW") return fail(notice("not_kuwait"));
  // The worker would park it in needs_attention for this, after the order is fulfilled in Shopify.
  const currency = currencyCodesProblem(order.currencyCode, order.presentmentCurrencyCode);
  if (currency) return fail(notice("not_kwd", { currency: order.presentmentCurrencyCode }));
  const chosen = await chooseFulfillmentOrder(shop, order);
  if (!chosen.ok) return fail(chosen.error);

  const intent = await writeIntent(shop, order, chosen, environment, source);
  if (!intent.ok) return fail(intent.error);
  const deliveryId = intent.deliveryId;

  let fulfillmentId: string;
  try {
    fulfillmentId = await whenShopifyAllows(() =>
      fulfillFulfillmentOrder(admin, chosen.fulfillmentOrderId),
    );
  } catch (error) {
    // Refused, or the answer was lost: the fulfillment order says which.
    const message = messageOf(error);
    let outcome: FulfillmentOrderOutcome | null = null;
    try {
      outcome = await whenShopifyAllows(() =>
        readFulfillmentOrderOutcome(admin, chosen.fulfillmentOrderId),
      );
    } catch {
      // Shopify does not answer this either; the intent waits for the webhook (below).
    }
    if (outcome?.kind === "fulfilled") {
      await attachFulfillment(shop, deliveryId, outcome.fulfillmentId);
      await addDeliveryEvent(
        shop,
        deliveryId,
        "received",
        `Shopify's answer was lost (${message}), but it had fulfilled the order; the delivery goes on.`,
      );
      return sent(deliveryId);
    }
    if (outcome) {
      // Nothing was fulfilled: the intent is given up, so the order can be sent again.
      await skipIntent(shop, deliveryId, message);
      // Shopify's own words, quoted as data (ADR 0045).
      return fail(notice("shopify_said", { detail: message.slice(0, 300) }), deliveryId);
    }
    // Kept, not given up: if Shopify did fulfil the order, its fulfillments/create webhook
    // attaches here (whether or not automatic sending is on) and the delivery goes on.
    await addDeliveryEvent(
      shop,
      deliveryId,
      "waiting",
      `Shopify did not answer (${message}). If it fulfilled the order, the delivery goes on when Shopify reports the fulfillment; if not, the order can be sent again in ${INTENT_GRACE_MS / 60_000} minutes.`,
    );
    return sent(deliveryId);
  }
  await attachFulfillment(shop, deliveryId, fulfillmentId);
  return sent(deliveryId);
}

/** Earlier intents for a fulfillment order that leave it free to be sent again. */
const GIVEN_UP: readonly DeliveryState[] = ["skipped", "cancelled"];

/**
 * Writes the intent for a fulfillment order, unless one is alive. Each new intent gets its own
 * reference (the courier finds a delivery by it), so a given-up one never stands in the way: the
 * first is `SHPFY-<shop>-FO<id>`, later ones `…-r2`, `…-r3`.
 */
async function writeIntent(
  shop: string,
  order: SendableOrder,
  chosen: ChosenFulfillmentOrder,
  environment: string,
  source: "manual" | "bulk",
  now = new Date(),
): Promise<{ ok: true; deliveryId: string } | { ok: false; error: Notice }> {
  const base = intentReference(shop, chosen.fulfillmentOrderId);
  const earlier = await findByReference(shop, base);
  for (const row of earlier) {
    if (GIVEN_UP.includes(row.state)) continue;
    // The fulfillment order was just read as open, so an old intent without a fulfillment was
    // never fulfilled: the app stopped between writing it and hearing from Shopify.
    const graceEnded = new Date(now.getTime() - INTENT_GRACE_MS);
    if (
      isWaitingForShopify(row) &&
      row.createdAt < graceEnded &&
      (await skipIntent(
        shop,
        row.id,
        "The app stopped before Shopify answered, and Shopify had not fulfilled the order.",
        graceEnded,
      ))
    ) {
      continue;
    }
    return {
      ok: false,
      error: isWaitingForShopify(row)
        ? notice("already_being_sent")
        : notice("already_sent", { state: row.state }),
    };
  }
  try {
    const intent = await recordSendIntent({
      shop,
      orderId: order.id,
      orderName: order.name,
      locationId: chosen.locationId,
      source,
      environment,
      reference: earlier.length === 0 ? base : `${base}-r${earlier.length + 1}`,
    });
    return { ok: true, deliveryId: intent.id };
  } catch (error) {
    // Another request wrote the same intent a moment ago.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      return { ok: false, error: notice("already_being_sent") };
    }
    throw error;
  }
}

export function intentReference(shop: string, fulfillmentOrderId: string): string {
  const shopName = shop.replace(/\.myshopify\.com$/, "");
  return `SHPFY-${shopName}-FO${fulfillmentOrderId.split("/").pop()}`;
}

function isWaitingForShopify(row: Pick<DeliveryRow, "state" | "fulfillmentId">): boolean {
  return row.state === "pending" && row.fulfillmentId === null;
}

/** The intent gets its fulfillment (unless the webhook brought it first) and becomes due. */
async function attachFulfillment(shop: string, deliveryId: string, fulfillmentId: string) {
  await prisma.delivery.updateMany({
    where: { id: deliveryId, shop, fulfillmentId: null, state: "pending" },
    data: { fulfillmentId, nextAttemptAt: new Date() },
  });
}

// --- Helpers -----------------------------------------------------------------------------------

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : "Shopify did not fulfil the order.";
}

/** Maps `items` with at most `limit` calls under way, keeping their order. */
async function inParallel<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
