import type { DeliveryRow } from "../../models/delivery-row.server";
import { transition } from "../../models/delivery-state";
import { rememberStatus } from "../../models/tracking.server";
import { recognizeStatus, SHOPIFY_EVENT_LABELS } from "../../domain/courier-status";
import { Unreadable } from "../../domain/json-column";
import { shopifyPendingColumn, type OwedShopifyEvent } from "../../domain/owed-shopify-event";
import { planTrackingUpdate, type CourierEvent } from "../../domain/tracking-plan";
import { clock, type ShopContext, type SyncDependencies } from "./context.server";
import { refusedData, writeShipmentEvent } from "./shopify-writes.server";

/**
 * Applies what the courier reported to a leased delivery: each piece of news becomes a timeline
 * entry, a state move when the mapping says so, and a Shopify fulfillment event when the Shopify
 * status changes. Each step is committed right after its Shopify write, so a throttled write stops
 * the walk where it was and the next look starts from there. A refused write does not stop the
 * walk: the state follows the courier, the refusal is on the timeline, and the status is owed to
 * Shopify (tried again with backoff, settle.server.ts). Returns the delivery as it is now.
 */
export async function applyCourierEvents(
  delivery: DeliveryRow,
  events: readonly CourierEvent[],
  context: Pick<ShopContext, "shop" | "mappings" | "names" | "admin">,
  deps: Pick<SyncDependencies, "owner" | "now">,
): Promise<DeliveryRow> {
  const now = clock(deps);
  events = events.map((e) => (e.name ? e : { ...e, name: context.names.get(e.status) ?? null }));
  // A status met for the first time is recorded, recognized or not, so the merchant sees it.
  for (const event of events) {
    if (context.mappings.has(event.status)) continue;
    const meaning = recognizeStatus(event.status, event.name);
    context.mappings.set(event.status, meaning);
    await rememberStatus(context.shop, event.status, event.name ?? null, meaning, now);
  }
  const meaningOf = (event: CourierEvent) => context.mappings.get(event.status) ?? null;
  const steps = planTrackingUpdate(
    {
      state: delivery.state,
      courierStatus: delivery.courierStatus,
      courierStatusAt: delivery.courierStatusAt,
      // One that no longer reads: the app does not know what Shopify shows, so the next one is written.
      shopifyEventStatus:
        delivery.shopifyEventStatus instanceof Unreadable ? null : delivery.shopifyEventStatus,
    },
    events,
    meaningOf,
    now,
  );
  let current = delivery;
  let refusedThisLook = false;
  for (const step of steps) {
    let written = false;
    let note = "";
    // The status owed to Shopify after this step (undefined: as it was), and its retry fields.
    let owed: OwedShopifyEvent | null | undefined;
    let retry: Partial<Pick<DeliveryRow, "shopifyAttempts" | "shopifyRetryAt" | "lastError">> = {};
    if (step.shopify && current.fulfillmentId) {
      const event: OwedShopifyEvent = {
        status: step.shopify,
        happenedAt:
          (step.event.at && step.event.at > now ? now : step.event.at)?.toISOString() ?? null,
        message: step.event.note ?? step.event.name ?? step.event.status,
      };
      // Refused once in this look: the rest of it waits rather than being refused again.
      const { refused } = refusedThisLook
        ? { refused: "Shopify refused the status before it in this look." }
        : await writeShipmentEvent(context, current.fulfillmentId, event, now);
      if (refused === null) {
        written = true;
        owed = null;
        retry = { shopifyAttempts: 0, shopifyRetryAt: null, lastError: null };
      } else {
        note = ` Shopify did not take the shipment status (${SHOPIFY_EVENT_LABELS[step.shopify]}): ${refused.replace(/[.\s]*$/, ".")} It is tried again later.`;
        owed = event;
        retry = refusedThisLook ? {} : refusedData(current, now, refused);
        refusedThisLook = true;
      }
    }
    const to = step.moveTo ?? current.state;
    const moved = to !== current.state || step.after.courierStatus !== current.courierStatus;
    // Shopify's status is what Shopify took, not what the app meant to send.
    const shopifyEventStatus = written ? { shopifyEventStatus: step.shopify } : {};
    await transition({
      shop: current.shop,
      id: current.id,
      from: current.state,
      to,
      leaseOwner: deps.owner,
      leaseGeneration: current.leaseGeneration,
      at: now,
      data: {
        courierStatus: step.after.courierStatus,
        courierStatusAt: step.after.courierStatusAt,
        ...(moved ? { lastMovedAt: now } : {}),
        ...shopifyEventStatus,
        ...retry,
        ...(owed === undefined
          ? {}
          : { shopifyPending: owed && shopifyPendingColumn.encode(owed) }),
        ...(step.moveTo && ["failed", "returned"].includes(step.moveTo)
          ? { stateReason: `The courier reported: ${step.event.name ?? step.event.status}.` }
          : {}),
      },
      event: {
        kind: step.mapped ? "courier_status" : "unmapped_status",
        message: step.message + note,
        data: {
          status: step.event.status,
          name: step.event.name ?? null,
          state: step.after.state,
          at: step.event.at?.toISOString() ?? null,
          shopify: written ? step.shopify : null,
          ...(note ? { shopifyOwed: step.shopify } : {}),
        },
      },
    });
    current = {
      ...current,
      ...retry,
      ...(owed === undefined ? {} : { shopifyPending: owed }),
      state: to,
      courierStatus: step.after.courierStatus,
      courierStatusAt: step.after.courierStatusAt,
      lastMovedAt: moved ? now : current.lastMovedAt,
      ...shopifyEventStatus,
    };
  }
  return current;
}
