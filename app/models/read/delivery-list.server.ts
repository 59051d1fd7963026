import type { Delivery, Prisma } from "@prisma/client";
import prisma from "../../db.server";
import { ACTIVE_TRACKED_STATES } from "../../domain/courier-status";
import { DELIVERY_STATES, parseState, type DeliveryState } from "../../domain/states";
import { STUCK_AFTER_MS } from "../../domain/tracking-plan";
import { deliveryRow, type DeliveryRow } from "../delivery-row.server";
import { parseEnvironment, type CourierEnvironment } from "../shop.server";
import {
  foldName,
  phoneDigits,
  TAB_STATES,
  type Cursor,
  type ListSort,
  type ListTab,
} from "./delivery-list";

export * from "./delivery-list";

/**
 * The deliveries list's queries (ADR 0041), the one module for them: the list's keyset pages,
 * the address review's queue, and whether a parcel is stuck. The list (ADR 0041): keyset pages in creation order, whose cost depends on the page
 * size and not on how many deliveries the shop has. Each read walks one index range from the
 * cursor and stops after a page:
 * - a tab (a set of states) reads each state's range of (shop, state, createdAt, id) and merges
 *   them, so no query sorts the shop's rows;
 * - an area or governorate filter walks (shop, areaId | governanceId, createdAt, id), with the
 *   tab's states checked on the rows it meets;
 * - a search looks each kind of key up by prefix on its own index (order name, courier number,
 *   phone digits, name from its first or second word), at most SEARCH_LIMIT matches each, then
 *   pages through those.
 * Every query is scoped by shop. Rows leave typed (ADR 0032): a list row's state and environment
 * are parsed here, the queue's rows are whole `DeliveryRow`s.
 */

/** Tracked states in which a parcel that has not moved counts as stuck (attention tab). */
const STUCK_STATES = ACTIVE_TRACKED_STATES.filter((s) => !TAB_STATES.attention!.includes(s));

/** At most this many matches of each kind of search key are considered. */
export const SEARCH_LIMIT = 500;
export const MAX_PAGE_SIZE = 100;

export interface ListFilters {
  /** Created at or after / before (exclusive) these instants. */
  from?: Date;
  to?: Date;
  /** Reached its state (its outcome, for a final one) in [from, to): lastMovedAt. */
  finished?: { from: Date; to: Date };
  governanceId?: number;
  areaId?: number;
  /** Cash to collect on delivery, or nothing to collect. */
  cod?: "cod" | "prepaid";
  states?: readonly DeliveryState[];
}

export interface ListQuery {
  shop: string;
  tab?: ListTab;
  filters?: ListFilters;
  search?: string;
  sort?: ListSort;
  /** The page after this row (in the sort's order), or the page before this one. */
  after?: Cursor;
  before?: Cursor;
  pageSize?: number;
  now?: Date;
}

const LIST_SELECT = {
  id: true,
  orderName: true,
  customerName: true,
  governanceId: true,
  areaId: true,
  cashToCollect: true,
  state: true,
  stateReason: true,
  courierOrderNumber: true,
  environment: true,
  createdAt: true,
  lastMovedAt: true,
  trackingPushedAt: true,
  waitingSince: true,
  waitingFor: true, // read by domain/waits.ts's longWait
  // For the CSV export, which reads the list whole by the same queries (one read a page).
  courierStatus: true,
  trackingUrl: true,
  updatedAt: true,
} satisfies Prisma.DeliverySelect;

type ListRecord = Prisma.DeliveryGetPayload<{ select: typeof LIST_SELECT }>;

/** A list row as the page reads it: its state and environment typed. */
export type ListRow = Omit<ListRecord, "state" | "environment"> & {
  state: DeliveryState;
  environment: CourierEnvironment;
};

function listRow(record: ListRecord): ListRow {
  return {
    ...record,
    state: parseState(record.state),
    environment: parseEnvironment(record.environment),
  };
}

export interface ListPage {
  rows: ListRow[];
  /** Cursors of the next and previous pages; null when there is none. */
  next: Cursor | null;
  previous: Cursor | null;
  /** A search key matched more than SEARCH_LIMIT deliveries: the merchant should type more. */
  searchTruncated: boolean;
  /** More than SEARCH_LIMIT deliveries finished on the day asked: the list shows some of them. */
  finishedTruncated: boolean;
}

/** `column` starts with `prefix`: a range on the column's index (both databases compare bytes). */
const startsWith = (prefix: string) => ({ gte: prefix, lt: `${prefix}\u{10FFFF}` });

/** The tab's rows: its states, and for `attention` the stuck parcels. */
export function tabWhere(tab: ListTab, now: Date): Prisma.DeliveryWhereInput {
  const states = TAB_STATES[tab];
  if (states === null) return {};
  if (tab !== "attention") return { state: { in: [...states] } };
  return {
    OR: [{ state: { in: [...states] } }, { state: { in: [...STUCK_STATES] }, ...stuckWhere(now) }],
  };
}

/** Whether a delivery is stuck: tracked, not final, and unmoved for STUCK_AFTER_MS. */
export function isStuck(
  delivery: Pick<Delivery, "state" | "lastMovedAt" | "trackingPushedAt">,
  now = new Date(),
): boolean {
  const since = delivery.lastMovedAt ?? delivery.trackingPushedAt;
  return (
    // A raw row's state too: the tracking sync reads its own.
    ACTIVE_TRACKED_STATES.includes(parseState(delivery.state)) &&
    since !== null &&
    now.getTime() - since.getTime() > STUCK_AFTER_MS
  );
}

/** Tracked, and not moved for STUCK_AFTER_MS (as `isStuck`). */
export function stuckWhere(now: Date): Prisma.DeliveryWhereInput {
  const cutoff = new Date(now.getTime() - STUCK_AFTER_MS);
  return {
    trackingPushedAt: { not: null },
    OR: [{ lastMovedAt: { lt: cutoff } }, { lastMovedAt: null, trackingPushedAt: { lt: cutoff } }],
  };
}

function filtersWhere(filters: ListFilters): Prisma.DeliveryWhereInput[] {
  const where: Prisma.DeliveryWhereInput[] = [];
  if (filters.from || filters.to) {
    where.push({
      createdAt: {
        ...(filters.from ? { gte: filters.from } : {}),
        ...(filters.to ? { lt: filters.to } : {}),
      },
    });
  }
  if (filters.finished) {
    where.push({ lastMovedAt: { gte: filters.finished.from, lt: filters.finished.to } });
  }
  if (filters.governanceId !== undefined) where.push({ governanceId: filters.governanceId });
  if (filters.areaId !== undefined) where.push({ areaId: filters.areaId });
  if (filters.cod === "cod") where.push({ cashToCollect: { not: null } });
  if (filters.cod === "prepaid") where.push({ cashToCollect: null });
  if (filters.states && filters.states.length > 0) {
    where.push({ state: { in: [...filters.states] } });
  }
  return where;
}

/**
 * Rows after the cursor in the direction read. `createdAt <= t` is written out beside the OR so
 * that both databases start the index range at the cursor instead of filtering from the top.
 */
function keysetWhere(cursor: Cursor | undefined, descending: boolean): Prisma.DeliveryWhereInput {
  if (!cursor) return {};
  const { createdAt, id } = cursor;
  return descending
    ? {
        createdAt: { lte: createdAt },
        OR: [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: id } }],
      }
    : {
        createdAt: { gte: createdAt },
        OR: [{ createdAt: { gt: createdAt } }, { createdAt, id: { gt: id } }],
      };
}

const compareRows = (descending: boolean) => (a: ListRow, b: ListRow) => {
  const byTime = a.createdAt.getTime() - b.createdAt.getTime();
  const order = byTime !== 0 ? byTime : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  return descending ? -order : order;
};

/** The ids whose search keys start with what was typed: each kind on its own index. */
async function searchIds(
  shop: string,
  search: string,
): Promise<{ ids: string[]; truncated: boolean }> {
  const typed = search.trim();
  const lookups: Prisma.DeliveryWhereInput[] = [];
  const orderNumber = /^#?\s*(\d+)$/.exec(typed);
  lookups.push({ orderName: startsWith(orderNumber ? `#${orderNumber[1]}` : typed) });
  lookups.push({ courierOrderNumber: startsWith(typed) });
  const digits = phoneDigits(typed);
  if (digits.length >= 3 && /^[\d\s+()٠-٩۰-۹-]+$/.test(typed)) {
    lookups.push({ customerPhone: startsWith(digits) });
  }
  const name = foldName(typed);
  if (/\p{L}/u.test(name)) {
    lookups.push({ nameKey: startsWith(name) }, { nameKey2: startsWith(name) });
  }
  const found = await Promise.all(
    lookups.map((where) =>
      prisma.delivery.findMany({
        where: { shop, ...where },
        select: { id: true },
        take: SEARCH_LIMIT + 1,
      }),
    ),
  );
  const ids = new Set<string>();
  let truncated = false;
  for (const rows of found) {
    if (rows.length > SEARCH_LIMIT) truncated = true;
    for (const row of rows.slice(0, SEARCH_LIMIT)) ids.add(row.id);
  }
  return { ids: [...ids], truncated };
}

/**
 * The ids of the deliveries that reached their state in the range, in the states the page may
 * show: one range of (shop, state, lastMovedAt) per state, at most SEARCH_LIMIT in all.
 */
async function finishedIds(
  shop: string,
  finished: { from: Date; to: Date },
  states: readonly DeliveryState[],
): Promise<{ ids: string[]; truncated: boolean }> {
  const rows = await prisma.delivery.findMany({
    where: {
      shop,
      state: { in: [...states] },
      lastMovedAt: { gte: finished.from, lt: finished.to },
    },
    select: { id: true },
    take: SEARCH_LIMIT + 1,
  });
  return {
    ids: rows.slice(0, SEARCH_LIMIT).map((row) => row.id),
    truncated: rows.length > SEARCH_LIMIT,
  };
}

/** One page of the shop's deliveries, newest (or oldest) first. */
export async function listDeliveryPage(query: ListQuery): Promise<ListPage> {
  return readListPage(query, MAX_PAGE_SIZE);
}

/** At most this many rows a page when the list is read whole (the CSV export). */
export const EXPORT_PAGE_SIZE = 1_000;

/**
 * Every row of the list as its filters, tab and search select them, a page at a time from the
 * query's cursor on, by the same keyset reads as the page: an export of any size holds one page,
 * and rows written meanwhile neither repeat nor shift it.
 */
export async function* listDeliveryPages(
  query: Omit<ListQuery, "before" | "pageSize">,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<ListRow[]> {
  let after = query.after;
  for (;;) {
    const page = await readListPage({ ...query, after, pageSize }, EXPORT_PAGE_SIZE);
    if (page.rows.length > 0) yield page.rows;
    if (!page.next) return;
    after = page.next;
  }
}

async function readListPage(query: ListQuery, maxSize: number): Promise<ListPage> {
  const now = query.now ?? new Date();
  const tab = query.tab ?? "all";
  const size = Math.min(maxSize, Math.max(1, query.pageSize ?? 50));
  const sortDescending = (query.sort ?? "newest") === "newest";
  // Going back reads the other way from the page's first row, then turns the rows around.
  const backwards = query.before !== undefined;
  const descending = backwards ? !sortDescending : sortDescending;
  const cursor = query.before ?? query.after;
  const filters = query.filters ?? {};
  const direction = descending ? ("desc" as const) : ("asc" as const);
  const orderBy = [{ createdAt: direction }, { id: direction }];
  const base: Prisma.DeliveryWhereInput[] = [
    { shop: query.shop },
    ...filtersWhere(filters),
    keysetWhere(cursor, descending),
  ];

  let rows: ListRow[];
  let searchTruncated = false;
  let finishedTruncated = false;
  const read = async (where: Prisma.DeliveryWhereInput[]) =>
    (
      await prisma.delivery.findMany({
        where: { AND: where },
        orderBy,
        take: size + 1,
        select: LIST_SELECT,
      })
    ).map(listRow);

  const search = query.search?.trim();
  if (search) {
    const { ids, truncated } = await searchIds(query.shop, search);
    searchTruncated = truncated;
    rows = ids.length === 0 ? [] : await read([...base, tabWhere(tab, now), { id: { in: ids } }]);
  } else if (filters.finished) {
    // The day's index range drives (a day's outcomes, whatever the shop's history); the tab, the
    // filters and the page's cursor are checked on those rows.
    const shown =
      filters.states && filters.states.length > 0
        ? filters.states
        : [...(TAB_STATES[tab] ?? DELIVERY_STATES), ...(tab === "attention" ? STUCK_STATES : [])];
    const { ids, truncated } = await finishedIds(query.shop, filters.finished, shown);
    finishedTruncated = truncated;
    rows = ids.length === 0 ? [] : await read([...base, tabWhere(tab, now), { id: { in: ids } }]);
  } else if (filters.areaId !== undefined || filters.governanceId !== undefined) {
    // The place's index drives; the tab's states are checked on the rows it meets.
    rows = await read([...base, tabWhere(tab, now)]);
  } else {
    const tabStates = TAB_STATES[tab];
    const wanted =
      filters.states && filters.states.length > 0
        ? tabStates === null
          ? filters.states
          : filters.states.filter(
              (s) => tabStates.includes(s) || (tab === "attention" && STUCK_STATES.includes(s)),
            )
        : tabStates;
    if (wanted === null) {
      rows = await read(base);
    } else {
      // One index range per state, merged: no query sorts more than a page.
      const perState = wanted.map((state) =>
        read([
          ...base,
          { state },
          ...(tab === "attention" && STUCK_STATES.includes(state) ? [stuckWhere(now)] : []),
        ]),
      );
      if (tab === "attention" && !(filters.states && filters.states.length > 0)) {
        for (const state of STUCK_STATES)
          perState.push(read([...base, { state }, stuckWhere(now)]));
      }
      rows = (await Promise.all(perState)).flat().sort(compareRows(descending));
    }
  }

  const more = rows.length > size;
  const page = rows.slice(0, size);
  if (backwards) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  const at = (row: ListRow | undefined): Cursor | null =>
    row ? { createdAt: row.createdAt, id: row.id } : null;
  return {
    rows: page,
    // Forwards: a next page when more rows were read; a previous one when we came from a cursor.
    // Backwards: the other way round.
    next: backwards ? at(last) : more ? at(last) : null,
    previous: backwards ? (more ? at(first) : null) : cursor ? at(first) : null,
    searchTruncated,
    finishedTruncated,
  };
}

/**
 * The deliveries waiting in one state, newest first, whole (the address review reads each one's
 * address match): one range of the (shop, state, createdAt, id) index.
 */
export async function listDeliveriesInState(
  shop: string,
  state: DeliveryState,
  limit: number,
): Promise<DeliveryRow[]> {
  const rows = await prisma.delivery.findMany({
    where: { shop, state },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map(deliveryRow);
}
