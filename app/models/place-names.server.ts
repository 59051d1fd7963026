import { findArea, findAreaAsCourierWrites, findGovernorate } from "../addresses";
import prisma from "../db.server";
import { getCachedMasterData, type MasterDataSnapshot } from "./courier-account.server";
import type { CourierEnvironment } from "./shop.server";

/**
 * The courier's governance and area ids as names in the page's language: the courier's own
 * names (Arabic, as its master data gives them), matched to the gazetteer for the English ones.
 * Read from the shop's cached master data, and kept in memory until that is fetched again.
 */

export type PlaceLanguage = "en" | "ar";

export interface PlaceName {
  id: number;
  en: string;
  ar: string;
}

export interface PlaceNames {
  governorates: PlaceName[];
  /** Areas with the governance they belong to. */
  areas: (PlaceName & { governanceId: number })[];
}

const cache = new Map<string, { fetchedAt: number; names: PlaceNames }>();
const EMPTY: PlaceNames = { governorates: [], areas: [] };

const text = (...values: unknown[]) =>
  values.find((v): v is string => typeof v === "string" && v.trim() !== "")?.trim() ?? null;

function build(masterData: MasterDataSnapshot): PlaceNames {
  const governorates: PlaceName[] = [];
  for (const g of masterData.governances) {
    const name = text(g.governanceName, g.name, g.nameAr);
    if (name === null) continue;
    const known = findGovernorate(name);
    governorates.push({ id: g.governanceId, ar: known?.nameAr ?? name, en: known?.nameEn ?? name });
  }
  const areas: PlaceNames["areas"] = [];
  for (const a of masterData.areas) {
    const inner = a.raw;
    const name = text(a.areaName, inner.areaName, inner.name, inner.areaNameAr, inner.nameAr);
    if (a.areaId === null || name === null) continue;
    const english = text(inner.areaNameEn, inner.nameEn, inner.englishName);
    const known = findAreaAsCourierWrites(name) ?? (english ? findArea(english) : undefined);
    areas.push({
      id: a.areaId,
      governanceId: a.governanceId,
      ar: known?.nameAr ?? name,
      en: known?.nameEn ?? english ?? name,
    });
  }
  return { governorates, areas };
}

export async function getPlaceNames(
  shop: string,
  environment: CourierEnvironment,
): Promise<PlaceNames> {
  const where = { shop_environment: { shop, environment } };
  const stamp = await prisma.courierMasterData.findUnique({ where, select: { fetchedAt: true } });
  if (!stamp) return EMPTY;
  const key = `${shop}\u0000${environment}`;
  const cached = cache.get(key);
  if (cached && cached.fetchedAt === stamp.fetchedAt.getTime()) return cached.names;
  // Decoded through the master data's codecs; one that does not read counts as not fetched.
  const masterData = await getCachedMasterData(shop, environment);
  if (!masterData) return EMPTY;
  const names = build(masterData);
  if (cache.size > 500) cache.clear();
  cache.set(key, { fetchedAt: masterData.fetchedAt.getTime(), names });
  return names;
}
