// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import type { OrderDeliveriesResponse, QuoteResponse } from "../../../app/api-contract";
import action from "../../../extensions/courier-send-action/src/ActionExtension";
import shouldRender from "../../../extensions/courier-send-action/src/ShouldRender";
import {
  all,
  button,
  buttonLabels,
  closeExtension,
  installFakeAdmin,
  later,
  press,
  runExtension,
  screen,
  SESSION_TOKEN,
  until,
  type FakeAdmin,
  type Route,
} from "./fake-admin";
import { DELIVERY_ID, deliveryView, orderAnswer, QUOTE, waitingForAddress } from "./views";

// "Send to courier" in the order page's More actions, rendered from its real component.

let admin: FakeAdmin;
afterEach(() => closeExtension(admin));

const SENDABLE = orderAnswer([], { possible: true, reason: null });
const SENT_OUTCOME = {
  outcomes: [
    { orderId: "gid://shopify/Order/7001", orderName: "#1042", ok: true, deliveryId: DELIVERY_ID },
  ],
};

function fakeAdmin(routes: Record<string, Route>, locale: "en" | "ar" = "en") {
  admin = installFakeAdmin({
    extension: "courier-send-action",
    target: "admin.order-details.action.render",
    locale,
    orders: [7001],
    routes,
  });
  return admin;
}

function openAction(
  order: OrderDeliveriesResponse,
  quote: QuoteResponse = QUOTE,
  more: Record<string, Route> = {},
  locale: "en" | "ar" = "en",
) {
  fakeAdmin(
    {
      "GET /api/orders/7001": () => ({ json: order }),
      "GET /api/orders/7001/quote": () => ({ json: quote }),
      ...more,
    },
    locale,
  );
  return runExtension(action);
}

describe("the order page's Send to courier action", () => {
  it("says it is loading until the app answers", async () => {
    const answer = later<{ json: OrderDeliveriesResponse }>();
    fakeAdmin({
      "GET /api/orders/7001": () => answer.promise,
      "GET /api/orders/7001/quote": () => ({ json: QUOTE }),
    });
    await runExtension(action);
    expect(screen()).toEqual(["Send to courier", "Loading…", "Close"]);
    answer.resolve({ json: SENDABLE });
    await until(() => expect(screen()).toContain("Price: 2.500 KWD"));
  });

  it("shows the pickup location and the courier's price before sending", async () => {
    await openAction(SENDABLE);
    await until(() => expect(screen()).toContain("Price: 2.500 KWD"));
    expect(screen()).toEqual([
      "Send to courier",
      "Price: 2.500 KWD",
      "From Salmiya store (Salmiya) to Hawalli (Hawalli)",
      "Weight: 1.25 kg",
      "Cash on delivery: the driver collects 12.500 KWD",
      "Send to courier",
      "Close",
    ]);
    expect(button("Send to courier").slot).toBe("primary-action");
    expect(admin.requests.map((r) => [r.url, r.authorization])).toEqual([
      ["/api/orders/7001", `Bearer ${SESSION_TOKEN}`],
      ["/api/orders/7001/quote", `Bearer ${SESSION_TOKEN}`],
    ]);
  });

  it("sends the order through the app and shows the outcome", async () => {
    await openAction(SENDABLE, QUOTE, { "POST /api/send": () => ({ json: SENT_OUTCOME }) });
    await until(() => expect(buttonLabels()).toContain("Send to courier"));
    press(admin, "Send to courier");
    await until(() =>
      expect(all("s-banner").map((b) => [b.text, b.tone])).toEqual([
        [
          "Sent to the courier. The delivery appears here as soon as the courier creates it.",
          "success",
        ],
      ]),
    );
    expect(buttonLabels()).toEqual(["Close"]);
    expect(admin.requests.at(-1)).toMatchObject({
      method: "POST",
      url: "/api/send",
      body: { orderIds: ["gid://shopify/Order/7001"] },
      authorization: `Bearer ${SESSION_TOKEN}`,
    });
    press(admin, "Close");
    expect(admin.close).toHaveBeenCalledOnce();
  });

  it("shows why the app did not send, and lets the merchant try again", async () => {
    await openAction(SENDABLE, QUOTE, {
      "POST /api/send": () => ({
        json: {
          outcomes: [
            {
              orderId: "gid://shopify/Order/7001",
              orderName: "#1042",
              ok: false,
              deliveryId: null,
              error: "The order is not open and unfulfilled any more.",
            },
          ],
        },
      }),
    });
    await until(() => expect(buttonLabels()).toContain("Send to courier"));
    press(admin, "Send to courier");
    await until(() =>
      expect(all("s-banner").map((b) => [b.text, b.tone])).toEqual([
        ["The order is not open and unfulfilled any more.", "critical"],
      ]),
    );
    expect(buttonLabels()).toEqual(["Send to courier", "Close"]);
  });

  it("offers Fix address, with the problem, when the delivery waits for its address", async () => {
    await openAction(orderAnswer([waitingForAddress()], { possible: true, reason: null }));
    await until(() => expect(buttonLabels()).toContain("Fix address"));
    expect(screen()).toEqual([
      "Fix the address",
      "The area could not be recognised: the city says Hawally, and no block is given.",
      "Fix address",
      "Close",
    ]);
    // Nothing is quoted while the address waits.
    expect(admin.requests.map((r) => r.url)).toEqual(["/api/orders/7001"]);
  });

  it("opens the app's address review from Fix address", async () => {
    await openAction(orderAnswer([waitingForAddress()], { possible: true, reason: null }));
    await until(() => expect(buttonLabels()).toContain("Fix address"));
    expect(button("Fix address")).toMatchObject({
      href: "app:/app/address-review",
      slot: "primary-action",
    });
    press(admin, "Fix address");
    expect(admin.navigations).toEqual(["app:/app/address-review"]);
  });

  it("still offers Send when the courier gives no price, and says so", async () => {
    await openAction(SENDABLE, {
      ok: false,
      error: "The courier's price service did not answer.",
    });
    await until(() => expect(all("s-banner")).toHaveLength(1));
    expect(all("s-banner").map((b) => [b.element.getAttribute("heading"), b.text, b.tone])).toEqual(
      [
        [
          "The courier's price could not be had. The order can still be sent.",
          "The courier's price service did not answer.",
          "warning",
        ],
      ],
    );
    expect(buttonLabels()).toEqual(["Send to courier", "Close"]);
  });

  it("still offers Send when the price cannot be asked for at all", async () => {
    fakeAdmin({
      "GET /api/orders/7001": () => ({ json: SENDABLE }),
      "GET /api/orders/7001/quote": () => new Response("", { status: 504 }),
    });
    await runExtension(action);
    await until(() => expect(all("s-banner")).toHaveLength(1));
    expect(all("s-banner")[0]?.text).toBe(
      "The courier app could not do this (error 504). Try again in a moment.",
    );
    expect(buttonLabels()).toEqual(["Send to courier", "Close"]);
  });

  it("shows Send busy while the app sends", async () => {
    const answer = later<{ json: unknown }>();
    await openAction(SENDABLE, QUOTE, { "POST /api/send": () => answer.promise });
    await until(() => expect(buttonLabels()).toContain("Send to courier"));
    press(admin, "Send to courier");
    await until(() =>
      expect(button("Send to courier")).toMatchObject({ loading: true, disabled: true }),
    );
    answer.resolve({ json: SENT_OUTCOME });
    await until(() => expect(buttonLabels()).toEqual(["Close"]));
  });

  it("says why there is nothing to send", async () => {
    await openAction(orderAnswer([deliveryView()]));
    await until(() => expect(screen()).toContain("Sent to the courier already."));
    expect(buttonLabels()).toEqual(["Close"]);
  });

  it("says there is nothing to send when the app gives no reason", async () => {
    await openAction(orderAnswer([deliveryView()], { possible: false, reason: null }));
    await until(() => expect(screen()).toContain("There is nothing to send for this order."));
  });

  it("shows the app's error in words when the order cannot be read", async () => {
    fakeAdmin({
      "GET /api/orders/7001": () => ({
        status: 404,
        json: { error: "No such order in this shop." },
      }),
    });
    await runExtension(action);
    await until(() => expect(all("s-banner")).toHaveLength(1));
    expect(all("s-banner").map((b) => [b.element.getAttribute("heading"), b.text, b.tone])).toEqual(
      [["The order could not be read.", "No such order in this shop.", "critical"]],
    );
    expect(buttonLabels()).toEqual(["Close"]);
  });

  it("speaks Arabic in an Arabic admin", async () => {
    await openAction(SENDABLE, QUOTE, {}, "ar");
    await until(() => expect(screen()).toContain("السعر: 2.500 KWD"));
    expect(screen()).toEqual([
      "إرسال إلى شركة التوصيل",
      "السعر: 2.500 KWD",
      "من Salmiya store (Salmiya) إلى Hawalli (Hawalli)",
      "الوزن: 1.25 كغ",
      "الدفع عند الاستلام: يحصّل المندوب 12.500 د.ك",
      "إرسال إلى شركة التوصيل",
      "إغلاق",
    ]);
  });
});

describe("whether the action shows on the order page", () => {
  async function display(order: OrderDeliveriesResponse | null) {
    admin = installFakeAdmin({
      extension: "courier-send-action",
      target: "admin.order-details.action.should-render",
      orders: [7001],
      routes: {
        "GET /api/orders/7001": () =>
          order ? { json: order } : { status: 503, json: { error: "Down." } },
      },
    });
    return (await shouldRender()).display;
  }

  it("shows where it can send or fix the address, and not for an order sent already", async () => {
    expect(await display(SENDABLE)).toBe(true);
    expect(await display(orderAnswer([waitingForAddress()]))).toBe(true);
    expect(await display(orderAnswer([deliveryView()]))).toBe(false);
  });

  it("shows when the app does not answer, to say so when opened", async () => {
    expect(await display(null)).toBe(true);
  });
});
