import type { Delivery, ShopSettings } from "@prisma/client";
import { z } from "zod";
import {
  CourierNotFoundError,
  CourierUnavailableError,
  isCourierError,
  type CourierClient,
  type Tracking,
} from "../courier";
import {
  firstTimeWebhook,
  releaseLease,
  StaleDeliveryError,
  transition,
} from "../models/deliveries.server";
import { getShopSettings, type CourierEnvironment } from "../models/shop.server";
import {
  claimDueTracking,
  findDeliveryByCourierOrder,
  leaseForPush,
  loadStatusMappings,
  rememberStatus,
  syncSoon,
} from "../models/tracking.server";
import {
  createFulfillmentEvent,
  isShopifyThrottled,
  markOrderPaid,
} from "../shopify/fulfillment-events";
import { ShopifyReplyError, type AdminGraphql } from "../shopify/graphql";
import { isFinal, type DeliveryState } from "./states";
import {
  nextSyncDelayMs,
  parseCourierTime,
  planTrackingUpdate,
  recognizeStatus,
  type CourierEvent,
  type StatusMeaning,
} from "./tracking";

/**
 * The tracking sync: follows every created delivery at the courier until it is final and tells
 * Shopify each change as a fulfillment event. Polling (`runTrackingSync`) is the safety net; the
 * courier's pushes (`applyPushedStatus`) take the same path. Concurrency is bounded in total and
 * per shop; a courier rate limit or Shopify throttling pauses that shop for the rest of the pass
 * and its deliveries come back later, untouched.
 */
export interface SyncDependencies {
  owner: string;
  courierFor(shop: string, environment: CourierEnvironment): Promise<CourierClient | null>;
  adminFor(shop: string): Promise<AdminGraphql>;
  now?: () => Date;
  leaseMs?: number;
}

export interface SyncLimits {
  /** Deliveries leased per pass. */
  batch?: number;
  /** Courier calls in flight at once, in total. */
  concurrency?: number;
  /** ... and per shop. */
  perShop?: number;
}

export const SYNC_DEFAULTS = { batch: 200, concurrency: 32, perShop: 8, leaseMs: 120_000 };

/** How long a shop rests after Shopify or the courier asked the app to slow down. */
const SHOPIFY_PAUSE_MS = 10_000;
const COURIER_PAUSE_MS = 60_000;

class ShopPaused extends Error {
  constructor(
    readonly untilMs: number,
    message: string,
  ) {
    super(message);
  }
}

/** What the sync needs of a shop, loaded once per pass. */
interface ShopContext {
  shop: string;
  settings: ShopSettings | null;
  mappings: Map<string, StatusMeaning | null>;
  /** The courier's names of its statuses (master data), for events that come without one. */
  names: Map<string, string>;
  admin: () => Promise<AdminGraphql>;
  courier: (environment: CourierEnvironment) => Promise<CourierClient | null>;
  pausedUntil: number;
  inFlight: number;
}

const clock = (deps: Pick<SyncDependencies, "now">) => deps.now?.() ?? new Date();

function memo<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= load());
}

async function shopContext(shop: string, deps: SyncDependencies): Promise<ShopContext> {
  const couriers = new Map<string, Promise<CourierClient | null>>();
  return {
    shop,
    settings: await getShopSettings(shop),
    ...(await loadStatusMappings(shop)),
    admin: memo(() => deps.adminFor(shop)),
    courier: (environment) => {
      let client = couriers.get(environment);
      if (!client) couriers.set(environment, (client = deps.courierFor(shop, environment)));
      return client;
    },
    pausedUntil: 0,
    inFlight: 0,
  };
}

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
      } finally {
        context.inFlight -= 1;
        for (const wake of waiting.splice(0)) wake();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, leased.length) }, lane));
  return leased.length;
}

/** One look at the courier for a leased delivery. */
async function syncOne(delivery: Delivery, context: ShopContext, deps: SyncDependencies) {
  await withLease(delivery, context, deps, async (current) => {
    if (isFinal(current.state as DeliveryState)) return current;
    const client = await context.courier(current.environment as CourierEnvironment);
    if (!client) throw new NoCourierKey();
    const tracking = await client.track(current.courierOrderId!);
    return applyCourierEvents(current, trackingEvents(tracking), context, deps);
  });
}

class NoCourierKey extends Error {
  constructor() {
    super("No courier API key is stored: tracking resumes when one is added in Settings.");
  }
}

/**
 * Runs `look` on a delivery this worker leased, settles it, and releases the lease with the time
 * of the next look, whatever happened: a pause for a rate limit or throttling, a later retry for
 * a courier or Shopify failure.
 */
async function withLease(
  delivery: Delivery,
  context: ShopContext,
  deps: SyncDependencies,
  look: (delivery: Delivery) => Promise<Delivery>,
) {
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
    return;
  }
  try {
    await settle(await look(delivery), context, deps);
  } catch (error) {
    if (error instanceof StaleDeliveryError) return;
    if (error instanceof NoCourierKey) return release(60 * 60_000, error.message);
    if (error instanceof ShopPaused) {
      context.pausedUntil = Math.max(context.pausedUntil, error.untilMs);
      return release(error.untilMs - now.getTime(), error.message);
    }
    if (error instanceof CourierUnavailableError && error.reason === "rate_limited") {
      const waitMs = error.retryAfterMs ?? COURIER_PAUSE_MS;
      context.pausedUntil = Math.max(context.pausedUntil, now.getTime() + waitMs);
      return release(waitMs, error.message);
    }
    // Courier down, a malformed reply, an order it no longer knows: look again later.
    const retryMs = error instanceof CourierNotFoundError ? 6 * 60 * 60_000 : 15 * 60_000;
    await release(retryMs, error instanceof Error ? error.message : "Tracking failed.");
    if (!isCourierError(error) && !(error instanceof ShopifyReplyError)) throw error;
  }
}

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
 * delivery is free; otherwise its next look is brought forward. Repeated events (same event id)
 * do nothing twice, and a late one never moves the delivery back.
 */
export async function applyPushedStatus(
  shop: string,
  push: CourierPush,
  deps: SyncDependencies,
): Promise<PushOutcome> {
  const now = clock(deps);
  if (push.eventId && !(await firstTimeWebhook(shop, push.eventId, "courier/status")))
    return "duplicate";
  const found = await findDeliveryByCourierOrder(shop, push.order.orderId);
  if (!found) return "unknown_order";
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
  await withLease(leased, context, pushDeps, (delivery) =>
    isFinal(delivery.state as DeliveryState)
      ? Promise.resolve(delivery)
      : applyCourierEvents(delivery, [event], context, pushDeps),
  );
  return "applied";
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

/**
 * Applies what the courier reported to a leased delivery: each piece of news becomes a timeline
 * entry, a state move when the mapping says so, and a Shopify fulfillment event when the Shopify
 * status changes. Each step is committed right after its Shopify write, so a throttled write stops
 * the walk where it was and the next look starts from there. Returns the delivery as it is now.
 */
export async function applyCourierEvents(
  delivery: Delivery,
  events: readonly CourierEvent[],
  context: Pick<ShopContext, "shop" | "mappings" | "names" | "admin">,
  deps: Pick<SyncDependencies, "owner" | "now">,
): Promise<Delivery> {
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
      state: delivery.state as DeliveryState,
      courierStatus: delivery.courierStatus,
      courierStatusAt: delivery.courierStatusAt,
      shopifyEventStatus: delivery.shopifyEventStatus,
    },
    events,
    meaningOf,
    now,
  );
  let current = delivery;
  for (const step of steps) {
    let shopifyNote = "";
    if (step.shopify && current.fulfillmentId) {
      try {
        await createFulfillmentEvent(await context.admin(), {
          fulfillmentId: current.fulfillmentId,
          status: step.shopify,
          happenedAt:
            step.event.at && step.event.at.getTime() > now.getTime() ? now : step.event.at,
          message: step.event.note ?? step.event.name ?? step.event.status,
        });
      } catch (error) {
        if (isShopifyThrottled(error)) {
          throw new ShopPaused(
            now.getTime() + SHOPIFY_PAUSE_MS,
            "Shopify asked the app to slow down; the shipment status follows shortly.",
          );
        }
        if (!(error instanceof ShopifyReplyError)) throw error;
        // Refused for good (e.g. the fulfillment was cancelled in Shopify): said, not retried.
        shopifyNote = ` Shopify did not take the shipment status: ${error.message}`;
      }
    }
    const to = (step.moveTo ?? current.state) as DeliveryState;
    const moved = to !== current.state || step.after.courierStatus !== current.courierStatus;
    await transition({
      shop: current.shop,
      id: current.id,
      from: current.state as DeliveryState,
      to,
      leaseOwner: deps.owner,
      at: now,
      data: {
        courierStatus: step.after.courierStatus,
        courierStatusAt: step.after.courierStatusAt,
        ...(moved ? { lastMovedAt: now } : {}),
        shopifyEventStatus: shopifyNote
          ? current.shopifyEventStatus
          : step.after.shopifyEventStatus,
        ...(step.moveTo && ["failed", "returned"].includes(step.moveTo)
          ? { stateReason: `The courier reported: ${step.event.name ?? step.event.status}.` }
          : {}),
      },
      event: {
        kind: step.mapped ? "courier_status" : "unmapped_status",
        message: step.message + shopifyNote,
        data: {
          status: step.event.status,
          name: step.event.name ?? null,
          state: step.after.state,
          at: step.event.at?.toISOString() ?? null,
          shopify: shopifyNote ? null : step.shopify,
        },
      },
    });
    current = {
      ...current,
      state: to,
      courierStatus: step.after.courierStatus,
      courierStatusAt: step.after.courierStatusAt,
      lastMovedAt: moved ? now : current.lastMovedAt,
      shopifyEventStatus: shopifyNote ? current.shopifyEventStatus : step.after.shopifyEventStatus,
    };
  }
  return current;
}

function isCashOnDelivery(delivery: Delivery, settings: ShopSettings | null): boolean {
  if (!settings?.paymentCodeCod || settings.paymentCodeCod === settings.paymentCodePrepaid)
    return false;
  try {
    const request = JSON.parse(delivery.request ?? "{}") as { paymentMethod?: unknown };
    return request.paymentMethod === settings.paymentCodeCod;
  } catch {
    return false;
  }
}

/**
 * After a look: a delivered cash-on-delivery order is marked paid when the merchant asked for it,
 * then the lease goes with the time of the next look (none once final and settled).
 */
async function settle(delivery: Delivery, context: ShopContext, deps: SyncDependencies) {
  const now = clock(deps);
  let paymentPending = false;
  if (
    delivery.state === "delivered" &&
    !delivery.paidMarkedAt &&
    context.settings?.markCodPaid &&
    isCashOnDelivery(delivery, context.settings)
  ) {
    try {
      await markOrderPaid(await context.admin(), delivery.orderId);
      await transition({
        shop: delivery.shop,
        id: delivery.id,
        from: "delivered",
        to: "delivered",
        leaseOwner: deps.owner,
        at: now,
        data: { paidMarkedAt: now },
        event: {
          kind: "paid",
          message: "Cash collected on delivery: the order is marked paid in Shopify.",
        },
      });
    } catch (error) {
      if (isShopifyThrottled(error)) {
        throw new ShopPaused(
          now.getTime() + SHOPIFY_PAUSE_MS,
          "Shopify asked the app to slow down.",
        );
      }
      if (!(error instanceof ShopifyReplyError)) throw error;
      if (/already|paid/i.test(error.message)) {
        await transition({
          shop: delivery.shop,
          id: delivery.id,
          from: "delivered",
          to: "delivered",
          leaseOwner: deps.owner,
          at: now,
          data: { paidMarkedAt: now },
          event: { kind: "paid", message: "The order was already paid in Shopify." },
        });
      } else {
        paymentPending = true;
      }
    }
  }
  const delay = paymentPending
    ? 60 * 60_000
    : nextSyncDelayMs(
        delivery.state as DeliveryState,
        delivery.lastMovedAt ?? delivery.trackingPushedAt,
        now,
      );
  await releaseLease(delivery.shop, delivery.id, deps.owner, {
    syncAt: delay === null ? null : new Date(now.getTime() + delay),
    trackedAt: now,
    lastError: null,
  });
}
