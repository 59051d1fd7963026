import { releaseLease } from "../../models/deliveries.server";
import type { DeliveryRow } from "../../models/delivery-row.server";
import { transition } from "../../models/delivery-state";
import { SHOPIFY_EVENT_LABELS } from "../../domain/courier-status";
import { shopifyPendingColumn } from "../../domain/owed-shopify-event";
import { isFinal } from "../../domain/states";
import { nextSyncDelayMs } from "../../domain/tracking-plan";
import { clock, type ShopContext, type SyncDependencies } from "./context.server";
import {
  OWED_AFTER_FINAL_MS,
  owedShipmentEvent,
  paymentOwed,
  refusedData,
  writeOrderPaid,
  writeShipmentEvent,
} from "./shopify-writes.server";

/**
 * After a look: what the delivery owes Shopify is written when it is due (a refused shipment
 * status, the payment of a delivered cash-on-delivery order when the merchant asked for it), then
 * the lease goes with the time of the next look: the cadence, or sooner for an owed write; none
 * once final and nothing is owed. A week after the delivery became final, the app stops trying
 * and says so.
 */
export async function settle(delivery: DeliveryRow, context: ShopContext, deps: SyncDependencies) {
  const now = clock(deps);
  let current = delivery;
  const finalFor = isFinal(current.state)
    ? now.getTime() - (current.lastMovedAt ?? current.trackedAt ?? now).getTime()
    : 0;
  const payment = () => paymentOwed(current, context.settings);
  const owes = () => owedShipmentEvent(current) !== null || payment();
  const due = () => !current.shopifyRetryAt || current.shopifyRetryAt <= now;
  const expired = finalFor > OWED_AFTER_FINAL_MS;
  let problem: string | null = null;

  if (owes() && expired) {
    // Said once: what was being retried is dropped (and the delivery is not looked at again).
    if (current.shopifyPending || current.shopifyRetryAt)
      await transition({
        shop: current.shop,
        id: current.id,
        from: current.state,
        to: current.state,
        leaseOwner: deps.owner,
        leaseGeneration: current.leaseGeneration,
        at: now,
        data: { shopifyPending: null, shopifyRetryAt: null },
        event: {
          kind: "shopify_given_up",
          message:
            "Shopify still refused what the app owed it a week after the delivery ended; the app stopped trying. Set the shipment status (and payment) in Shopify by hand.",
        },
      });
    current = { ...current, shopifyPending: null, shopifyRetryAt: null };
  } else if (owes() && due()) {
    const event = owedShipmentEvent(current);
    if (event && current.fulfillmentId && event.status !== current.shopifyEventStatus) {
      const { refused } = await writeShipmentEvent(context, current.fulfillmentId, event, now);
      if (refused === null) {
        const data = { shopifyEventStatus: event.status, shopifyPending: null };
        await transition({
          shop: current.shop,
          id: current.id,
          from: current.state,
          to: current.state,
          leaseOwner: deps.owner,
          leaseGeneration: current.leaseGeneration,
          at: now,
          data,
          event: {
            kind: "shopify_status",
            message: `Shopify took the shipment status (${SHOPIFY_EVENT_LABELS[event.status]}) it had refused.`,
            data: { shopify: event.status },
          },
        });
        current = { ...current, ...data };
      } else {
        problem = refused;
      }
    } else if (event) {
      current = { ...current, shopifyPending: null };
    }
    if (problem === null && payment()) {
      const paid = await writeOrderPaid(context, current.orderId, now);
      if (paid.refused === null) {
        const data = { paidMarkedAt: now };
        await transition({
          shop: current.shop,
          id: current.id,
          from: "delivered",
          to: "delivered",
          leaseOwner: deps.owner,
          leaseGeneration: current.leaseGeneration,
          at: now,
          data,
          event: {
            kind: "paid",
            message:
              paid.outcome === "paid"
                ? "Cash collected on delivery: the order is marked paid in Shopify."
                : "Cash collected on delivery: the order was already paid in Shopify.",
          },
        });
        current = { ...current, ...data };
      } else {
        problem = paid.refused;
      }
    }
  }

  const owing = owes() && !expired;
  const owed = owedShipmentEvent(current);
  const retry = problem !== null ? refusedData(current, now, problem) : null;
  const retryAt = owing ? (retry?.shopifyRetryAt ?? current.shopifyRetryAt) : null;
  const delay = nextSyncDelayMs(
    current.state,
    current.lastMovedAt ?? current.trackingPushedAt,
    now,
  );
  const cadenceAt = delay === null ? null : new Date(now.getTime() + delay);
  const syncAt =
    retryAt && (!cadenceAt || retryAt < cadenceAt)
      ? new Date(Math.max(retryAt.getTime(), now.getTime()))
      : cadenceAt;
  await releaseLease(current.shop, current.id, deps.owner, {
    syncAt,
    trackedAt: now,
    ...(owing
      ? {
          shopifyPending: owed && shopifyPendingColumn.encode(owed),
          shopifyAttempts: retry?.shopifyAttempts ?? current.shopifyAttempts,
          shopifyRetryAt: retryAt,
          lastError: retry?.lastError ?? current.lastError,
        }
      : { shopifyPending: null, shopifyAttempts: 0, shopifyRetryAt: null, lastError: null }),
  });
}
