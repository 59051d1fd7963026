import { CourierNotFoundError, CourierUnavailableError, isCourierError } from "../../courier";
import { releaseLease, renewLease } from "../../models/deliveries.server";
import { leaseNeedsRenewal } from "../../domain/lease-policy";
import type { DeliveryRow } from "../../models/delivery-row.server";
import { StaleDeliveryError } from "../../models/delivery-state";
import { ShopifyReplyError } from "../../shopify/graphql";
import {
  clock,
  ShopPaused,
  SYNC_DEFAULTS,
  type ShopContext,
  type SyncDependencies,
} from "./context.server";
import { settle } from "./settle.server";

/** How long a shop rests after the courier asked the app to slow down, unless it said. */
const COURIER_PAUSE_MS = 60_000;

/** The shop has no courier API key the app can read: nothing to ask the courier with. */
export class NoCourierKey extends Error {
  constructor() {
    super("No courier API key is stored: tracking resumes when one is added in Settings.");
  }
}

/**
 * Runs `look` on a delivery this worker leased, settles it, and releases the lease with the time
 * of the next look, whatever happened: a pause for a rate limit or throttling, a later retry for
 * a courier failure or anything unexpected (which is then thrown, for the caller to log).
 * "settled": the look was applied; "deferred": it comes back later.
 */
export async function withLease(
  delivery: DeliveryRow,
  context: ShopContext,
  deps: SyncDependencies,
  look: (delivery: DeliveryRow) => Promise<DeliveryRow>,
): Promise<"settled" | "deferred"> {
  const now = clock(deps);
  const release = (inMs: number, lastError: string) =>
    releaseLease(delivery.shop, delivery.id, deps.owner, {
      syncAt: new Date(now.getTime() + inMs),
      lastError: lastError.slice(0, 500),
    });
  if (context.pausedUntil > now.getTime()) {
    await release(
      context.pausedUntil - now.getTime(),
      "Waiting: the courier or Shopify asked the app to slow down.",
    );
    return "deferred";
  }
  try {
    // A pass leases its batch at once and looks at it a few at a time: a look that waited in the
    // queue long enough for the lease to run short renews it first, so it is not also taken by
    // another instance mid-look.
    const leaseMs = deps.leaseMs ?? SYNC_DEFAULTS.leaseMs;
    if (leaseNeedsRenewal(delivery.leaseExpiresAt, now, leaseMs))
      await renewLease(delivery.shop, delivery.id, deps.owner, leaseMs, now);
    await settle(await look(delivery), context, deps);
    return "settled";
  } catch (error) {
    if (error instanceof StaleDeliveryError) return "deferred";
    if (error instanceof NoCourierKey) {
      await release(60 * 60_000, error.message);
      return "deferred";
    }
    if (error instanceof ShopPaused) {
      context.pausedUntil = Math.max(context.pausedUntil, error.untilMs);
      await release(error.untilMs - now.getTime(), error.message);
      return "deferred";
    }
    if (error instanceof CourierUnavailableError && error.reason === "rate_limited") {
      const waitMs = error.retryAfterMs ?? COURIER_PAUSE_MS;
      context.pausedUntil = Math.max(context.pausedUntil, now.getTime() + waitMs);
      await release(waitMs, error.message);
      return "deferred";
    }
    // Courier down, a malformed reply, an order it no longer knows: look again later.
    const retryMs = error instanceof CourierNotFoundError ? 6 * 60 * 60_000 : 15 * 60_000;
    await release(retryMs, error instanceof Error ? error.message : "Tracking failed.");
    if (!isCourierError(error) && !(error instanceof ShopifyReplyError)) throw error;
    return "deferred";
  }
}
