import { buildCourierIndex, type CourierIndex } from "../addresses";
import { getCachedMasterData, masterDataFetchedAt } from "../models/courier-account.server";
import type { CourierEnvironment } from "../models/shop.server";

/**
 * The courier's governances and areas for a shop, from the cached master data, in the shapes the
 * pages (pickers) and the matcher (an index by normalized name) need.
 */
export interface CourierDirectory {
  environment: CourierEnvironment;
  fetchedAt: Date;
  governances: { id: number; name: string }[];
  areas: { id: number; governanceId: number; name: string }[];
  index: CourierIndex;
}

/**
 * Built directories by shop and environment, the most recently used last. A page asks for one on
 * every request (the shopper's page on each load); checking that the stored master data is still
 * the one built costs one indexed read of a timestamp, where reading and decoding the courier's
 * whole area list again cost most of the request. Bounded: a server of many shops keeps only the
 * ones in use.
 */
const cache = new Map<string, CourierDirectory>();
const CACHED_SHOPS = 200;

export async function loadCourierDirectory(
  shop: string,
  environment: CourierEnvironment,
): Promise<CourierDirectory | null> {
  const key = `${shop}|${environment}`;
  const known = cache.get(key);
  if (known) {
    // Left in place while the fetch time is read: requests meanwhile use it too (taken out first,
    // a burst of 25 leases each missed and rebuilt it: the pipeline ran 20 % slower).
    const fetchedAt = await masterDataFetchedAt(shop, environment);
    if (fetchedAt?.getTime() === known.fetchedAt.getTime()) {
      if (cache.get(key) === known) {
        cache.delete(key);
        cache.set(key, known);
      }
      return known;
    }
  }
  const cached = await getCachedMasterData(shop, environment);
  if (!cached) return null;

  const governances = cached.governances.map((g) => ({
    id: g.governanceId,
    name: g.governanceName,
  }));
  // Records the courier sent without an id or name cannot be chosen or matched; they are left out.
  const areas = cached.areas.flatMap((a) =>
    a.areaId !== null && a.areaName !== null
      ? [{ id: a.areaId, governanceId: a.governanceId, name: a.areaName }]
      : [],
  );
  const directory: CourierDirectory = {
    environment,
    fetchedAt: cached.fetchedAt,
    governances,
    areas,
    index: buildCourierIndex({
      governances: governances.map((g) => ({ governanceId: g.id, governanceName: g.name })),
      areas: areas.map((a) => ({ areaId: a.id, governanceId: a.governanceId, areaName: a.name })),
    }),
  };
  cache.set(key, directory);
  if (cache.size > CACHED_SHOPS) cache.delete(cache.keys().next().value!);
  return directory;
}
