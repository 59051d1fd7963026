import prisma from "../../db.server";
import { addressMatchColumn } from "../../domain/address-match";
import { Unreadable } from "../../domain/json-column";

/**
 * Where the shopper's address points, for rows of a list page that have no courier area yet
 * (waiting for their address, issue 29): the gazetteer area the matcher recognised (its English
 * name) or the city as typed. One read by id of at most a page of rows.
 */
export async function typedPlacesOf(
  shop: string,
  ids: readonly string[],
): Promise<Map<string, { area: string | null; city: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await prisma.delivery.findMany({
    where: { shop, id: { in: [...ids] } },
    select: { id: true, addressMatch: true },
  });
  const places = new Map<string, { area: string | null; city: string | null }>();
  for (const row of rows) {
    const match = addressMatchColumn.decodeNullable(row.addressMatch);
    if (match === null || match instanceof Unreadable) continue;
    places.set(row.id, { area: match.area ?? null, city: match.input?.city?.trim() || null });
  }
  return places;
}
