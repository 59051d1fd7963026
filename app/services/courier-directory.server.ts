import { buildCourierIndex, type CourierIndex } from "../addresses";
import { getCachedMasterData } from "../models/courier-account.server";
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

const cache = new Map<string, CourierDirectory>();

export async function loadCourierDirectory(
  shop: string,
  environment: CourierEnvironment,
): Promise<CourierDirectory | null> {
  const cached = await getCachedMasterData(shop, environment);
  if (!cached) return null;
  const key = `${shop}|${environment}`;
  const known = cache.get(key);
  if (known && known.fetchedAt.getTime() === cached.fetchedAt.getTime()) return known;

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
  return directory;
}
