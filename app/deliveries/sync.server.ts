import type { Delivery, ShopSettings } from "@prisma/client";
import { z } from "zod";
import {
  CourierNotFoundError,
  CourierUnavailableError,
  isCourierError,
  type CourierClient,
  type Tracking,
} from "../courier";
import { releaseLease, renewLease } from "../models/deliveries.server";
import { StaleDeliveryError, transition } from "../models/delivery-state.server";
import { getShopSettings, type CourierEnvironment } from "../models/shop.server";
import {
  claimDueTracking,
  findDeliveryByCourierOrder,
  leaseForPush,
  loadStatusMappings,
  pushEventSeen,
  rememberPushEvent,
  rememberStatus,
  syncSoon,
} from "../models/tracking.server";
import { pacedAdmin } from "../shopify/cost-budget";
import {
  createFulfillmentEvent,
  markOrderPaid,
  shopifyFailureKind,
  shopifyFailureMessage,
} from "../shopify/fulfillment-events";
import { ShopifyReplyError, type AdminGraphql } from "../shopify/graphql";
import { isFinal, parseState } from "./domain/states";
import {
  SHOPIFY_EVENT_LABELS,
  SHOPIFY_EVENT_STATUSES,
  recognizeStatus,
  type StatusMeaning,
} from "./domain/courier-status";
import {
  nextSyncDelayMs,
  parseCourierTime,
  planTrackingUpdate,
  type CourierEvent,
} from "./domain/tracking-plan";

/**
 * The tracking sync: follows every created delivery at the courier until it is final and tells
 * Shopify each change as a fulfillment event. Polling (`runTrackingSync`) is the safety net; the
 * courier's pushes (`applyPushedStatus`) take the same path. Concurrency is bounded in total and
 * per shop; a courier rate limit or Shopify throttling pauses that shop for the rest of the pass
 * and its deliveries come back later, untouched. What Shopify refuses does not stop the delivery
 * from following the courier: it is owed to Shopify and tried again with backoff.
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
    // Through the shop's cost budget (ADR 0014), like the worker's calls.
    admin: memo(async () => pacedAdmin(shop, await deps.adminFor(shop), () => clock(deps))),
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
async function syncOne(delivery: Delivery, context: ShopContext, deps: SyncDependencies) {
  await withLease(delivery, context, deps, async (current) => {
    if (isFinal(parseState(current.state))) return current;
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
 * a courier failure or anything unexpected (which is then thrown, for the caller to log).
 * "settled": the look was applied; "deferred": it comes back later.
 */
async function withLease(
  delivery: Delivery,
  context: ShopContext,
  deps: SyncDependencies,
  look: (delivery: Delivery) => Promise<Delivery>,
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
    // A pass leases its batch at once and looks at it a few at a time: the lease is renewed as
    // each look starts, so one that waited in the queue is not also taken by another instance.
    await renewLease(
      delivery.shop,
      delivery.id,
      deps.owner,
      deps.leaseMs ?? SYNC_DEFAULTS.leaseMs,
      now,
    );
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
    isFinal(parseState(delivery.state))
      ? Promise.resolve(delivery)
      : applyCourierEvents(delivery, [event], context, pushDeps),
  );
  // Remembered once applied, so that the courier's redelivery of one that was not is applied.
  if (outcome !== "settled") return "queued";
  if (push.eventId) await rememberPushEvent(shop, push.eventId);
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

/** A shipment status Shopify refused, which the app still owes it (`Delivery.shopifyPending`). */
const owedEvent = z.object({
  status: z.enum(SHOPIFY_EVENT_STATUSES),
  happenedAt: z.string().nullable(),
  message: z.string(),
});
type OwedEvent = z.infer<typeof owedEvent>;

/** The shipment status Shopify refused and the app still owes it, if any. */
export function readOwedEvent(delivery: Pick<Delivery, "shopifyPending">): OwedEvent | null {
  if (!delivery.shopifyPending) return null;
  try {
    return owedEvent.parse(JSON.parse(delivery.shopifyPending));
  } catch {
    return null;
  }
}

/**
 * When an owed Shopify write is tried again: 15 minutes after the first refusal, doubling, at
 * most a day apart; never once the delivery has been final for a week.
 */
export function shopifyRetryDelayMs(attempts: number): number {
  return Math.min(24 * 60 * 60_000, 15 * 60_000 * 2 ** Math.max(0, attempts - 1));
}
const OWED_AFTER_FINAL_MS = 7 * 24 * 60 * 60_000;

/**
 * One Shopify write: done, or refused with the reason (for the timeline and a later try). Throttled
 * or unreachable: the shop pauses and the look ends where it was.
 */
async function shopifyWrite(
  write: () => Promise<unknown>,
  now: Date,
): Promise<{ refused: string | null }> {
  try {
    await write();
    return { refused: null };
  } catch (error) {
    const kind = shopifyFailureKind(error);
    if (kind === "throttled" || kind === "unavailable") {
      throw new ShopPaused(
        now.getTime() + SHOPIFY_PAUSE_MS,
        kind === "throttled"
          ? "Shopify asked the app to slow down; the shipment status follows shortly."
          : "Shopify could not be reached; the shipment status follows shortly.",
      );
    }
    if (kind === "refused") return { refused: shopifyFailureMessage(error) };
    throw error;
  }
}

/** A shipment status on the Shopify fulfillment: news from the courier, or one Shopify owes. */
function writeShipmentEvent(
  context: Pick<ShopContext, "admin">,
  fulfillmentId: string,
  event: OwedEvent,
  now: Date,
): Promise<{ refused: string | null }> {
  return shopifyWrite(
    async () =>
      createFulfillmentEvent(await context.admin(), {
        fulfillmentId,
        status: event.status,
        happenedAt: event.happenedAt ? new Date(event.happenedAt) : null,
        message: event.message,
      }),
    now,
  );
}

/** The fields that record an owed Shopify write after a refusal in this look. */
function refusedData(delivery: Delivery, now: Date, reason: string) {
  const attempts = delivery.shopifyAttempts + 1;
  return {
    shopifyAttempts: attempts,
    shopifyRetryAt: new Date(now.getTime() + shopifyRetryDelayMs(attempts)),
    lastError: reason.slice(0, 500),
  };
}

/**
 * Applies what the courier reported to a leased delivery: each piece of news becomes a timeline
 * entry, a state move when the mapping says so, and a Shopify fulfillment event when the Shopify
 * status changes. Each step is committed right after its Shopify write, so a throttled write stops
 * the walk where it was and the next look starts from there. A refused write does not stop the
 * walk: the state follows the courier, the refusal is on the timeline, and the status is owed to
 * Shopify (tried again by `settle`, with backoff). Returns the delivery as it is now.
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
      state: parseState(delivery.state),
      courierStatus: delivery.courierStatus,
      courierStatusAt: delivery.courierStatusAt,
      shopifyEventStatus: delivery.shopifyEventStatus,
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
    let owed: Partial<
      Pick<Delivery, "shopifyPending" | "shopifyAttempts" | "shopifyRetryAt" | "lastError">
    > = {};
    if (step.shopify && current.fulfillmentId) {
      const event: OwedEvent = {
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
        owed = { shopifyPending: null, shopifyAttempts: 0, shopifyRetryAt: null, lastError: null };
      } else {
        note = ` Shopify did not take the shipment status (${SHOPIFY_EVENT_LABELS[step.shopify]}): ${refused.replace(/[.\s]*$/, ".")} It is tried again later.`;
        owed = {
          shopifyPending: JSON.stringify(event),
          ...(refusedThisLook ? {} : refusedData(current, now, refused)),
        };
        refusedThisLook = true;
      }
    }
    const to = parseState(step.moveTo ?? current.state);
    const moved = to !== current.state || step.after.courierStatus !== current.courierStatus;
    // Shopify's status is what Shopify took, not what the app meant to send.
    const shopifyEventStatus = written ? step.shopify : current.shopifyEventStatus;
    await transition({
      shop: current.shop,
      id: current.id,
      from: parseState(current.state),
      to,
      leaseOwner: deps.owner,
      at: now,
      data: {
        courierStatus: step.after.courierStatus,
        courierStatusAt: step.after.courierStatusAt,
        ...(moved ? { lastMovedAt: now } : {}),
        shopifyEventStatus,
        ...owed,
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
      ...owed,
      state: to,
      courierStatus: step.after.courierStatus,
      courierStatusAt: step.after.courierStatusAt,
      lastMovedAt: moved ? now : current.lastMovedAt,
      shopifyEventStatus,
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
 * After a look: what the delivery owes Shopify is written when it is due (a refused shipment
 * status, the payment of a delivered cash-on-delivery order when the merchant asked for it), then
 * the lease goes with the time of the next look: the cadence, or sooner for an owed write; none
 * once final and nothing is owed. A week after the delivery became final, the app stops trying
 * and says so.
 */
async function settle(delivery: Delivery, context: ShopContext, deps: SyncDependencies) {
  const now = clock(deps);
  let current = delivery;
  const finalFor = isFinal(parseState(current.state))
    ? now.getTime() - (current.lastMovedAt ?? current.trackedAt ?? now).getTime()
    : 0;
  const payment = () =>
    current.state === "delivered" &&
    !current.paidMarkedAt &&
    !!context.settings?.markCodPaid &&
    isCashOnDelivery(current, context.settings);
  const owes = () => readOwedEvent(current) !== null || payment();
  const due = () => !current.shopifyRetryAt || current.shopifyRetryAt <= now;
  const expired = finalFor > OWED_AFTER_FINAL_MS;
  let problem: string | null = null;

  if (owes() && expired) {
    // Said once: what was being retried is dropped (and the delivery is not looked at again).
    if (current.shopifyPending || current.shopifyRetryAt)
      await transition({
        shop: current.shop,
        id: current.id,
        from: parseState(current.state),
        to: parseState(current.state),
        leaseOwner: deps.owner,
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
    const event = readOwedEvent(current);
    if (event && current.fulfillmentId && event.status !== current.shopifyEventStatus) {
      const { refused } = await writeShipmentEvent(context, current.fulfillmentId, event, now);
      if (refused === null) {
        const data = { shopifyEventStatus: event.status, shopifyPending: null };
        await transition({
          shop: current.shop,
          id: current.id,
          from: parseState(current.state),
          to: parseState(current.state),
          leaseOwner: deps.owner,
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
      let outcome: "paid" | "already_paid" = "paid";
      const { refused } = await shopifyWrite(async () => {
        outcome = await markOrderPaid(await context.admin(), current.orderId);
      }, now);
      if (refused === null) {
        const data = { paidMarkedAt: now };
        await transition({
          shop: current.shop,
          id: current.id,
          from: "delivered",
          to: "delivered",
          leaseOwner: deps.owner,
          at: now,
          data,
          event: {
            kind: "paid",
            message:
              outcome === "paid"
                ? "Cash collected on delivery: the order is marked paid in Shopify."
                : "Cash collected on delivery: the order was already paid in Shopify.",
          },
        });
        current = { ...current, ...data };
      } else {
        problem = refused.startsWith("Shopify did not mark")
          ? refused
          : `Shopify did not mark the order paid: ${refused}`;
      }
    }
  }

  const owing = owes() && !expired;
  const retry = problem !== null ? refusedData(current, now, problem) : null;
  const retryAt = owing ? (retry?.shopifyRetryAt ?? current.shopifyRetryAt) : null;
  const delay = nextSyncDelayMs(
    parseState(current.state),
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
          shopifyPending: current.shopifyPending,
          shopifyAttempts: retry?.shopifyAttempts ?? current.shopifyAttempts,
          shopifyRetryAt: retryAt,
          lastError: retry?.lastError ?? current.lastError,
        }
      : { shopifyPending: null, shopifyAttempts: 0, shopifyRetryAt: null, lastError: null }),
  });
}
