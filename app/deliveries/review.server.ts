import { z } from "zod";
import {
  type AddressInput,
  type CourierIndex,
  gazetteerAreaFor,
  overrideKeyFor,
} from "../addresses";
import {
  CourierValidationError,
  isCourierError,
  type CourierClient,
  type OrderRecord,
} from "../courier";
import prisma from "../db.server";
import { rememberAreaSpelling } from "../models/area-overrides.server";
import { loadCourierApiKey } from "../models/courier-account.server";
import { getDelivery, type DeliveryRow } from "../models/deliveries.server";
import { StaleDeliveryError, transition } from "../models/delivery-state.server";
import { getPickupLocation } from "../models/pickup-locations.server";
import { getShopSettings } from "../models/shop.server";
import { courierClientFor } from "../services/courier-connection.server";
import { loadCourierDirectory } from "../services/courier-directory.server";
import { fetchDeliveryFulfillment } from "../shopify/fulfillments";
import type { AdminGraphql } from "../shopify/graphql";
import { searchHistory, type HistoryAnswer } from "./history";
import { kickDeliveryWorker } from "./drain-loop.server";
import { Unreadable } from "./domain/json-column";
import { notesCarryReference } from "./domain/request";
import { buildAndQueue } from "./steps/prepare.server";

/** The merchant's answers: an address placed by hand, or "send again" after a rejection. */

const text = z.string().trim().max(100).default("");
export const addressFix = z.object({
  deliveryId: z.string().min(1),
  governanceId: z.coerce.number({ error: "Choose the governance." }).int("Choose the governance."),
  areaId: z.coerce.number({ error: "Choose the area." }).int("Choose the area."),
  block: text,
  street: text,
  avenue: text,
  house: text,
  building: text,
  floor: text,
  apartment: text,
  // A checked box is sent (Polaris sends an empty value), an unchecked one is not.
  remember: z
    .string()
    .optional()
    .transform((value) => value !== undefined),
});

/** What rebuilding a request needs from Shopify and the shop, or why it cannot be rebuilt. */
async function rebuildContext(
  shop: string,
  admin: AdminGraphql,
  delivery: { fulfillmentId: string | null; locationId: string | null },
) {
  const fulfillment = delivery.fulfillmentId
    ? await fetchDeliveryFulfillment(admin, delivery.fulfillmentId)
    : null;
  if (!fulfillment) return { ok: false, error: "Shopify no longer has this fulfillment." } as const;
  const [settings, pickup] = await Promise.all([
    getShopSettings(shop),
    getPickupLocation(shop, fulfillment.locationId ?? delivery.locationId ?? ""),
  ]);
  if (!settings || !pickup) {
    return {
      ok: false,
      error: "Confirm the pickup address of the location this order ships from first.",
    } as const;
  }
  return { ok: true, fulfillment, settings, pickup } as const;
}

const PART_FIELDS = [
  "block",
  "street",
  "avenue",
  "house",
  "building",
  "floor",
  "apartment",
  "paci",
] as const;

/** Address parts from a form or a stored record: empty text is no part. */
function partsFrom(
  source: Partial<Record<(typeof PART_FIELDS)[number], string | null | undefined>>,
) {
  return Object.fromEntries(PART_FIELDS.map((name) => [name, source[name] || null])) as Record<
    (typeof PART_FIELDS)[number],
    string | null
  >;
}

/** `notRemembered` says why "Remember this spelling" was asked for and could not be done. */
export type FixOutcome =
  { ok: true; notRemembered?: string; message?: string } | { ok: false; error: string };

/**
 * The key and gazetteer area to remember for the merchant's answer, or why it cannot be. The key
 * is computed afresh from what the customer typed, so it is the one the matcher builds today.
 */
function rememberable(
  typed: AddressInput | Unreadable | undefined,
  courierAreaId: number,
  index: CourierIndex,
): { key: string; governorate: string; area: string } | { why: string } {
  if (typed instanceof Unreadable)
    return { why: "the customer's address as stored can no longer be read" };
  if (!typed) return { why: "the customer's address is no longer stored" };
  const key = overrideKeyFor(typed);
  if (key.key === null) return { why: key.refusal };
  const place = gazetteerAreaFor(courierAreaId, index);
  if (place.status !== "found") return { why: place.reason };
  return { key: key.key, governorate: place.area.governorateCode, area: place.area.nameEn };
}

export async function fixDeliveryAddress(
  shop: string,
  admin: AdminGraphql,
  form: Record<string, unknown>,
): Promise<FixOutcome> {
  const parsed = addressFix.safeParse(form);
  if (!parsed.success)
    return { ok: false, error: parsed.error.issues[0]?.message ?? "Invalid form." };
  const fix = parsed.data;
  const delivery = await getDelivery(shop, fix.deliveryId);
  if (!delivery || delivery.state !== "needs_address") {
    return { ok: false, error: "This delivery is no longer waiting for an address." };
  }
  const directory = await loadCourierDirectory(shop, delivery.environment);
  const area = directory?.areas.find((a) => a.id === fix.areaId);
  if (!directory || !area || area.governanceId !== fix.governanceId) {
    return { ok: false, error: "Choose an area of the chosen governance from the courier's list." };
  }
  const context = await rebuildContext(shop, admin, delivery);
  if (!context.ok) return { ok: false, error: context.error };

  // An unreadable record is replaced by the merchant's answer.
  const previous = delivery.addressMatch instanceof Unreadable ? {} : (delivery.addressMatch ?? {});
  let notRemembered: string | undefined;
  if (fix.remember) {
    const typed =
      delivery.addressMatch instanceof Unreadable ? delivery.addressMatch : previous.input;
    const remember = rememberable(typed, fix.areaId, directory.index);
    if ("why" in remember) notRemembered = remember.why;
    else {
      await rememberAreaSpelling(shop, remember.key, {
        governorate: remember.governorate,
        area: remember.area,
      });
    }
  }
  const queued = await buildAndQueue(
    delivery,
    { owner: null },
    {
      order: context.fulfillment.order,
      settings: context.settings,
      pickup: context.pickup,
      destination: { governanceId: fix.governanceId, areaId: fix.areaId, parts: partsFrom(fix) },
      matchRecord: { ...previous, fixedByMerchant: true },
    },
  );
  if (queued?.state !== "ready")
    return { ok: false, error: queued?.stateReason ?? "The request could not be built." };
  kickDeliveryWorker();
  return notRemembered === undefined ? { ok: true } : { ok: true, notRemembered };
}

async function courierFor(delivery: DeliveryRow): Promise<CourierClient | null> {
  const stored = await loadCourierApiKey(delivery.shop);
  return stored.status === "readable"
    ? courierClientFor(delivery.environment, stored.apiKey)
    : null;
}

/** needs_review → created with the courier's order: tracking proceeds from there. */
async function markCreatedWith(
  delivery: DeliveryRow,
  order: Pick<OrderRecord, "orderNumber" | "status"> & { orderId: string },
  message: string,
): Promise<FixOutcome> {
  const orderId = order.orderId;
  const taken = await prisma.delivery.findFirst({
    where: { shop: delivery.shop, courierOrderId: orderId, id: { not: delivery.id } },
    select: { orderName: true, reference: true },
  });
  if (taken) {
    return {
      ok: false,
      error: `That courier order is already linked to another delivery (${taken.orderName ?? taken.reference}).`,
    };
  }
  try {
    await transition({
      shop: delivery.shop,
      id: delivery.id,
      from: "needs_review",
      to: "created",
      leaseOwner: null,
      data: {
        courierOrderId: orderId,
        courierOrderNumber: order.orderNumber ?? orderId,
        courierStatus: order.status,
        unknownSince: null,
        stateReason: null,
        lastError: null,
        failures: 0,
        // The worker puts the tracking number on Shopify next.
        nextAttemptAt: new Date(),
      },
      event: {
        kind: "reconciled",
        message,
        data: { courier: { orderId, orderNumber: order.orderNumber, status: order.status } },
      },
    });
  } catch (error) {
    if (error instanceof StaleDeliveryError)
      return { ok: false, error: "This delivery has just changed; reload the page." };
    throw error;
  }
  kickDeliveryWorker();
  return { ok: true, message };
}

export const markCreatedForm = z.object({
  courierOrder: z
    .string()
    .trim()
    .min(1, "Enter the courier's order number.")
    .max(100, "That is not a courier order number."),
});

/**
 * "Mark created": the merchant found the order at the courier (its portal, a call) for a
 * delivery whose outcome nobody could confirm. The number is checked with the courier (a get,
 * after a history search when it is an order number rather than an id); an order that names
 * another delivery's reference, or is linked to one already, is refused.
 */
export async function markDeliveryCreated(
  shop: string,
  deliveryId: string,
  form: Record<string, unknown>,
): Promise<FixOutcome> {
  const parsed = markCreatedForm.safeParse(form);
  if (!parsed.success)
    return { ok: false, error: parsed.error.issues[0]?.message ?? "Invalid form." };
  const wanted = parsed.data.courierOrder;
  const delivery = await getDelivery(shop, deliveryId);
  if (delivery?.state !== "needs_review") {
    return { ok: false, error: "Only a delivery waiting for your decision can be marked created." };
  }
  const client = await courierFor(delivery);
  if (!client) return { ok: false, error: "Connect the courier in Settings first." };
  let order: OrderRecord | null;
  try {
    order = await lookUpCourierOrder(client, wanted);
  } catch (error) {
    if (!isCourierError(error)) throw error;
    return { ok: false, error: `The courier could not be asked about ${wanted}: ${error.message}` };
  }
  if (!order?.orderId) {
    return { ok: false, error: `The courier has no order ${wanted} for this account.` };
  }
  const notes = typeof order.raw.notes === "string" ? order.raw.notes : "";
  const otherReference = /SHPFY-[A-Za-z0-9-]+/.exec(notes)?.[0];
  if (otherReference && !notesCarryReference(notes, delivery.reference)) {
    return {
      ok: false,
      error: `Courier order ${wanted} was made for another delivery (${otherReference}), not this one (${delivery.reference}).`,
    };
  }
  return markCreatedWith(
    delivery,
    { ...order, orderId: order.orderId },
    `Marked created by the merchant: courier order ${order.orderNumber ?? order.orderId}, confirmed by the courier (status ${order.status ?? "unknown"}).`,
  );
}

/** The courier's order by its id, or by its number through history; null when it has none. */
async function lookUpCourierOrder(client: CourierClient, wanted: string) {
  try {
    return await client.getOrder(wanted);
  } catch (error) {
    // Not an id the courier knows: perhaps its order number.
    if (!(error instanceof CourierValidationError)) throw error;
  }
  const page = await client.history({ search: wanted, pageSize: 50 });
  const match = page.orders.find((o) => o.orderNumber === wanted || o.orderId === wanted);
  return match?.orderId ? client.getOrder(match.orderId) : null;
}

/**
 * "Try again" for a delivery that needed the merchant's attention: it resumes where it stopped,
 * from the start (the order is loaded again) or, when the courier already has it, at putting the
 * tracking number on Shopify.
 */
async function resumeDelivery(delivery: DeliveryRow): Promise<FixOutcome> {
  try {
    await transition({
      shop: delivery.shop,
      id: delivery.id,
      from: "needs_attention",
      to: delivery.courierOrderId ? "created" : "pending",
      leaseOwner: null,
      // Its tries are counted afresh: the move to needs_attention kept the ten that stopped it.
      data: { stateReason: null, lastError: null, failures: 0, nextAttemptAt: new Date() },
      event: { kind: "retry", message: "Tried again by the merchant." },
    });
  } catch (error) {
    if (error instanceof StaleDeliveryError)
      return { ok: false, error: "This delivery has just changed; reload the page." };
    throw error;
  }
  kickDeliveryWorker();
  return { ok: true };
}

/**
 * "Send again" cannot rebuild the request without the place chosen before: the delivery waits on
 * the address review page for the merchant to choose it again.
 */
async function askForAddress(delivery: DeliveryRow, reason: string): Promise<FixOutcome> {
  try {
    await transition({
      shop: delivery.shop,
      id: delivery.id,
      from: delivery.state,
      to: "needs_address",
      leaseOwner: null,
      data: { stateReason: reason, nextAttemptAt: null },
      event: { kind: "needs_address", message: reason },
    });
  } catch (error) {
    if (error instanceof StaleDeliveryError)
      return { ok: false, error: "This delivery has just changed; reload the page." };
    throw error;
  }
  return { ok: true, message: reason };
}

/**
 * "Send again" after the courier rejected it or its outcome needed the merchant's decision: the
 * request is built afresh from the order, settings and pickup address as they are now (the
 * merchant may have fixed them), for the place decided before.
 */
export async function retryDelivery(
  shop: string,
  admin: AdminGraphql,
  deliveryId: string,
): Promise<FixOutcome> {
  const delivery = await getDelivery(shop, deliveryId);
  if (delivery?.state === "needs_attention") return resumeDelivery(delivery);
  if (!delivery || !["rejected", "needs_review"].includes(delivery.state)) {
    return {
      ok: false,
      error:
        "Only a rejected delivery, or one waiting for your decision or attention, can be sent again.",
    };
  }
  if (delivery.state === "needs_review") {
    // Unknown whether the courier created it: its history decides before anything is sent.
    const client = await courierFor(delivery);
    if (!client) return { ok: false, error: "Connect the courier in Settings first." };
    let answer: HistoryAnswer;
    try {
      answer = await searchHistory(client, delivery.reference, delivery.createdAt);
    } catch (error) {
      if (!isCourierError(error)) throw error;
      return {
        ok: false,
        error: `The courier's history cannot be read right now, so it is not known whether the order exists: nothing was sent. Try again in a few minutes. (${error.message})`,
      };
    }
    if (answer.outcome === "undetermined") {
      return {
        ok: false,
        error: `The courier's history cannot tell whether the order exists (${answer.reason}): nothing was sent. Look for reference ${delivery.reference} with the courier, then mark it created or cancel it.`,
      };
    }
    if (answer.outcome === "found") {
      const found = answer.order;
      return markCreatedWith(
        delivery,
        { ...found, orderId: found.orderId },
        `Found in the courier's history as order ${found.orderNumber ?? found.orderId}: it had been created, so it was not sent again.`,
      );
    }
  }
  if (delivery.addressMatch instanceof Unreadable) {
    return askForAddress(
      delivery,
      `The place chosen for this delivery's address can no longer be read (${delivery.addressMatch.problem}): choose it again on the address review page.`,
    );
  }
  const previous = delivery.addressMatch ?? {};
  if (!previous.courier) return { ok: false, error: "Place the delivery address first." };
  const context = await rebuildContext(shop, admin, delivery);
  if (!context.ok) return { ok: false, error: context.error };
  const queued = await buildAndQueue(
    delivery,
    { owner: null },
    {
      order: context.fulfillment.order,
      settings: context.settings,
      pickup: context.pickup,
      destination: { ...previous.courier, parts: partsFrom(previous.parts ?? {}) },
      matchRecord: previous,
    },
  );
  if (queued?.state !== "ready")
    return { ok: false, error: queued?.stateReason ?? "The request could not be built." };
  kickDeliveryWorker();
  return { ok: true };
}
