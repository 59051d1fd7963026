import { findArea } from "../../addresses/gazetteer";
import prisma from "../../db.server";
import { addressMatchColumn } from "../../domain/address-match";
import { Unreadable } from "../../domain/json-column";

/**
 * Where the shopper's address points, for rows of a list page that have no courier area yet
 * (waiting for their address, issue 29): the gazetteer area the matcher recognised (its English
 * name) or the city as typed, read by id.
 */
export async function typedPlacesOf(
  shop: string,
  ids: readonly string[],
): Promise<Map<string, { area: string | null; city: string | null }>> {
  const places = new Map<string, { area: string | null; city: string | null }>();
  // In reads of at most 500 ids: an export's page holds 1,000 rows (SQLite binds 999 at most).
  const rows = [];
  for (let i = 0; i < ids.length; i += 500) {
    rows.push(
      ...(await prisma.delivery.findMany({
        where: { shop, id: { in: ids.slice(i, i + 500) } },
        select: { id: true, addressMatch: true },
      })),
    );
  }
  for (const row of rows) {
    const match = addressMatchColumn.decodeNullable(row.addressMatch);
    if (match === null || match instanceof Unreadable) continue;
    places.set(row.id, { area: match.area ?? null, city: match.input?.city?.trim() || null });
  }
  return places;
}

/** A typed place's name in both languages: the gazetteer's names of its area, or the city as typed. */
export function typedPlaceName(
  place: { area: string | null; city: string | null } | undefined,
): { en: string; ar: string } | null {
  const area = place?.area ? findArea(place.area) : undefined;
  if (area) return { en: area.nameEn, ar: area.nameAr };
  return place?.city ? { en: place.city, ar: place.city } : null;
}
