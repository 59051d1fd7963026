import type { FulfillmentCheck } from "@prisma/client";
import {
  claimDueFulfillmentChecks,
  ensureFulfillmentChecks,
  finishFulfillmentCheck,
  fulfillmentsWithDeliveries,
} from "../models/fulfillment-checks.server";
import { getShopSettings } from "../models/shop.server";
import { pacedAdmin, ShopifyThrottledError } from "../shopify/cost-budget";
import type { AdminGraphql } from "../shopify/graphql";
import { fetchRecentFulfillmentPage, type RecentFulfillment } from "../shopify/recent-fulfillments";
import { fulfillmentWebhook, receiveFulfillment } from "./intake.server";

/**
 * The check for fulfillments whose fulfillments/create webhook never came (ADR 0013): Shopify does
 * not promise delivery, and drops webhooks during long outages. Every 15 minutes per shop, the
 * orders Shopify updated since the last check (30 minutes of overlap) are read a page at a time;
 * a fulfillment made in that window, older than 10 minutes (its webhook may still be on its way),
 * with no delivery is recorded through the webhook's own intake, so the same rules decide and the
 * unique fulfillment id keeps it once however late the webhook comes.
 */

export const CHECK_EVERY_MS = 15 * 60_000;
export const CHECK_OVERLAP_MS = 30 * 60_000;
export const WEBHOOK_GRACE_MS = 10 * 60_000;
/** However long the app was stopped, a check looks back at most this far. */
export const LONGEST_LOOKBACK_MS = 7 * 24 * 60 * 60_000;
/**
 * Shops checked per run (a run at most once a minute per process): 50 keeps up with 750 shops per
 * process every 15 minutes; 5 kept up with only 75, and the rest fell behind.
 */
const SHOPS_PER_RUN = 50;

/** Shopify's fulfillment statuses whose webhook would have sent a delivery. */
const LIVE_STATUSES = new Set(["SUCCESS", "OPEN", "PENDING"]);

export interface FulfillmentCheckDependencies {
  adminFor(shop: string): Promise<AdminGraphql>;
  now?: () => Date;
}

export interface ShopCheckResult {
  /** Fulfillments in the window Shopify listed. */
  seen: number;
  /** Deliveries recorded for fulfillments that had none, and sent on. */
  recovered: number;
}

/** Runs the checks that are due (rows made for new shops first); returns what each found. */
export async function runDueFulfillmentChecks(
  deps: FulfillmentCheckDependencies,
): Promise<Map<string, ShopCheckResult | Error>> {
  const at = deps.now?.() ?? new Date();
  await ensureFulfillmentChecks(at, new Date(at.getTime() + CHECK_EVERY_MS));
  const due = await claimDueFulfillmentChecks(
    at,
    new Date(at.getTime() + CHECK_EVERY_MS),
    SHOPS_PER_RUN,
  );
  const results = new Map<string, ShopCheckResult | Error>();
  for (const check of due) {
    try {
      results.set(check.shop, await checkShop(check, deps, at));
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      results.set(check.shop, failure);
      // Throttled: again once the bucket allows; otherwise at the next regular check. The window
      // is not moved, so nothing it covered is skipped.
      await finishFulfillmentCheck(check.shop, {
        lastError: failure.message,
        at,
        retryAt: error instanceof ShopifyThrottledError ? error.retryAt : null,
      });
    }
  }
  return results;
}

/** Checks one shop from `checkedUntil` (less the overlap) to `at` (less the grace). */
export async function checkShop(
  {
    shop,
    checkedUntil,
    recoverFrom,
  }: Pick<FulfillmentCheck, "shop" | "checkedUntil" | "recoverFrom">,
  deps: FulfillmentCheckDependencies,
  at: Date,
): Promise<ShopCheckResult> {
  const settings = await getShopSettings(shop);
  // Automatic sending off (the webhook's rule): nothing is recorded, and the window moves on, so
  // fulfillments made while it was off are not sent when it is turned on.
  if (!settings || settings.uninstalledAt || !settings.autoSend) {
    await finishFulfillmentCheck(shop, { checkedUntil: at, at, recoverFrom: at });
    return { seen: 0, recovered: 0 };
  }
  // To the second below: Shopify's times have no milliseconds.
  const since = new Date(
    Math.floor(
      Math.max(
        checkedUntil.getTime() - CHECK_OVERLAP_MS,
        recoverFrom.getTime(),
        at.getTime() - LONGEST_LOOKBACK_MS,
      ) / 1000,
    ) * 1000,
  );
  const graceEnd = at.getTime() - WEBHOOK_GRACE_MS;
  const admin = pacedAdmin(shop, await deps.adminFor(shop), () => deps.now?.() ?? new Date());
  const candidates: RecentFulfillment[] = [];
  let seen = 0;
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const page = await fetchRecentFulfillmentPage(admin, since, cursor);
    for (const f of page.fulfillments) {
      // Made in the window (an old fulfillment of an order updated since is not new), and long
      // enough ago that its webhook is late rather than on its way.
      const made = f.createdAt.getTime();
      if (made < since.getTime() || made > graceEnd) continue;
      seen += 1;
      if (LIVE_STATUSES.has(f.status)) candidates.push(f);
    }
    cursor = page.nextCursor;
  }
  const known = await fulfillmentsWithDeliveries(
    shop,
    candidates.map((f) => f.fulfillmentId),
  );
  let recovered = 0;
  for (const f of candidates) {
    if (known.has(f.fulfillmentId)) continue;
    const outcome = await receiveFulfillment(shop, asWebhook(f), "recovered");
    if (outcome.state === "pending" && !outcome.duplicate) recovered += 1;
  }
  await finishFulfillmentCheck(shop, { checkedUntil: at, at });
  return { seen, recovered };
}

const legacyId = (gid: string) => gid.slice(gid.lastIndexOf("/") + 1);

/** The fulfillment as the fulfillments/create webhook would have carried it. */
function asWebhook(f: RecentFulfillment) {
  return fulfillmentWebhook.parse({
    id: legacyId(f.fulfillmentId),
    admin_graphql_api_id: f.fulfillmentId,
    order_id: legacyId(f.orderId),
    location_id: f.locationId ? legacyId(f.locationId) : null,
    name: f.orderName,
    status: f.status.toLowerCase(),
    destination: { country_code: f.countryCode },
  });
}
