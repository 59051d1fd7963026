// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import type { OrderDeliveriesResponse } from "../../../app/api-contract";
import printLabels from "../../../extensions/courier-labels/src/PrintLabels";
import shouldRender from "../../../extensions/courier-labels/src/ShouldRender";
import {
  all,
  closeExtension,
  installFakeAdmin,
  later,
  runExtension,
  screen,
  SESSION_TOKEN,
  until,
  type FakeAdmin,
  type Route,
} from "./fake-admin";
import { deliveryView, orderAnswer, waitingForAddress } from "./views";

// "Courier labels" in the print menus of the order page and the order list, rendered from its
// real component: the admin's print preview loads the document at the `src` it gives.

let admin: FakeAdmin;
afterEach(() => closeExtension(admin));

function openLabels(
  orders: number[],
  target: string = "admin.order-index.selection-print-action.render",
  locale: "en" | "ar" = "en",
  routes: Record<string, Route> = { "GET /api/labels": () => LABELS_DOCUMENT() },
) {
  admin = installFakeAdmin({ extension: "courier-labels", target, locale, orders, routes });
  return runExtension(printLabels);
}

const LABELS_DOCUMENT = () =>
  new Response("<!doctype html><title>Labels</title>", {
    headers: { "Content-Type": "text/html; charset=utf-8" },
  });

/** The labels route answering an error, as the app does ({ error } with its status). */
const refusing = (status: number, error: string) => ({
  "GET /api/labels": () => ({ status, json: { error } }),
});

/** The document the admin's print preview loads and prints. */
function printed(): URL | null {
  const src = document.querySelector("s-admin-print-action")?.getAttribute("src");
  return src ? new URL(src, "https://courier-app.example.com") : null;
}

function chooseSize(value: string) {
  const select = document.querySelector("s-select")!;
  // The admin's select: its value is a property, and it tells of a choice with `change`.
  Object.assign(select, { value });
  select.dispatchEvent(new Event("change"));
}

describe("printing courier labels", () => {
  it("checks the app serves the labels before the print preview loads them", async () => {
    const answer = later<Response>();
    await openLabels([7001], "admin.order-details.print-action.render", "en", {
      "GET /api/labels": () => answer.promise,
    });
    expect(screen()).toEqual([
      "The shipping labels of this order's courier deliveries, one label per page.",
      "Checking which labels can be printed…",
    ]);
    expect(printed()).toBeNull();
    answer.resolve(LABELS_DOCUMENT());
    await until(() => expect(printed()).not.toBeNull());
    expect(admin.requests.map((r) => [r.url, r.authorization])).toEqual([
      [
        "/api/labels?orderIds=gid%3A%2F%2Fshopify%2FOrder%2F7001&size=A6",
        `Bearer ${SESSION_TOKEN}`,
      ],
    ]);
  });

  it("gives the print preview the labels of the order page's order, A6 first", async () => {
    await openLabels([7001], "admin.order-details.print-action.render");
    await until(() => expect(printed()).not.toBeNull());
    expect(printed()!.pathname).toBe("/api/labels");
    expect(Object.fromEntries(printed()!.searchParams)).toEqual({
      orderIds: "gid://shopify/Order/7001",
      size: "A6",
    });
    expect(screen()).toEqual([
      "The shipping labels of this order's courier deliveries, one label per page.",
      "A6 (105 × 148 mm)",
      "4 × 6 inch",
    ]);
    expect(document.querySelector("s-select")?.getAttribute("label")).toBe("Label size");
  });

  it("prints the labels of every order selected in the order list, at the size chosen", async () => {
    await openLabels([9001, 9002, 9003]);
    await until(() => expect(printed()).not.toBeNull());
    expect(printed()!.searchParams.get("orderIds")).toBe(
      "gid://shopify/Order/9001,gid://shopify/Order/9002,gid://shopify/Order/9003",
    );
    expect(screen()).toEqual([
      "Shipping labels for the courier deliveries of 3 orders, one label per page.",
      "A6 (105 × 148 mm)",
      "4 × 6 inch",
      "Orders the courier has not created a delivery for have no label and are left out.",
    ]);
    chooseSize("4x6");
    await until(() => expect(printed()!.searchParams.get("size")).toBe("4x6"));
    chooseSize("A6");
    await until(() => expect(printed()!.searchParams.get("size")).toBe("A6"));
    // The size changes the document, not which orders have a label: asked once.
    expect(admin.requests).toHaveLength(1);
  });

  it.each([
    [
      409,
      "None of these deliveries has a label yet: a label is printed once the courier has created the delivery.",
      "None of these orders has a label yet: a label is printed once the courier has created the delivery.",
    ],
    [
      404,
      "No such order or delivery in this shop.",
      "These orders could not be found among this shop's orders.",
    ],
    [400, "Print at most 250 labels at once.", "Print at most 250 labels at once."],
  ])(
    "says in words why the app prints nothing (%i), and gives the preview nothing",
    async (status, error, said) => {
      await openLabels([9001, 9002], undefined, "en", refusing(status, error));
      await until(() => expect(all("s-banner")).toHaveLength(1));
      expect(all("s-banner").map((b) => [b.text, b.tone])).toEqual([[said, "critical"]]);
      expect(printed()).toBeNull();
      expect(document.querySelector("s-select")).toBeNull();
    },
  );

  it("says the app did not answer when it cannot be reached", async () => {
    await openLabels([9001], undefined, "en", {
      "GET /api/labels": () => {
        throw new TypeError("Failed to fetch");
      },
    });
    await until(() =>
      expect(all("s-banner").map((b) => b.text)).toEqual([
        "The courier app did not answer. Check the connection and try again.",
      ]),
    );
    expect(printed()).toBeNull();
  });

  it("speaks Arabic in an Arabic admin", async () => {
    await openLabels([9001, 9002], "admin.order-index.selection-print-action.render", "ar");
    await until(() => expect(printed()).not.toBeNull());
    expect(screen()).toEqual([
      "ملصقات الشحن لتوصيلات طلبين، ملصق في كل صفحة.",
      "A6 (105 × 148 مم)",
      "4 × 6 إنش",
      "الطلبات التي لم تُنشئ لها شركة التوصيل توصيلاً ليس لها ملصق ولا تُطبع.",
    ]);
    expect(document.querySelector("s-select")?.getAttribute("label")).toBe("مقاس الملصق");
  });

  it("says in Arabic why there is nothing to print", async () => {
    await openLabels(
      [9001],
      undefined,
      "ar",
      refusing(409, "None of these deliveries has a label yet."),
    );
    await until(() =>
      expect(all("s-banner").map((b) => b.text)).toEqual([
        "لا يوجد ملصق لأي من هذه الطلبات بعد: يُطبع الملصق بعد أن تُنشئ شركة التوصيل التوصيل.",
      ]),
    );
  });
});

describe("whether Courier labels shows in the order page's print menu", () => {
  async function display(order: OrderDeliveriesResponse | null) {
    admin = installFakeAdmin({
      extension: "courier-labels",
      target: "admin.order-details.print-action.should-render",
      orders: [7001],
      routes: {
        "GET /api/orders/7001": () =>
          order ? { json: order } : { status: 503, json: { error: "Down." } },
      },
    });
    return (await shouldRender()).display;
  }

  it("shows for an order with a delivery the courier created, not for one without", async () => {
    expect(await display(orderAnswer([deliveryView()]))).toBe(true);
    expect(await display(orderAnswer([waitingForAddress()]))).toBe(false);
    expect(await display(orderAnswer([]))).toBe(false);
  });

  it("shows when the app does not answer", async () => {
    expect(await display(null)).toBe(true);
  });
});
