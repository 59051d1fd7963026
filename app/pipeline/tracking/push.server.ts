import { z } from "zod";
import { pushEventSeen, rememberPushEvent } from "../../models/push-credentials.server";
import { findDeliveryByCourierOrder, leaseForPush, syncSoon } from "../../models/tracking.server";
import { isFinal } from "../../domain/states";
import { parseCourierTime, type CourierEvent } from "../../domain/tracking-plan";
import { clock, shopContext, SYNC_DEFAULTS, type SyncDependencies } from "./context.server";
import { applyCourierEvents } from "./courier-events.server";
import { withLease } from "./lease.server";

/** A status push from the courier (sandbox/README.md, "Webhooks"; the document shows no shape). */
export const courierPush = z.object({
  eventId: z.string().min(1).max(200).optional(),
  event: z.string().optional(),
  occurredAt: z.string().optional(),
  order: z.object({
    orderId: z.union([z.string().min(1), z.number()]).transform(String),
    orderNumber: z.union([z.string(), z.number()]).transform(String).optional(),
    status: z.string().min(1).max(100),
    statusName: z.string().optional(),
  }),
});
export type CourierPush = z.infer<typeof courierPush>;

export type PushOutcome = "applied" | "duplicate" | "unknown_order" | "queued";

/**
 * A status the courier pushed: applied at once through the same path as polling, when the
 * delivery is followed and free; otherwise its next look is brought forward (or, before its
 * tracking number is on Shopify, it comes at the sync's first look). Repeated events (same event
 * id) do nothing twice, and a late one never moves the delivery back.
 */
export async function applyPushedStatus(
  shop: string,
  push: CourierPush,
  deps: SyncDependencies,
): Promise<PushOutcome> {
  const now = clock(deps);
  if (push.eventId && (await pushEventSeen(shop, push.eventId))) return "duplicate";
  const found = await findDeliveryByCourierOrder(shop, push.order.orderId);
  if (!found) return "unknown_order";
  // Until its tracking number is on Shopify the delivery is the worker's, which looks for it in
  // `created` (it may be retrying). Moving it would leave it with neither. The sync's first look,
  // a minute after the tracking number is on Shopify, reads the courier's whole history.
  if (!found.trackingPushedAt) return "queued";
  const owner = `${deps.owner}:push`;
  const leased = await leaseForPush(
    shop,
    found.id,
    owner,
    deps.leaseMs ?? SYNC_DEFAULTS.leaseMs,
    now,
  );
  if (!leased) {
    await syncSoon(shop, found.id, now);
    return "queued";
  }
  const pushDeps = { ...deps, owner };
  const context = await shopContext(shop, pushDeps);
  const event: CourierEvent = {
    status: push.order.status,
    at: parseCourierTime(push.occurredAt) ?? null,
    name: push.order.statusName ?? null,
  };
  const outcome = await withLease(leased, context, pushDeps, (delivery) =>
    isFinal(delivery.state)
      ? Promise.resolve(delivery)
      : applyCourierEvents(delivery, [event], context, pushDeps),
  );
  // Remembered once applied, so that the courier's redelivery of one that was not is applied.
  if (outcome !== "settled") return "queued";
  if (push.eventId) await rememberPushEvent(shop, push.eventId);
  return "applied";
}
