// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import type { OrderDeliveriesResponse } from "../../../app/api-contract";
import printLabels from "../../../extensions/courier-labels/src/PrintLabels";
import shouldRender from "../../../extensions/courier-labels/src/ShouldRender";
import {
  closeExtension,
  installFakeAdmin,
  runExtension,
  screen,
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
  target = "admin.order-index.selection-print-action.render",
  locale: "en" | "ar" = "en",
  routes: Record<string, Route> = {},
) {
  admin = installFakeAdmin({ extension: "courier-labels", target, locale, orders, routes });
  return runExtension(printLabels);
}

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
  it("gives the print preview the labels of the order page's order, A6 first", async () => {
    await openLabels([7001], "admin.order-details.print-action.render");
    await until(() => expect(printed()).not.toBeNull());
    expect(printed()!.pathname).toBe("/api/labels");
    expect(Object.fromEntries(printed()!.searchParams)).toEqual({
      orderIds: "gid://shopify/Order/7001",
      size: "A6",
    });
    expect(screen()).toEqual([
      "Shipping labels for the courier deliveries of 1 order(s), one label per page.",
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
    chooseSize("4x6");
    await until(() => expect(printed()!.searchParams.get("size")).toBe("4x6"));
    chooseSize("A6");
    await until(() => expect(printed()!.searchParams.get("size")).toBe("A6"));
  });

  it("speaks Arabic in an Arabic admin", async () => {
    await openLabels([9001, 9002], "admin.order-index.selection-print-action.render", "ar");
    await until(() => expect(printed()).not.toBeNull());
    expect(screen()).toEqual([
      "ملصقات الشحن لتوصيلات 2 طلب، ملصق في كل صفحة.",
      "A6 (105 × 148 مم)",
      "4 × 6 إنش",
    ]);
    expect(document.querySelector("s-select")?.getAttribute("label")).toBe("مقاس الملصق");
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
