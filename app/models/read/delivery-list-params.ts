import { z } from "zod";
import { deliveryState, type DeliveryState } from "../../domain/states";
import { decodeCursor, LIST_SORTS, LIST_TABS } from "./delivery-list";
import type { ListFilters, ListQuery } from "./delivery-list.server";

/**
 * The deliveries list's URL, read leniently: a value that is not understood is dropped (the
 * merchant sees the list without it) rather than refused, since these URLs are bookmarked and
 * shared. Dates are Kuwait days (YYYY-MM-DD); `to` includes its day.
 */

const KUWAIT_OFFSET_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The instant a Kuwait day (YYYY-MM-DD) begins, or undefined when it is not a real date. */
export function kuwaitDay(text: string | undefined): Date | undefined {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const utc = Date.parse(`${text}T00:00:00Z`);
  if (Number.isNaN(utc) || new Date(utc).toISOString().slice(0, 10) !== text) return undefined;
  return new Date(utc - KUWAIT_OFFSET_MS);
}

const id = z.coerce.number().int().min(0).max(2_147_483_647);
const params = z.object({
  tab: z.enum(LIST_TABS).catch("all"),
  q: z.string().trim().max(100).optional().catch(undefined),
  sort: z.enum(LIST_SORTS).catch("newest"),
  after: z.string().optional().catch(undefined),
  before: z.string().optional().catch(undefined),
  from: z.string().optional().catch(undefined),
  to: z.string().optional().catch(undefined),
  /** The Kuwait day the deliveries reached their outcome (Home's "delivered today"). */
  finished: z.string().optional().catch(undefined),
  governorate: id.optional().catch(undefined),
  area: id.optional().catch(undefined),
  cod: z.enum(["cod", "prepaid"]).optional().catch(undefined),
  state: z.string().optional().catch(undefined),
});

export type ListParams = z.infer<typeof params>;

export function readListParams(search: URLSearchParams): ListParams {
  return params.parse({
    tab: search.get("tab") ?? undefined,
    q: search.get("q") ?? undefined,
    sort: search.get("sort") ?? undefined,
    after: search.get("after") ?? undefined,
    before: search.get("before") ?? undefined,
    from: search.get("from") ?? undefined,
    to: search.get("to") ?? undefined,
    finished: search.get("finished") ?? undefined,
    governorate: search.get("governorate") ?? undefined,
    area: search.get("area") ?? undefined,
    cod: search.get("cod") ?? undefined,
    state: search.get("state") ?? undefined,
  });
}

export function listStates(text: string | undefined): DeliveryState[] {
  // Parsed, not cast: a state the app does not have is dropped.
  return (text ?? "").split(",").flatMap((s) => {
    const state = deliveryState.safeParse(s);
    return state.success ? [state.data] : [];
  });
}

/** The list query for a shop from the URL's parameters. */
export function listQueryOf(shop: string, p: ListParams, now = new Date()): ListQuery {
  const to = kuwaitDay(p.to);
  const finished = kuwaitDay(p.finished);
  const filters: ListFilters = {
    from: kuwaitDay(p.from),
    to: to ? new Date(to.getTime() + DAY_MS) : undefined,
    finished: finished ? { from: finished, to: new Date(finished.getTime() + DAY_MS) } : undefined,
    governanceId: p.governorate,
    areaId: p.area,
    cod: p.cod,
    states: listStates(p.state),
  };
  return {
    shop,
    tab: p.tab,
    search: p.q || undefined,
    sort: p.sort,
    after: decodeCursor(p.after) ?? undefined,
    before: p.after ? undefined : (decodeCursor(p.before) ?? undefined),
    filters,
    now,
  };
}
