import { describe, expect, it } from "vitest";
import type { CourierClient, HistoryPage, HistoryQuery, OrderRecord } from "../../app/courier";
import { HISTORY_MAX_PAGES, searchHistory } from "../../app/pipeline/history.server";

const REF = "SHPFY-shop-12";

function order(id: string, notes: string, status = "pending"): OrderRecord {
  return { orderId: id, orderNumber: `KW${id}`, status, createdAt: null, raw: { notes } };
}

/** A history of `orders`, newest first, paged as `paging` says. */
function courierWith(
  orders: OrderRecord[],
  paging: { ignoresPage?: boolean; total?: boolean } = {},
): CourierClient & { asked: HistoryQuery[] } {
  const asked: HistoryQuery[] = [];
  const history = async (query: HistoryQuery = {}): Promise<HistoryPage> => {
    asked.push(query);
    const size = query.pageSize ?? 20;
    const page = paging.ignoresPage ? 1 : (query.page ?? 1);
    return {
      orders: orders.slice((page - 1) * size, page * size),
      page,
      pageSize: size,
      total: paging.total === false ? null : orders.length,
    };
  };
  return { history, asked } as unknown as CourierClient & { asked: HistoryQuery[] };
}

const others = (count: number) =>
  Array.from({ length: count }, (_, i) => order(`o${i}`, `${REF}${i} · Shopify order`));

describe("finding a delivery's order in the courier's history", () => {
  it("reads on to the page that holds it", async () => {
    const courier = courierWith([...others(250), order("mine", `${REF} · Shopify order #1`)]);
    const answer = await searchHistory(courier, REF);
    expect(answer).toMatchObject({ outcome: "found", order: { orderId: "mine" }, pages: 3 });
  });

  it("rules it out once every page was read", async () => {
    const courier = courierWith(others(150));
    expect(await searchHistory(courier, REF)).toEqual({ outcome: "absent", pages: 2 });
  });

  it("rules it out without a total only at an empty page", async () => {
    const courier = courierWith(others(150), { total: false });
    expect(await searchHistory(courier, REF)).toEqual({ outcome: "absent", pages: 3 });
  });

  it("cannot tell when the courier gives the same page again and no total", async () => {
    const courier = courierWith(others(150), { ignoresPage: true, total: false });
    expect(await searchHistory(courier, REF)).toMatchObject({ outcome: "undetermined", pages: 2 });
  });

  it("cannot tell beyond its bound of pages", async () => {
    const courier = courierWith(others(HISTORY_MAX_PAGES * 100 + 1));
    expect(await searchHistory(courier, REF)).toMatchObject({
      outcome: "undetermined",
      pages: HISTORY_MAX_PAGES,
    });
  });

  it("prefers a live order to a cancelled duplicate", async () => {
    const courier = courierWith([
      order("duplicate", `${REF} · Shopify order`, "cancelled"),
      order("mine", `${REF} · Shopify order`),
    ]);
    expect(await searchHistory(courier, REF)).toMatchObject({ order: { orderId: "mine" } });
  });

  it("asks only for orders created from the day before the delivery", async () => {
    const courier = courierWith([]);
    await searchHistory(courier, REF, new Date("2026-11-24T09:00:00Z"));
    expect(courier.asked[0]).toMatchObject({ search: REF, from: "2026-11-23", page: 1 });
  });
});
