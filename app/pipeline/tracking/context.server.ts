import type { CourierClient } from "../../courier";
import {
  getShopSettings,
  type CourierEnvironment,
  type ShopSettingsRow,
} from "../../models/shop.server";
import { loadStatusMappings } from "../../models/tracking.server";
import { pacedAdmin } from "../../shopify/cost-budget";
import type { AdminGraphql } from "../../shopify/graphql";
import type { StatusMeaning } from "../../domain/courier-status";

/**
 * What the tracking sync works with: its dependencies and limits, and what it needs of a shop,
 * loaded once per pass (or once per push). The sync follows every created delivery at the courier
 * until it is final and tells Shopify each change as a fulfillment event (docs/pipeline.md, "3.
 * The progress comes back"; ADR 0008).
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

/** What the sync needs of a shop, loaded once per pass. */
export interface ShopContext {
  shop: string;
  settings: ShopSettingsRow | null;
  mappings: Map<string, StatusMeaning | null>;
  /** The courier's names of its statuses (master data), for events that come without one. */
  names: Map<string, string>;
  admin: () => Promise<AdminGraphql>;
  courier: (environment: CourierEnvironment) => Promise<CourierClient | null>;
  pausedUntil: number;
  inFlight: number;
}

/** The courier or Shopify asked the app to slow down: the shop rests until `untilMs`. */
export class ShopPaused extends Error {
  constructor(
    readonly untilMs: number,
    message: string,
  ) {
    super(message);
  }
}

export const clock = (deps: Pick<SyncDependencies, "now">) => deps.now?.() ?? new Date();

function memo<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= load());
}

export async function shopContext(shop: string, deps: SyncDependencies): Promise<ShopContext> {
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
