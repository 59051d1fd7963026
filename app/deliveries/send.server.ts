import { Prisma } from "@prisma/client";
import { matchAddress, resolveCourierIds } from "../addresses";
import { isCourierError } from "../courier";
import prisma from "../db.server";
import { listAreaOverrides } from "../models/area-overrides.server";
import { loadCourierApiKey } from "../models/courier-account.server";
import {
  addDeliveryEvent,
  findBalanceCollector,
  findByReference,
  findDeliveryProgress,
  type DeliveryRow,
} from "../models/deliveries.server";
import { recordSendIntent, skipIntent } from "../models/delivery-state.server";
import { getPickupLocation } from "../models/pickup-locations.server";
import { getShopSettings, type CourierEnvironment } from "../models/shop.server";
import { courierClientFor } from "../services/courier-connection.server";
import { loadCourierDirectory } from "../services/courier-directory.server";
import type { AdminGraphql } from "../shopify/graphql";
import { fetchOrdersByIds, fulfillFulfillmentOrder, type SendableOrder } from "../shopify/orders";
import {
  fetchFulfillmentOrderParcel,
  fetchSendableOrderPage,
  readFulfillmentOrderOutcome,
  whenShopifyAllows,
  type FulfillmentOrderOutcome,
} from "../shopify/sending";
import { BULK_LIMIT, SEND_BATCH } from "./domain/limits";
import { currencyCodesProblem, packageWeightKg, parcelCharge } from "./domain/request";
import { kickDeliveryWorker } from "./drain-loop.server";
import { STATE_LABELS, type DeliveryState } from "./domain/states";

/**
 * "Send to courier" from the app, for one order or a selection: the app fulfils the order in
 * Shopify and the delivery follows the same path as one from a webhook (the worker sends the
 * ready deliveries of a shop in create-bulk batches). The intent row is written before the
 * fulfillment exists, so the fulfillments/create webhook that follows finds it instead of
 * recording a second delivery. The page sends a selection SEND_BATCH orders per request and then
 * follows each delivery with {@link readSendStatuses} until it has settled.
 */
export { BULK_LIMIT, SEND_BATCH };

export type SendOutcome =
  | { orderId: string; orderName: string | null; ok: true; deliveryId: string }
  | {
      orderId: string;
      orderName: string | null;
      ok: false;
      error: string;
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

/** An order on the Send page. */
export interface SendableOrderListRow {
  id: string;
  name: string;
  createdAt: string;
  city: string | null;
  country: string | null;
  total: string;
  financialStatus: string | null;
}

/** A page of the orders that can be sent, newest first; `after` is the previous page's cursor. */
export async function listSendableOrders(
  admin: AdminGraphql,
  after: string | null,
): Promise<{ orders: SendableOrderListRow[]; nextCursor: string | null }> {
  const page = await fetchSendableOrderPage(admin, after);
  return {
    orders: page.orders.map((o) => ({
      id: o.id,
      name: o.name,
      createdAt: o.createdAt,
      city: o.shippingAddress?.city ?? null,
      country: o.shippingAddress?.countryCodeV2 ?? null,
      total: `${o.totalPriceSet.shopMoney.amount} ${o.totalPriceSet.shopMoney.currencyCode}`,
      financialStatus: o.displayFinancialStatus,
    })),
    nextCursor: page.nextCursor,
  };
}

/** Orders of one request fulfilled at the same time (each is a 10-point Shopify mutation). */
const SEND_CONCURRENCY = 4;

export async function sendOrdersToCourier(
  shop: string,
  admin: AdminGraphql,
  orderIds: readonly string[],
  source: "manual" | "bulk" = "manual",
): Promise<SendOutcome[]> {
  const ids = [...new Set(orderIds)];
  const refuseAll = (error: string): SendOutcome[] =>
    ids.map((orderId) => ({ orderId, orderName: null, ok: false, error, deliveryId: null }));
  if (ids.length === 0) return [];
  if (ids.length > SEND_BATCH) return refuseAll(`Send at most ${SEND_BATCH} orders per request.`);
  const settings = await getShopSettings(shop);
  if (!settings?.courierApiKeySealed) return refuseAll("Connect the courier in Settings first.");
  let orders: SendableOrder[];
  try {
    orders = await whenShopifyAllows(() => fetchOrdersByIds(admin, ids));
  } catch (error) {
    return refuseAll(`Shopify did not give the orders: ${messageOf(error)}`);
  }
  const outcomes = await inParallel(ids, SEND_CONCURRENCY, async (orderId) => {
    const order = orders.find((o) => o.id === orderId);
    if (!order) {
      return {
        orderId,
        orderName: null,
        ok: false as const,
        error: "The order is not open and unfulfilled any more.",
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
  const fail = (error: string, deliveryId: string | null = null): SendOutcome => ({
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
  if (order.shippingAddress?.countryCodeV2 !== "KW")
    return fail("The order does not ship to Kuwait.");
  // The worker would park it in needs_attention for this, after the order is fulfilled in Shopify.
  const currency = currencyCodesProblem(order.currencyCode, order.presentmentCurrencyCode);
  if (currency) return fail(currency);
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
      return fail(message, deliveryId);
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

type ChosenFulfillmentOrder = {
  ok: true;
  fulfillmentOrderId: string;
  locationId: string;
  pickup: NonNullable<Awaited<ReturnType<typeof getPickupLocation>>>;
};

/**
 * The fulfillment order "Send to courier" fulfils: the first open one at a location with a
 * confirmed pickup address. The price quote uses the same, so it is for the delivery that would
 * be created.
 */
async function chooseFulfillmentOrder(
  shop: string,
  order: SendableOrder,
): Promise<ChosenFulfillmentOrder | { ok: false; error: string }> {
  const open = order.fulfillmentOrders.nodes.flatMap((fo) =>
    fo.status === "OPEN" && fo.assignedLocation.location
      ? [{ id: fo.id, locationId: fo.assignedLocation.location.id }]
      : [],
  );
  for (const fo of open) {
    const pickup = await getPickupLocation(shop, fo.locationId);
    if (pickup) return { ok: true, fulfillmentOrderId: fo.id, locationId: fo.locationId, pickup };
  }
  return {
    ok: false,
    error:
      open.length === 0
        ? "The order has nothing left to fulfil."
        : "The location it ships from has no confirmed pickup address (Pickup locations).",
  };
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
): Promise<{ ok: true; deliveryId: string } | { ok: false; error: string }> {
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
        ? "This order is already being sent."
        : `This order was already sent to the courier (${STATE_LABELS[row.state]}).`,
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
      return { ok: false, error: "This order is already being sent." };
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

// --- Following a send --------------------------------------------------------------------------

/** Where a sent order stands, in the merchant's words, for the Send page's rows. */
export type SendProgress =
  | "created"
  | "rejected"
  | "needs_address"
  | "needs_review"
  | "needs_attention"
  | "not_sent"
  | "cancelled"
  | "in_progress";

export interface SendStatus {
  deliveryId: string;
  orderId: string;
  /** Nothing more will happen without the courier's progress or the merchant. */
  settled: boolean;
  progress: SendProgress;
  message: string;
}

const AT_COURIER: readonly DeliveryState[] = [
  "created",
  "picked_up",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "failed",
  "returned",
];

export function sendStatusOf(
  row: Pick<
    DeliveryRow,
    "id" | "orderId" | "state" | "stateReason" | "fulfillmentId" | "courierOrderNumber"
  >,
): SendStatus {
  const state = row.state;
  const status = (progress: SendProgress, message: string, settled = true): SendStatus => ({
    deliveryId: row.id,
    orderId: row.orderId,
    settled,
    progress,
    message,
  });
  const reason = row.stateReason ?? "no reason given";
  if (AT_COURIER.includes(state)) {
    const label = state === "created" ? "" : ` (${STATE_LABELS[state]})`;
    return status("created", `Created at the courier as ${row.courierOrderNumber ?? "?"}${label}`);
  }
  switch (state) {
    case "rejected":
      return status("rejected", `Rejected by the courier: ${reason}`);
    case "needs_address":
      return status("needs_address", `Address needs review: ${reason}`);
    case "needs_review":
      return status("needs_review", `Needs your decision: ${reason}`);
    case "needs_attention":
      // Stopped until the merchant acts (Shopify failing for too long, a fulfillment that never
      // came): nothing more happens on its own, so the page stops following it.
      return status("needs_attention", `Needs your attention: ${reason}`);
    case "skipped":
      return status("not_sent", `Not sent: ${reason}`);
    case "cancelled":
      return status("cancelled", `Cancelled: ${reason}`);
    case "pending":
      return row.fulfillmentId === null
        ? status("in_progress", "Waiting for Shopify to confirm the fulfillment", false)
        : status("in_progress", "Preparing the courier request", false);
    case "ready":
      return status("in_progress", "Waiting to go to the courier", false);
    case "creating":
      return status("in_progress", "Sending to the courier", false);
    case "unknown":
      return status("in_progress", "Checking with the courier whether it arrived", false);
    default:
      return status("in_progress", STATE_LABELS[state] ?? state, false);
  }
}

/** Where each of these deliveries of the shop stands (unknown ids are left out). */
export async function readSendStatuses(
  shop: string,
  deliveryIds: readonly string[],
): Promise<SendStatus[]> {
  if (deliveryIds.length === 0) return [];
  return (await findDeliveryProgress(shop, deliveryIds)).map(sendStatusOf);
}

// --- Price quote -------------------------------------------------------------------------------

/** What a quote was asked for: the delivery that sending the order would create. */
export interface QuoteBasis {
  weightKg: number;
  /** False when no item has a weight in Shopify and the default parcel weight was used. */
  weightKnown: boolean;
  value: number;
  cashOnDelivery: boolean;
  /** The pickup location and its courier area. */
  from: string;
  /** The destination area, as the matcher placed it and as the courier names it. */
  to: string;
}

export type QuoteOutcome =
  | { ok: true; price: number | null; currency: string | null; basis: QuoteBasis }
  | { ok: false; error: string };

/**
 * The courier's price for an order before sending it by hand, for the delivery sending it would
 * create: from the pickup address of the fulfillment order Send would fulfil, for the weight of
 * what that fulfillment order carries, and the value the request would declare.
 */
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
  if (order.shippingAddress.countryCodeV2 !== "KW")
    return { ok: false, error: "The order does not ship to Kuwait." };
  const chosen = await chooseFulfillmentOrder(shop, order);
  if (!chosen.ok) return { ok: false, error: chosen.error };
  const environment = settings.courierEnvironment as CourierEnvironment;
  const [parcel, directory, overrides] = await Promise.all([
    fetchFulfillmentOrderParcel(admin, chosen.fulfillmentOrderId),
    loadCourierDirectory(shop, environment),
    listAreaOverrides(shop),
  ]);
  if (!directory)
    return {
      ok: false,
      error: "The courier's areas are not loaded: test the connection in Settings.",
    };
  if (!parcel || parcel.items.length === 0)
    return { ok: false, error: "The order has nothing left to fulfil." };
  const match = matchAddress(
    { ...order.shippingAddress, countryCode: order.shippingAddress.countryCodeV2 },
    { overrides },
  );
  const resolution = match.area ? resolveCourierIds(match.area, directory.index) : null;
  if (!match.area || !match.confident || resolution?.status !== "resolved") {
    return {
      ok: false,
      error:
        "The shipping address cannot be placed with confidence; send it and fix it in Address review.",
    };
  }
  // As buildDeliveryRequest: the items' weight, and the amount to collect (if no other delivery
  // of the order collects it) or the parcel's own value, in KWD.
  const weightKg = packageWeightKg(parcel.items);
  const collector = await findBalanceCollector(shop, orderId, "");
  const charge = parcelCharge(parcel, collector === null);
  if (!charge.ok) return { ok: false, error: charge.problem };
  const { cashOnDelivery, value } = charge;
  const pickupArea = directory.areas.find((a) => a.id === chosen.pickup.areaId)?.name;
  const basis: QuoteBasis = {
    weightKg,
    weightKnown: parcel.items.some((i) => i.unitWeightKg !== null && i.unitWeightKg > 0),
    value,
    cashOnDelivery,
    from: pickupArea ? `${chosen.pickup.name} (${pickupArea})` : chosen.pickup.name,
    to: `${match.area.nameEn} (${resolution.courierAreaName})`,
  };
  const client = courierClientFor(environment, stored.apiKey);
  if (!client) return { ok: false, error: "This courier environment is not configured." };
  try {
    const quote = await client.calculatePrice({
      pickupAddress: { governanceId: chosen.pickup.governanceId, areaId: chosen.pickup.areaId },
      deliveryAddress: { governanceId: resolution.governanceId, areaId: resolution.areaId },
      packageDetails: { weight: weightKg, value },
    });
    return { ok: true, price: quote.price, currency: quote.currency, basis };
  } catch (error) {
    if (!isCourierError(error)) throw error;
    return { ok: false, error: error.message };
  }
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
