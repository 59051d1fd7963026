import {
  findArea,
  matchAddress,
  resolveCourierIds,
  type AreaOverride,
  type GazetteerArea,
} from "../addresses";
import {
  bandFor,
  cartValueFils,
  cartWeightKg,
  checkoutLanguage,
  decideRate,
  deliveryPromise,
  destinationForMatcher,
  rateRequestSchema,
  rateWords,
  shopifyRates,
  type RateRequest,
} from "../domain/checkout-rates";
import { kuwaitDay } from "../domain/working-days";
import { env } from "../env.server";
import { listAreaOverrides } from "../models/area-overrides.server";
import {
  findCheckoutRatesByToken,
  listAreaPrices,
  type CheckoutRateSettingsRow,
} from "../models/checkout-rates.server";
import { listPickupLocations } from "../models/pickup-locations.server";
import { getShopSettings } from "../models/shop.server";
import { loadCourierDirectory, type CourierDirectory } from "../services/courier-directory.server";
import { shopifySignatureMatches } from "../shopify/webhook-hmac";
import { countRateRequest } from "./rate-tally.server";

/**
 * The carrier service's callback (issue 28, ADR 0062): Shopify asks for rates on every checkout
 * update and waits at most 10 s (3 s under load), so the answer comes from memory. Per shop, a
 * snapshot of what the answer needs (the merchant's choices, the price table, the courier's area
 * list, the remembered spellings, the pickup areas) is loaded once and reloaded in the background
 * when it is a few seconds old: no request waits for the database but the first of a shop, and
 * none ever waits for the courier. The destination is placed by the matcher in-process.
 */

/** How old a snapshot may be before a request starts reloading it (it is still used meanwhile). */
const FRESH_FOR_MS = 10_000;
/** A snapshot unused this long is dropped; a server of many shops keeps only the busy ones. */
const CACHED_SHOPS = 500;
/**
 * Destinations placed, remembered per shop: checkout asks again on every update of the same
 * checkout, and the matcher was half of the callback's own CPU time (bench:rates).
 */
const PLACES_PER_SHOP = 1_000;

interface Snapshot {
  settings: CheckoutRateSettingsRow;
  active: boolean;
  directory: CourierDirectory | null;
  overrides: AreaOverride[];
  /** Courier area ids of the pickup locations, in the order a request's origin is tried. */
  pickupAreaIds: number[];
  /** `${originAreaId}:${areaId}:${bandKg}` → fils. */
  prices: Map<string, number>;
  /** The matcher's input → the area it placed with confidence, or null; most recent last. */
  places: Map<string, GazetteerArea | null>;
  loadedAt: number;
}

interface Entry {
  snapshot: Snapshot | null;
  loading: Promise<Snapshot | null> | null;
}

const snapshots = new Map<string, Entry>();

const priceKey = (origin: number, area: number, band: number) => `${origin}:${area}:${band}`;

async function loadSnapshot(token: string): Promise<Snapshot | null> {
  const settings = await findCheckoutRatesByToken(token);
  if (!settings) return null;
  const shop = settings.shop;
  const shopSettings = await getShopSettings(shop);
  if (!shopSettings) return null;
  const environment = shopSettings.courierEnvironment;
  const [directory, overrides, pickups, cells] = await Promise.all([
    loadCourierDirectory(shop, environment),
    listAreaOverrides(shop),
    listPickupLocations(shop),
    listAreaPrices(shop, environment),
  ]);
  const prices = new Map<string, number>();
  for (const c of cells) prices.set(priceKey(c.originAreaId, c.areaId, c.bandKg), c.priceFils);
  return {
    settings,
    active: shopSettings.uninstalledAt === null,
    directory,
    overrides,
    pickupAreaIds: [...pickups].sort((a, b) => a.name.localeCompare(b.name)).map((p) => p.areaId),
    prices,
    places: new Map(),
    loadedAt: Date.now(),
  };
}

/** The same remembered spellings: places found with the old ones still hold. */
const sameOverrides = (a: AreaOverride[], b: AreaOverride[]) =>
  a.length === b.length && JSON.stringify(a) === JSON.stringify(b);

function reload(token: string, entry: Entry): Promise<Snapshot | null> {
  entry.loading ??= loadSnapshot(token)
    .then((snapshot) => {
      const previous = entry.snapshot;
      if (snapshot && previous && sameOverrides(previous.overrides, snapshot.overrides))
        snapshot.places = previous.places;
      entry.snapshot = snapshot;
      return snapshot;
    })
    .finally(() => {
      entry.loading = null;
    });
  return entry.loading;
}

async function snapshotFor(token: string): Promise<Snapshot | null> {
  let entry = snapshots.get(token);
  if (!entry) {
    entry = { snapshot: null, loading: null };
    snapshots.set(token, entry);
    if (snapshots.size > CACHED_SHOPS) snapshots.delete(snapshots.keys().next().value!);
  } else {
    // Most recently used last.
    snapshots.delete(token);
    snapshots.set(token, entry);
  }
  const known = entry.snapshot;
  if (known) {
    if (Date.now() - known.loadedAt > FRESH_FOR_MS)
      reload(token, entry).catch((error: unknown) =>
        console.warn(
          `Checkout rates: the shop's prices were not reloaded: ${(error as Error).message}`,
        ),
      );
    return known;
  }
  const loaded = await reload(token, entry);
  // An unknown token is not remembered (a guesser must not fill the cache).
  if (!loaded) snapshots.delete(token);
  return loaded;
}

/** Drops the cached snapshots (a test changed the rows under them; Settings saved new choices). */
export function forgetRateSnapshots(shop?: string): void {
  if (shop === undefined) return snapshots.clear();
  for (const [token, entry] of snapshots)
    if (entry.snapshot?.settings.shop === shop) snapshots.delete(token);
}

/** The pickup area a request's origin is, as far as the app can tell: the only one, or the first. */
function originAreaId(snapshot: Snapshot, rate: RateRequest): number | null {
  if (snapshot.pickupAreaIds.length <= 1 || !snapshot.directory || !rate.origin)
    return snapshot.pickupAreaIds[0] ?? null;
  const origin = matchAddress(destinationForMatcher(rate.origin));
  if (origin.area && origin.confident) {
    const ids = resolveCourierIds(origin.area, snapshot.directory.index);
    if (ids.status === "resolved" && snapshot.pickupAreaIds.includes(ids.areaId)) return ids.areaId;
  }
  return snapshot.pickupAreaIds[0]!;
}

export interface RateAnswer {
  status: number;
  body: unknown;
}

const refuse = (status: number, message: string): RateAnswer => ({
  status,
  body: { error: message },
});

/**
 * Answers one rate request. `signature` is Shopify's `X-Shopify-Hmac-Sha256`, `shopDomain` its
 * `X-Shopify-Shop-Domain`. Unknown token: 404; wrong or missing signature: 401; a body that is not
 * a rate request: 400 (each makes Shopify show the shop's backup rates, never "cannot ship").
 */
export async function answerRateRequest(input: {
  token: string;
  rawBody: Buffer;
  signature: string | null;
  shopDomain: string | null;
  now?: Date;
}): Promise<RateAnswer> {
  const config = env();
  const snapshot = await snapshotFor(input.token);
  if (!snapshot || !snapshot.active) return refuse(404, "Unknown rates address.");
  const signed = input.signature
    ? shopifySignatureMatches(input.rawBody, input.signature, config.SHOPIFY_API_SECRET)
    : null;
  if (signed === false || (signed === null && config.CHECKOUT_RATES_SIGNATURE === "required"))
    return refuse(401, "Invalid signature.");
  if (input.shopDomain && input.shopDomain !== snapshot.settings.shop)
    return refuse(401, "This address belongs to another shop.");
  let json: unknown;
  try {
    json = JSON.parse(input.rawBody.toString("utf8"));
  } catch {
    return refuse(400, "The body is not JSON.");
  }
  const parsed = rateRequestSchema.safeParse(json);
  if (!parsed.success) return refuse(400, "The body is not a Shopify rate request.");
  return { status: 200, body: rateFor(snapshot, parsed.data.rate, input.now ?? new Date()) };
}

/** The area the matcher places a destination in with confidence (remembered), or null. */
function placeDestination(
  snapshot: Snapshot,
  destination: ReturnType<typeof destinationForMatcher>,
): GazetteerArea | null {
  const { places } = snapshot;
  const key = JSON.stringify([
    destination.countryCode,
    destination.provinceCode,
    destination.city,
    destination.address1,
    destination.address2,
    destination.zip,
  ]);
  const known = places.get(key);
  if (known !== undefined) {
    places.delete(key);
    places.set(key, known);
    return known;
  }
  const match = matchAddress(destination, { overrides: snapshot.overrides });
  const area = match.area && match.confident ? (findArea(match.area.nameEn) ?? match.area) : null;
  places.set(key, area);
  if (places.size > PLACES_PER_SHOP) places.delete(places.keys().next().value!);
  return area;
}

function rateFor(snapshot: Snapshot, rate: RateRequest, now: Date) {
  const { settings } = snapshot;
  const destination = destinationForMatcher(rate.destination);
  const inKuwait = destination.countryCode === "KW";
  let area: GazetteerArea | null = null;
  let courierFils: number | null = null;
  const weightKg = cartWeightKg(rate.items);
  const band = bandFor(weightKg);
  if (inKuwait) {
    area = placeDestination(snapshot, destination);
    if (area) {
      const origin = originAreaId(snapshot, rate);
      const ids = snapshot.directory ? resolveCourierIds(area, snapshot.directory.index) : null;
      if (origin !== null && band !== null && ids?.status === "resolved")
        courierFils = snapshot.prices.get(priceKey(origin, ids.areaId, band)) ?? null;
    }
  }
  const decision = decideRate(
    {
      inKuwait,
      area: area?.nameEn ?? null,
      courierFils,
      tooHeavy: band === null,
      cartFils: cartValueFils(rate),
    },
    settings,
  );
  countRateRequest(settings.shop, kuwaitDay(now), area?.nameEn ?? "", decision.outcome);
  const promise = deliveryPromise(now, settings);
  const language = checkoutLanguage(rate.locale);
  const words = rateWords({
    language,
    promise,
    outcome: decision.outcome,
    courierName: env().COURIER_DISPLAY_NAME,
    areaName: area ? (language === "ar" ? area.nameAr : area.nameEn) : null,
  });
  return shopifyRates(decision, words, promise);
}
