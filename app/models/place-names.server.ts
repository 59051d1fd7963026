import { findArea, findGovernorate } from "../addresses";
import prisma from "../db.server";

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

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
const int = (value: unknown) =>
  typeof value === "number" && Number.isInteger(value)
    ? value
    : typeof value === "string" && /^\d+$/.test(value)
      ? Number(value)
      : null;
const text = (...values: unknown[]) =>
  values.find((v): v is string => typeof v === "string" && v.trim() !== "")?.trim() ?? null;

function build(governancesJson: string, areasJson: string): PlaceNames {
  const governorates: PlaceName[] = [];
  for (const raw of JSON.parse(governancesJson) as unknown[]) {
    const g = record(raw);
    const id = int(g.governanceId);
    const name = text(g.governanceName, g.name, g.nameAr);
    if (id === null || name === null) continue;
    const known = findGovernorate(name);
    governorates.push({ id, ar: known?.nameAr ?? name, en: known?.nameEn ?? name });
  }
  const areas: PlaceNames["areas"] = [];
  for (const raw of JSON.parse(areasJson) as unknown[]) {
    const a = record(raw);
    const inner = record(a.raw);
    const id = int(a.areaId ?? inner.areaId ?? inner.id);
    const governanceId = int(a.governanceId ?? inner.governanceId);
    const name = text(a.areaName, inner.areaName, inner.name, inner.areaNameAr, inner.nameAr);
    if (id === null || governanceId === null || name === null) continue;
    const english = text(inner.areaNameEn, inner.nameEn, inner.englishName);
    const known = findArea(name) ?? (english ? findArea(english) : undefined);
    areas.push({
      id,
      governanceId,
      ar: known?.nameAr ?? name,
      en: known?.nameEn ?? english ?? name,
    });
  }
  return { governorates, areas };
}

export async function getPlaceNames(shop: string, environment: string): Promise<PlaceNames> {
  const where = { shop_environment: { shop, environment } };
  const stamp = await prisma.courierMasterData.findUnique({ where, select: { fetchedAt: true } });
  if (!stamp) return EMPTY;
  const key = `${shop}\u0000${environment}`;
  const cached = cache.get(key);
  if (cached && cached.fetchedAt === stamp.fetchedAt.getTime()) return cached.names;
  const row = await prisma.courierMasterData.findUnique({
    where,
    select: { fetchedAt: true, governances: true, areas: true },
  });
  if (!row) return EMPTY;
  let names: PlaceNames;
  try {
    names = build(row.governances, row.areas);
  } catch {
    names = EMPTY;
  }
  if (cache.size > 500) cache.clear();
  cache.set(key, { fetchedAt: row.fetchedAt.getTime(), names });
  return names;
}
