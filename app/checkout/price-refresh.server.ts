import { findArea, resolveCourierIds } from "../addresses";
import { isCourierError, type CourierClient } from "../courier";
import { WEIGHT_BANDS_KG } from "../domain/checkout-rates";
import { kuwaitDay } from "../domain/working-days";
import {
  areasThatFellBack,
  findCheckoutRateSettings,
  listAreaPrices,
  saveAreaPrices,
  shopsWithRatesOn,
  type AreaPriceCell,
} from "../models/checkout-rates.server";
import { listPickupLocations } from "../models/pickup-locations.server";
import { getShopSettings, type CourierEnvironment } from "../models/shop.server";
import { merchantCourierCalls } from "../services/courier-breaker.server";
import { loadCourierDirectory } from "../services/courier-directory.server";

/**
 * The price table's filling and refreshing (issue 28, ADR 0062), in the worker: the courier's
 * price endpoint is asked for each pickup area × destination area × weight band, a few calls per
 * pass, never from the checkout callback. Order: cells missing before cells gone stale (a day),
 * the lightest band first (most carts), and within each, the areas checkout asked for and had to
 * price with the fallback first. Calls go through the account's circuit (ADR 0019): while the
 * courier does not answer, a pass stops at the first failure and the table keeps its prices.
 */

export const STALE_AFTER_MS = 24 * 3_600_000;
/** Courier calls per shop per pass, and at once. */
export const CALLS_PER_PASS = 24;
const AT_ONCE = 4;

export interface PriceRefreshDependencies {
  courierFor: (shop: string, environment: CourierEnvironment) => Promise<CourierClient | null>;
  now?: () => Date;
  callsPerPass?: number;
}

interface Target {
  origin: { governanceId: number; areaId: number };
  areaId: number;
  governanceId: number;
  bandKg: number;
}

export interface RefreshOutcome {
  /** Courier calls made. */
  asked: number;
  saved: number;
  /** Cells still missing or stale after this pass. */
  remaining: number;
  /** Why the pass stopped early, if it did. */
  stoppedBy: string | null;
}

const nothing: RefreshOutcome = { asked: 0, saved: 0, remaining: 0, stoppedBy: null };

/** One pass for one shop. */
export async function refreshShopPrices(
  shop: string,
  deps: PriceRefreshDependencies,
): Promise<RefreshOutcome> {
  const now = deps.now?.() ?? new Date();
  const [settings, shopSettings] = await Promise.all([
    findCheckoutRateSettings(shop),
    getShopSettings(shop),
  ]);
  // Only for a service Shopify took: a refused or switched-off one asks the courier for nothing.
  if (!settings?.enabled || settings.serviceProblem !== null) return nothing;
  if (!shopSettings || shopSettings.uninstalledAt !== null) return nothing;
  const environment = shopSettings.courierEnvironment;
  const [directory, pickups, cells, wanted] = await Promise.all([
    loadCourierDirectory(shop, environment),
    listPickupLocations(shop),
    listAreaPrices(shop, environment),
    areasThatFellBack(shop, kuwaitDay(new Date(now.getTime() - 86_400_000))),
  ]);
  if (!directory || pickups.length === 0) return { ...nothing, stoppedBy: "no pickup area yet" };

  const known = new Map<string, Date>();
  for (const c of cells) known.set(`${c.originAreaId}:${c.areaId}:${c.bandKg}`, c.fetchedAt);
  const wantedIds = new Set<number>();
  for (const name of wanted) {
    const area = findArea(name);
    const ids = area ? resolveCourierIds(area, directory.index) : null;
    if (ids?.status === "resolved") wantedIds.add(ids.areaId);
  }
  const areas = [...directory.areas].sort(
    (a, b) => Number(wantedIds.has(b.id)) - Number(wantedIds.has(a.id)) || a.id - b.id,
  );
  const missing: Target[] = [];
  const stale: Target[] = [];
  for (const bandKg of WEIGHT_BANDS_KG)
    for (const area of areas)
      for (const pickup of pickups) {
        const fetchedAt = known.get(`${pickup.areaId}:${area.id}:${bandKg}`);
        const target: Target = {
          origin: { governanceId: pickup.governanceId, areaId: pickup.areaId },
          areaId: area.id,
          governanceId: area.governanceId,
          bandKg,
        };
        if (!fetchedAt) missing.push(target);
        else if (now.getTime() - fetchedAt.getTime() > STALE_AFTER_MS) stale.push(target);
      }
  const due = [...missing, ...stale];
  if (due.length === 0) return nothing;
  const direct = await deps.courierFor(shop, environment);
  if (!direct) return { ...nothing, remaining: due.length, stoppedBy: "no courier key" };
  const client = merchantCourierCalls(direct, { shop, environment });

  const batch = due.slice(0, deps.callsPerPass ?? CALLS_PER_PASS);
  const got: AreaPriceCell[] = [];
  let stoppedBy: string | null = null;
  let asked = 0;
  for (let i = 0; i < batch.length && stoppedBy === null; i += AT_ONCE) {
    const group = batch.slice(i, i + AT_ONCE);
    asked += group.length;
    const answers = await Promise.allSettled(
      group.map((t) =>
        client.calculatePrice({
          pickupAddress: t.origin,
          deliveryAddress: { governanceId: t.governanceId, areaId: t.areaId },
          packageDetails: { weight: t.bandKg },
        }),
      ),
    );
    answers.forEach((answer, k) => {
      const t = group[k]!;
      if (answer.status === "rejected") {
        if (!isCourierError(answer.reason)) throw answer.reason;
        stoppedBy ??= answer.reason.message;
        return;
      }
      const { price, currency } = answer.value;
      if (
        price === null ||
        !(price >= 0) ||
        (currency !== null && currency.toUpperCase() !== "KWD")
      ) {
        stoppedBy ??= `the courier answered no price in KWD for area ${t.areaId}`;
        return;
      }
      got.push({
        originAreaId: t.origin.areaId,
        areaId: t.areaId,
        governanceId: t.governanceId,
        bandKg: t.bandKg,
        // The courier writes dinars with up to three decimals: whole fils, exactly.
        priceFils: Math.round(price * 1000),
        fetchedAt: now,
      });
    });
  }
  await saveAreaPrices(shop, environment, got);
  return { asked, saved: got.length, remaining: due.length - got.length, stoppedBy };
}

/** One pass over every shop with rates on; returns 0 so the loop paces itself on its timer. */
export async function refreshAllPrices(deps: PriceRefreshDependencies): Promise<number> {
  for (const shop of await shopsWithRatesOn()) {
    try {
      const outcome = await refreshShopPrices(shop, deps);
      if (outcome.stoppedBy && outcome.asked > 0)
        console.warn(
          `Checkout prices for ${shop}: stopped (${outcome.stoppedBy}); kept the others.`,
        );
    } catch (error) {
      console.warn(`Checkout prices for ${shop} not refreshed: ${(error as Error).message}`);
    }
  }
  return 0;
}
