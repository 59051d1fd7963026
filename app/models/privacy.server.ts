import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { eraseAsksOf } from "./shopper-asks.server";
import prisma, { eraseFromDisk } from "../db.server";
import { requestCancel } from "./cancel-requests.server";
import { deliveryEventRow, deliveryRow } from "./delivery-row.server";
import { erasureCancelWrites } from "./delivery-state";
import { jsonColumn, Unreadable } from "../domain/json-column";
import { redactDeliveryRequest } from "../domain/redaction";
import { parseState, type DeliveryState } from "../domain/states";

/**
 * The GDPR side of the data model. Every table that holds a shop's rows is listed in
 * {@link deleteShopData}; a test walks the Prisma schema and fails when a table with a `shop`
 * column is not emptied by it.
 */

export type ComplianceTopic = "customers/data_request" | "customers/redact" | "shop/redact";

/**
 * `ComplianceRequest.orderIds`: the orders Shopify named, as it sent them. A list that no longer
 * reads is shown as none: the request's other fields and outcome still say what was done.
 */
const orderIdsColumn = jsonColumn("ComplianceRequest.orderIds", z.array(z.string()));

interface ComplianceInput {
  shop: string;
  webhookId: string;
  topic: ComplianceTopic;
  customerId?: string;
  /** Shopify's numeric order ids, as the compliance webhooks send them. */
  orderIds?: string[];
}

const orderGids = (orderIds: readonly string[] = []) =>
  orderIds.map((id) => (id.startsWith("gid://") ? id : `gid://shopify/Order/${id}`));

/**
 * Timeline entries whose text the app writes from its own words, order numbers and the courier's
 * status names: they stay when a customer is redacted. Every other kind may quote what the
 * customer typed (an address that could not be placed, a phone the courier refused, a courier
 * message repeating a field) and loses its text; its kind and time stay.
 */
const EVENT_KINDS_WITHOUT_PERSONAL_DATA = new Set([
  "received",
  "attached",
  "sending",
  "created",
  "courier_status",
  "unmapped_status",
  "tracking",
  "paid",
  "shopify_fulfillment_cancelled",
]);

/** Deliveries the courier has not been asked for yet: after a redaction they are never sent. */
const NOT_SENT: readonly DeliveryState[] = ["pending", "needs_address", "ready", "rejected"];
/**
 * Deliveries the courier may or may not have: their cancellation is requested, so the worker
 * looks in the courier's history (cancelling there what it finds) and never sends them again.
 */
const OUTCOME_UNKNOWN: readonly DeliveryState[] = ["creating", "unknown", "needs_review"];
const ERASED_REASON = "the customer's personal data was erased at their request";

const neverSent = (d: { state: string; courierOrderId: string | null }) =>
  NOT_SENT.includes(parseState(d.state)) ||
  (d.state === "needs_attention" && d.courierOrderId === null);

export const REDACTED_TEXT = "Erased at the customer's request.";

/**
 * customers/data_request: the request is remembered with a count of the deliveries found; the
 * data itself is put together when the merchant downloads it ({@link customerDataExport}), so
 * no second copy of the customer's personal data is kept.
 */
export async function recordCustomerDataRequest(input: Omit<ComplianceInput, "topic">) {
  const deliveries = await prisma.delivery.count({
    where: { shop: input.shop, orderId: { in: orderGids(input.orderIds) } },
  });
  await remember(
    { ...input, topic: "customers/data_request" },
    `${count(deliveries, "delivery", "deliveries")} held for these orders; download them here.`,
  );
  return { deliveries };
}

export interface CustomerDataExport {
  shop: string;
  customerId: string | null;
  orderIds: string[];
  requestedAt: string;
  generatedAt: string;
  /** What the app holds, order by order. The courier holds its own copy of what was sent to it. */
  deliveries: {
    order: string;
    orderName: string | null;
    state: string;
    recordedAt: string;
    courierOrderNumber: string | null;
    trackingUrl: string | null;
    /** The request sent (or to be sent) to the courier: addresses, contact, package. */
    courierRequest: unknown;
    /** How the app read the shipping address. */
    addressMatch: unknown;
    timeline: { at: string; kind: string; message: string }[];
  }[];
  /** The WhatsApp messages about these orders: what each was for and what became of it. */
  whatsAppMessages: {
    order: string;
    orderName: string | null;
    purpose: string;
    language: string;
    state: string;
    skipReason: string | null;
    recordedAt: string;
    sentAt: string | null;
    deliveredAt: string | null;
    readAt: string | null;
    failedAt: string | null;
  }[];
}

/** What the app holds on the customer of a data request, for the merchant to pass on. */
export async function customerDataExport(
  shop: string,
  requestId: string,
  now = new Date(),
): Promise<CustomerDataExport | null> {
  const request = await prisma.complianceRequest.findFirst({
    where: { shop, id: requestId, topic: "customers/data_request" },
  });
  if (!request) return null;
  const orderIds = readOrderIds(request.orderIds);
  const rows = await prisma.delivery.findMany({
    where: { shop, orderId: { in: orderGids(orderIds) } },
    include: { events: { orderBy: { at: "asc" } } },
    orderBy: { createdAt: "asc" },
  });
  const messages = await prisma.shopperMessage.findMany({
    where: { shop, orderId: { in: orderGids(orderIds) } },
    orderBy: { createdAt: "asc" },
  });
  const iso = (at: Date | null) => at?.toISOString() ?? null;
  const deliveries = rows.map((r) => ({
    ...deliveryRow(r),
    events: r.events.map(deliveryEventRow),
  }));
  return {
    shop,
    customerId: request.customerId,
    orderIds,
    requestedAt: request.receivedAt.toISOString(),
    generatedAt: now.toISOString(),
    deliveries: deliveries.map((d) => ({
      order: d.orderId,
      orderName: d.orderName,
      state: d.state,
      recordedAt: d.createdAt.toISOString(),
      courierOrderNumber: d.courierOrderNumber,
      trackingUrl: d.trackingUrl,
      // A value that no longer reads is given as it is stored: it is still what the app holds.
      courierRequest:
        d.request instanceof Unreadable ? d.request.stored : (d.request?.body ?? null),
      addressMatch: d.addressMatch instanceof Unreadable ? d.addressMatch.stored : d.addressMatch,
      timeline: d.events.map((e) => ({ at: e.at.toISOString(), kind: e.kind, message: e.message })),
    })),
    // No phone number, message id or token: what was sent, when, and what became of it.
    whatsAppMessages: messages.map((m) => ({
      order: m.orderId,
      orderName: m.orderName,
      purpose: m.purpose,
      language: m.language,
      state: m.state,
      skipReason: m.skipReason,
      recordedAt: m.createdAt.toISOString(),
      sentAt: iso(m.sentAt),
      deliveredAt: iso(m.deliveredAt),
      readAt: iso(m.readAt),
      failedAt: iso(m.failedAt),
    })),
  };
}

/** The shop's compliance requests, newest first, for the merchant's privacy page. */
export async function listComplianceRequests(shop: string, take = 100) {
  const rows = await prisma.complianceRequest.findMany({
    where: { shop },
    orderBy: { receivedAt: "desc" },
    take,
  });
  return rows.map((r) => ({ ...r, orderIds: readOrderIds(r.orderIds) }));
}

/**
 * customers/redact: the personal data in the deliveries of the given orders is erased — the
 * contact and address inside the courier request, the address match, the texts that may quote
 * them (state reason, last error, timeline messages and data) — while the courier's ids, the
 * states and the timeline's shape stay, so the merchant's record of what was shipped remains.
 * Deliveries not yet sent to the courier are cancelled: there is nothing left to send; those the
 * courier may have are cancelled through the worker, which asks its history first.
 */
export async function redactCustomer(input: Omit<ComplianceInput, "topic">, at = new Date()) {
  const where = { shop: input.shop, orderId: { in: orderGids(input.orderIds) } };
  const deliveries = await prisma.delivery.findMany({
    where,
    select: { id: true, state: true, request: true, courierOrderId: true },
  });
  const ids = deliveries.map((d) => d.id);
  const cancelled = deliveries.filter(neverSent);
  const uncertain = deliveries.filter((d) => OUTCOME_UNKNOWN.includes(parseState(d.state)));
  const writes: Prisma.PrismaPromise<unknown>[] = [
    ...deliveries.map((d) => {
      // The stored text is erased as it is, not decoded first: what no longer reads is erased too.
      const request = d.request === null ? null : redactDeliveryRequest(d.request);
      return prisma.delivery.updateMany({
        where: { id: d.id, shop: input.shop },
        data: {
          request: request === null ? null : JSON.stringify(request),
          addressMatch: null,
          customerLanguage: null,
          stateReason: REDACTED_TEXT,
          lastError: null,
          // A shipment status Shopify refused, owed to it: its note may quote the courier's.
          shopifyPending: null,
          shopifyRetryAt: null,
          shopifyAttempts: 0,
        },
      });
    }),
    prisma.deliveryEvent.updateMany({
      where: { shop: input.shop, deliveryId: { in: ids } },
      data: { data: null },
    }),
    prisma.deliveryEvent.updateMany({
      where: {
        shop: input.shop,
        deliveryId: { in: ids },
        kind: { notIn: [...EVENT_KINDS_WITHOUT_PERSONAL_DATA] },
      },
      data: { message: REDACTED_TEXT },
    }),
    // What the customer typed and answered on their page (issue 26).
    eraseAsksOf(input.shop, orderGids(input.orderIds), at),
    // The number WhatsApp messages were (or were to be) sent to; one not yet sent never goes.
    prisma.shopperMessage.updateMany({
      where: { shop: input.shop, orderId: { in: orderGids(input.orderIds) } },
      data: { toPhone: null },
    }),
    prisma.shopperMessage.updateMany({
      where: {
        shop: input.shop,
        orderId: { in: orderGids(input.orderIds) },
        state: "queued",
      },
      data: { state: "skipped", skipReason: "erased", nextAttemptAt: null },
    }),
    // The state is part of the condition: a worker that read the row before this commit finds
    // it moved and does not send it.
    ...erasureCancelWrites(input.shop, cancelled, `Not sent: ${ERASED_REASON}.`, at),
  ];
  await prisma.$transaction(writes);
  await eraseFromDisk();
  for (const d of uncertain) await requestCancel(input.shop, d.id, ERASED_REASON, at);
  await remember(
    { ...input, topic: "customers/redact" },
    `Personal data erased from ${count(deliveries.length, "delivery", "deliveries")}` +
      (cancelled.length > 0 ? ` (${cancelled.length} not yet sent, cancelled)` : "") +
      (uncertain.length > 0
        ? ` (${uncertain.length} of uncertain outcome at the courier, being cancelled)`
        : "") +
      ".",
  );
  return {
    deliveries: deliveries.length,
    cancelled: cancelled.length,
    uncertain: uncertain.length,
  };
}

/** shop/redact: every row of the shop, in every table, deleted in one transaction. */
export async function deleteShopData(shop: string): Promise<Record<string, number>> {
  const where = { where: { shop } };
  const results = await prisma.$transaction([
    prisma.deliveryEvent.deleteMany(where),
    prisma.delivery.deleteMany(where),
    prisma.processedWebhook.deleteMany(where),
    prisma.areaOverride.deleteMany(where),
    prisma.pickupLocation.deleteMany(where),
    prisma.courierMasterData.deleteMany(where),
    prisma.courierStatusMapping.deleteMany(where),
    prisma.courierCircuit.deleteMany(where),
    prisma.fulfillmentCheck.deleteMany(where),
    prisma.staffLanguage.deleteMany(where),
    prisma.settlementLine.deleteMany(where),
    prisma.settlementGap.deleteMany(where),
    prisma.settlement.deleteMany(where),
    prisma.courierException.deleteMany(where),
    prisma.flowEvent.deleteMany(where),
    prisma.shopperAsk.deleteMany(where),
    prisma.shopperMessage.deleteMany(where),
    prisma.whatsAppOptOut.deleteMany(where),
    prisma.whatsAppAccount.deleteMany(where),
    prisma.checkoutRateSettings.deleteMany(where),
    prisma.areaPrice.deleteMany(where),
    prisma.rateRequestTally.deleteMany(where),
    prisma.complianceRequest.deleteMany(where),
    prisma.shopSettings.deleteMany(where),
    prisma.session.deleteMany(where),
  ]);
  await eraseFromDisk();
  const tables = [
    "DeliveryEvent",
    "Delivery",
    "ProcessedWebhook",
    "AreaOverride",
    "PickupLocation",
    "CourierMasterData",
    "CourierStatusMapping",
    "CourierCircuit",
    "FulfillmentCheck",
    "StaffLanguage",
    "SettlementLine",
    "SettlementGap",
    "Settlement",
    "CourierException",
    "FlowEvent",
    "ShopperAsk",
    "ShopperMessage",
    "WhatsAppOptOut",
    "WhatsAppAccount",
    "CheckoutRateSettings",
    "AreaPrice",
    "RateRequestTally",
    "ComplianceRequest",
    "ShopSettings",
    "Session",
  ];
  return Object.fromEntries(tables.map((table, i) => [table, results[i]?.count ?? 0]));
}

async function remember(input: ComplianceInput, outcome: string) {
  // Shopify may deliver the same webhook more than once: the (shop, webhookId) pair is unique.
  await prisma.complianceRequest.upsert({
    where: { shop_webhookId: { shop: input.shop, webhookId: input.webhookId } },
    create: {
      shop: input.shop,
      webhookId: input.webhookId,
      topic: input.topic,
      customerId: input.customerId,
      orderIds: orderIdsColumn.encode(input.orderIds ?? []),
      completedAt: new Date(),
      outcome,
    },
    update: {},
  });
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function readOrderIds(text: string): string[] {
  const orderIds = orderIdsColumn.decode(text);
  return orderIds instanceof Unreadable ? [] : orderIds;
}
