import {
  findBalanceCollector,
  getDelivery,
  type DeliveryEventRow,
} from "../models/deliveries.server";
import { isStuck } from "../models/read/delivery-list.server";
import { findAskForOrder } from "../models/shopper-asks.server";
import { env } from "../env.server";
import { loadCourierDirectory } from "../services/courier-directory.server";
import { Unreadable } from "../domain/json-column";
import { explainMatch } from "../domain/match-explanation";
import { isFinal } from "../domain/states";
import { longWait } from "../domain/waits";
import { courierSaid, refusedFields, timelineSentence } from "../domain/timeline";
import { LABEL_STATES } from "../domain/label-availability";
import { cancelChoicesFor } from "./cancel-dialog.server";
import { deliveryExceptionItems } from "./reports.server";
import { isFixable } from "../actions/fix.server";
import { getShopSettings } from "../models/shop.server";
import { askView, customerFacingShopName } from "./customer-answers.server";
import { secondChanceOf } from "./second-chance.server";

/**
 * What a delivery's page shows (app/routes/app.deliveries.$id.tsx): the customer, the address as
 * placed, how sure the match was, the parcel, the payment, the courier and the timeline, each as
 * data the page puts into words in its language (ADR 0043); the raw request only for the
 * technical details. Null when the shop has no delivery of that id.
 */
export async function deliveryPage(shop: string, id: string, now = new Date()) {
  const delivery = await getDelivery(shop, id);
  if (!delivery) return null;
  const orderNumericId = delivery.orderId.split("/").pop();
  // Split fulfillments: one delivery of the order collects its balance (ADR 0026).
  const collector = delivery.cashToCollect
    ? null
    : await findBalanceCollector(shop, delivery.orderId, delivery.id);
  const directory = await loadCourierDirectory(shop, delivery.environment);
  const stored = delivery.request instanceof Unreadable ? null : delivery.request;
  const sent = stored && !stored.erased ? stored.body : null;
  const match =
    delivery.addressMatch instanceof Unreadable ? null : (delivery.addressMatch ?? null);
  const destination = sent?.deliveryAddress ?? null;
  const courierIds = destination
    ? { governanceId: destination.governanceId, areaId: destination.areaId }
    : (match?.courier ?? null);
  const courierArea = courierIds
    ? directory?.areas.find((a) => a.id === courierIds.areaId)
    : undefined;
  const courierGovernorate = courierIds
    ? directory?.governances.find((g) => g.id === courierIds.governanceId)
    : undefined;
  const lastStatus = [...delivery.events]
    .reverse()
    .find((e) => e.kind === "courier_status" || e.kind === "unmapped_status");
  const lastStatusData =
    lastStatus?.data && !(lastStatus.data instanceof Unreadable) ? lastStatus.data : null;
  const parts = match?.parts ?? {};
  // What put the delivery where it waits: the latest entry of a kind that says why.
  const because = [...delivery.events].reverse().find((e) => REASON_KINDS.includes(e.kind));
  return {
    delivery: {
      id: delivery.id,
      orderName: delivery.orderName,
      orderAdminPath: `shopify://admin/orders/${orderNumericId}`,
      state: delivery.state,
      createdAt: delivery.createdAt.toISOString(),
      fixable: isFixable(delivery.state),
      // A label exists once the courier created the delivery, until it is done (as the list's).
      labelPath:
        (delivery.courierOrderNumber ?? delivery.courierOrderId) !== null &&
        LABEL_STATES.includes(delivery.state)
          ? `/app/labels?deliveryIds=${encodeURIComponent(delivery.id)}`
          : null,
      waitsForReview: delivery.state === "needs_address",
      cancelRequestedAt: delivery.cancelRequestedAt?.toISOString() ?? null,
      erased: stored?.erased ?? false,
    },
    reason: because
      ? {
          sentence: timelineSentence(because),
          courierSaid: courierSaid(because.data),
          // The parts the courier's refusal names, said in the page's language (issue 29).
          refused: refusedFields(because.data),
          // The service's own sentence, shown only where the catalog has it (ADR 0043).
          recorded: delivery.stateReason,
        }
      : delivery.stateReason
        ? { sentence: null, courierSaid: null, refused: [], recorded: delivery.stateReason }
        : null,
    // Waiting for Shopify or the courier, without failing, for half an hour or more (issue 24).
    waitingLong: longWait(delivery, now),
    customer: {
      name: destination?.contactName ?? null,
      phone: destination
        ? `${destination.contactCountryCode ?? ""}${destination.contactPhone}`.trim()
        : (match?.contactPhone ?? null),
      typed: match?.input
        ? [match.input.address1, match.input.address2, match.input.city]
            .filter(Boolean)
            .join(", ") || null
        : null,
    },
    address: {
      // The courier's names; the page shows them in its language through the gazetteer.
      area: courierArea?.name ?? match?.area ?? null,
      governorate: courierGovernorate?.name ?? match?.governorate ?? null,
      block: destination?.block || parts.block || null,
      street: destination?.street || parts.street || null,
      avenue: destination?.avenue || parts.avenue || null,
      house: destination?.house || parts.house || null,
      building: destination?.building || parts.building || null,
      floor: destination?.floor || parts.floor || null,
      apartment: parts.apartment ?? null,
      paci: parts.paci ?? null,
    },
    match: explainMatch(match),
    parcel: sent
      ? {
          items: sent.packageDetails.description || null,
          weightKg: sent.packageDetails.weight,
          value: sent.packageDetails.value.toFixed(3),
        }
      : null,
    payment: {
      cashToCollect: delivery.cashToCollect,
      collectedBy: collector ? { id: collector.id, orderName: collector.orderName } : null,
      known: sent !== null,
    },
    courier: {
      number: delivery.courierOrderNumber,
      trackingUrl: delivery.trackingUrl,
      // The courier's status in words: the state it means, and the courier's own name for it.
      statusState:
        lastStatusData && typeof lastStatusData.state === "string" ? lastStatusData.state : null,
      statusName: lastStatusData?.name ?? null,
      statusAt: delivery.courierStatusAt?.toISOString() ?? null,
      stuck: isStuck(delivery),
      final: isFinal(delivery.state),
      lastLookAt: delivery.trackedAt?.toISOString() ?? null,
      nextLookAt: delivery.syncAt?.toISOString() ?? null,
      paidMarkedAt: delivery.paidMarkedAt?.toISOString() ?? null,
      // What the Shopify order shows; one Shopify does not have (a hand edit) as unknown.
      shopifyStatus:
        delivery.shopifyEventStatus instanceof Unreadable ? null : delivery.shopifyEventStatus,
      // A status Shopify refused, owed to it and tried again later (ADR 0008).
      shopifyOwed: delivery.shopifyPending
        ? {
            status:
              delivery.shopifyPending instanceof Unreadable ? null : delivery.shopifyPending.status,
            retryAt: delivery.shopifyRetryAt?.toISOString() ?? null,
          }
        : null,
    },
    events: delivery.events.map((e) => ({
      id: e.id,
      at: e.at.toISOString(),
      kind: e.kind,
      sentence: timelineSentence(e),
      courierSaid: courierSaid(e.data),
      refused: refusedFields(e.data),
      courier: courierAnswerOf(e.data),
    })),
    technical: {
      reference: delivery.reference,
      environment: delivery.environment,
      attempts: delivery.attempts,
      courierStatus: delivery.courierStatus,
      courierOrderId: delivery.courierOrderId,
      stateReason: delivery.stateReason,
      lastError: delivery.lastError,
      request: sent,
      requestProblem: delivery.request instanceof Unreadable ? delivery.request.problem : null,
      matchNotes: match?.reasons ?? [],
      timeline: delivery.events.map((e) => ({ id: e.id, kind: e.kind, message: e.message })),
    },
    // What the cancel dialog offers: cancel, the Shopify fulfillment's fate, sending again.
    cancel: await cancelChoicesFor(delivery),
    // What the courier reported as exceptions for this delivery (issue 16).
    exceptions: await deliveryExceptionItems(shop, delivery.id),
    // The order's customer, asked about the address before it was fulfilled (issue 26).
    customerAnswer: await customerAnswerOf(shop, delivery.orderId, now),
    // Asked again after this delivery's failed attempt (issue 27, item 5).
    secondChance: await secondChanceOf(delivery),
  };
}

/** The order's ask, when the customer was asked at all. */
async function customerAnswerOf(shop: string, orderId: string, now: Date) {
  const ask = await findAskForOrder(shop, orderId);
  if (!ask || ask.state === "checking" || ask.state === "not_needed") return null;
  return askView(ask, {
    now,
    appUrl: env().SHOPIFY_APP_URL,
    deliveryId: null,
    shopName: customerFacingShopName(await getShopSettings(shop)),
  });
}

const REASON_KINDS = [
  "rejected",
  "needs_address",
  "needs_attention",
  "needs_review",
  "waiting",
  "skipped",
  "unknown",
  "not_in_history",
];

/** The courier's answer kept on a timeline event (ids, statuses, messages), if any. */
function courierAnswerOf(data: DeliveryEventRow["data"]): Record<string, unknown> | null {
  // An answer that no longer reads is left out.
  return data && !(data instanceof Unreadable) ? (data.courier ?? null) : null;
}

export type DeliveryPageData = NonNullable<Awaited<ReturnType<typeof deliveryPage>>>;
