import { GraphQLError } from "graphql";

// Relay connections as Shopify paginates them, and the shapes resolvers pass around.

const MAX_PAGE_SIZE = 250;

export type View = Record<string, unknown>;
export type Args = Record<string, unknown>;

export interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  reverse?: boolean | null;
}

/** A Relay connection over `items` (already sorted), paginated as Shopify does. */
export function connection<T>(
  items: readonly T[],
  args: PageArgs,
  idOf: (item: T) => number,
  view: (item: T) => View,
  sortValue: (item: T) => string | number = idOf,
): View {
  const { first, last, after, before } = args;
  if ((first === undefined || first === null) && (last === undefined || last === null)) {
    throw new GraphQLError("you must provide one of first or last");
  }
  for (const [name, size] of [
    ["first", first],
    ["last", last],
  ] as const) {
    if (size !== undefined && size !== null && (size < 0 || size > MAX_PAGE_SIZE)) {
      throw new GraphQLError(`${name} must be between 0 and ${MAX_PAGE_SIZE}`);
    }
  }
  const all = args.reverse ? [...items].reverse() : [...items];
  // Where a cursor points: just after its item. Shopify's cursor holds the item's sort value and
  // id, so it keeps its place when the item itself has left the list (an order fulfilled since
  // the page was read no longer matches `fulfillment_status:unshipped`); `items` come sorted by
  // that value, then id.
  const place = (cursor: string) => {
    const decoded = decodeCursor(cursor);
    if (!decoded) throw new GraphQLError("Invalid cursor for current pagination sort.");
    const at = all.findIndex((item) => idOf(item) === decoded.id);
    if (at >= 0) return { before: at, after: at + 1 };
    const direction = args.reverse ? -1 : 1;
    const beyond = all.findIndex((item) => {
      const value = sortValue(item);
      const mark = typeof value === "number" ? Number(decoded.value) : decoded.value;
      const order = value < mark ? -1 : value > mark ? 1 : idOf(item) - decoded.id;
      return order * direction > 0;
    });
    const index = beyond < 0 ? all.length : beyond;
    return { before: index, after: index };
  };
  let start = after ? place(after).after : 0;
  let end = before ? place(before).before : all.length;
  if (first !== undefined && first !== null) end = Math.min(end, start + first);
  if (last !== undefined && last !== null) start = Math.max(start, end - last);
  const page = all.slice(start, end);
  const cursorOf = (item: T) => encodeCursor(idOf(item), sortValue(item));
  return {
    edges: () => page.map((item) => ({ cursor: cursorOf(item), node: () => view(item) })),
    nodes: () => page.map(view),
    pageInfo: {
      hasNextPage: end < all.length,
      hasPreviousPage: start > 0,
      startCursor: page[0] === undefined ? null : cursorOf(page[0]),
      endCursor: page.length === 0 ? null : cursorOf(page[page.length - 1] as T),
    },
  };
}

// Shopify's cursors are base64 JSON of the last id and the sort value; the stand-in's look alike.
function encodeCursor(id: number, value: string | number): string {
  return Buffer.from(JSON.stringify({ last_id: id, last_value: String(value) })).toString("base64");
}

function decodeCursor(cursor: string): { id: number; value: string } | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64").toString("utf8")) as {
      last_id?: unknown;
      last_value?: unknown;
    };
    return typeof parsed.last_id === "number"
      ? { id: parsed.last_id, value: String(parsed.last_value ?? parsed.last_id) }
      : undefined;
  } catch {
    return undefined;
  }
}
