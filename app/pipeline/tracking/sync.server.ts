import type { Tracking } from "../../courier";
import type { DeliveryRow } from "../../models/delivery-row.server";
import { claimDueTracking } from "../../models/tracking.server";
import { isFinal } from "../../domain/states";
import { parseCourierTime, type CourierEvent } from "../../domain/tracking-plan";
import {
  clock,
  shopContext,
  SYNC_DEFAULTS,
  type ShopContext,
  type SyncDependencies,
  type SyncLimits,
} from "./context.server";
import { applyCourierEvents } from "./courier-events.server";
import { NoCourierKey, withLease } from "./lease.server";

/**
 * The tracking sync's pass: leases the deliveries due for a look at the courier, fairly across
 * shops, and looks at each once. Polling is the safety net; the courier's pushes (push.server.ts)
 * take the same path. Concurrency is bounded in total and per shop; a courier rate limit or
 * Shopify throttling pauses that shop for the rest of the pass and its deliveries come back later,
 * untouched.
 */

/** One pass: lease the due deliveries and look at each once. Returns how many were looked at. */
export async function runTrackingSync(
  deps: SyncDependencies,
  limits: SyncLimits = {},
): Promise<number> {
  const { batch, concurrency, perShop } = { ...SYNC_DEFAULTS, ...limits };
  const leased = await claimDueTracking(
    deps.owner,
    batch,
    deps.leaseMs ?? SYNC_DEFAULTS.leaseMs,
    clock(deps),
    perShop,
  );
  if (leased.length === 0) return 0;

  const shops = new Map<string, ShopContext>();
  for (const shop of new Set(leased.map((d) => d.shop))) {
    shops.set(shop, await shopContext(shop, deps));
  }
  // Deliveries wait in one queue; a lane takes the next one whose shop has room.
  const queue = [...leased];
  const waiting: (() => void)[] = [];
  const lane = async () => {
    for (;;) {
      const index = queue.findIndex((d) => shops.get(d.shop)!.inFlight < perShop);
      if (index < 0) {
        if (queue.length === 0) return;
        // Every remaining delivery belongs to a shop at its limit: wait for one to finish.
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      const delivery = queue.splice(index, 1)[0]!;
      const context = shops.get(delivery.shop)!;
      context.inFlight += 1;
      try {
        await syncOne(delivery, context, deps);
      } catch (error) {
        // One delivery never ends a pass: it was released for a later look (withLease), and
        // what went wrong, being unexpected, is logged.
        console.error(
          `Tracking sync: delivery ${delivery.id} of ${delivery.shop} failed:`,
          error instanceof Error ? error.message : error,
        );
      } finally {
        context.inFlight -= 1;
        for (const wake of waiting.splice(0)) wake();
      }
    }
  };
  // Every lane ends before the pass does, so a pass never overlaps the next one.
  const lanes = await Promise.allSettled(
    Array.from({ length: Math.min(concurrency, leased.length) }, lane),
  );
  for (const result of lanes)
    if (result.status === "rejected") console.error("Tracking sync lane failed:", result.reason);
  return leased.length;
}

/** One look at the courier for a leased delivery. */
async function syncOne(delivery: DeliveryRow, context: ShopContext, deps: SyncDependencies) {
  await withLease(delivery, context, deps, async (current) => {
    if (isFinal(current.state)) return current;
    const client = await context.courier(current.environment);
    if (!client) throw new NoCourierKey();
    const tracking = await client.track(current.courierOrderId!);
    return applyCourierEvents(current, trackingEvents(tracking), context, deps);
  });
}

/** The courier's tracking reply as events, oldest first; its current status alone when it sent no steps. */
export function trackingEvents(tracking: Tracking): CourierEvent[] {
  const events = tracking.events.flatMap((e): CourierEvent[] =>
    e.status
      ? [
          {
            status: e.status,
            at: parseCourierTime(e.at),
            name: textField(e.raw, "statusName"),
            note: textField(e.raw, "note"),
          },
        ]
      : [],
  );
  if (events.length > 0) return events;
  return tracking.status ? [{ status: tracking.status, at: null }] : [];
}

function textField(raw: Record<string, unknown>, key: string): string | null {
  const value = raw[key];
  return typeof value === "string" && value.trim() ? value : null;
}
