import { z } from "zod";
import type { CourierClient } from "./client";
import type { CourierLanguage } from "./endpoints";
import { governanceSchema, type Area, type Governance } from "./results";

/** Governances and all their areas, as the courier names them. */
export interface CourierMasterData {
  governances: Governance[];
  /** Every area, with `governanceId` set to the governance it was listed under. */
  areas: Array<Area & { governanceId: number }>;
}

/**
 * The shapes of {@link CourierMasterData} once read (the app keeps them as JSON): governances as
 * the document gives them, areas as the client read them (`raw` is the courier's record).
 */
export const masterDataSchemas = {
  governances: z.array(governanceSchema),
  areas: z.array(
    z.object({
      areaId: z.int().nullable(),
      areaName: z.string().nullable(),
      governanceId: z.int(),
      raw: z.record(z.string(), z.unknown()),
    }),
  ),
};

/**
 * Fetches the governances, then the areas of each, a few at a time (default 3) so a courier with
 * many governances is not hit all at once. Rejects with the first `CourierError`.
 */
export async function fetchMasterData(
  client: CourierClient,
  options: { lang?: CourierLanguage; concurrency?: number } = {},
): Promise<CourierMasterData> {
  const governances = await client.governances(options.lang);
  const lists = await mapConcurrently(governances, options.concurrency ?? 3, (governance) =>
    client.areas(governance.governanceId, options.lang),
  );
  const areas = lists.flatMap((list, i) => {
    const governanceId = governances[i]?.governanceId;
    // The listing the area came from is authoritative; a record's own governance field may be absent.
    return governanceId === undefined ? [] : list.map((area) => ({ ...area, governanceId }));
  });
  return { governances, areas };
}

/** "Test connection": how many governances and areas the key can read. */
export async function testConnection(
  client: CourierClient,
): Promise<{ governances: number; areas: number }> {
  const data = await fetchMasterData(client);
  return { governances: data.governances.length, areas: data.areas.length };
}

/** `map` with at most `limit` calls in flight; results in input order; stops at the first failure. */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as T, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  await Promise.all(workers);
  return results;
}
