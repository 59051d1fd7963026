// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import type { OrderDeliveriesResponse } from "../../../app/api-contract";
import block from "../../../extensions/courier-delivery-block/src/BlockExtension";
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
  type FakeAdminOptions,
} from "./fake-admin";
import { DELIVERY_ID, deliveryView, orderAnswer, TRACKING_URL, waitingForAddress } from "./views";

// The order page's block, rendered from its real component against a fake admin and app.

let admin: FakeAdmin;
afterEach(() => closeExtension(admin));

function openBlock(
  order: OrderDeliveriesResponse | FakeAdminOptions["routes"],
  locale: "en" | "ar" = "en",
) {
  admin = installFakeAdmin({
    extension: "courier-delivery-block",
    target: "admin.order-details.block.render",
    locale,
    orders: [7001],
    routes:
      order && "deliveries" in order
        ? { "GET /api/orders/7001": () => ({ json: order }) }
        : (order as FakeAdminOptions["routes"]),
  });
  return runExtension(block);
}

describe("the order page's delivery block", () => {
  it("says it is loading until the app answers", async () => {
    const answer = later<{ json: OrderDeliveriesResponse }>();
    await openBlock({ "GET /api/orders/7001": () => answer.promise });
    expect(screen()).toEqual(["Courier delivery", "Loading…"]);
    answer.resolve({ json: orderAnswer([deliveryView()]) });
    await until(() =>
      expect(all("s-badge").map((b) => b.text)).toEqual(["Created at the courier"]),
    );
  });

  it("asks the app for the order's deliveries with the session token", async () => {
    await openBlock(orderAnswer([deliveryView()]));
    await until(() => expect(all("s-badge")).toHaveLength(1));
    expect(admin.requests.map((r) => [r.method, r.url, r.authorization])).toEqual([
      ["GET", "/api/orders/7001", `Bearer ${SESSION_TOKEN}`],
    ]);
  });

  it("shows a created delivery's state, courier number with its tracking link, and cash to collect", async () => {
    await openBlock(orderAnswer([deliveryView()]));
    await until(() => expect(all("s-badge")).toHaveLength(1));
    expect(all("s-badge").map((b) => [b.text, b.tone])).toEqual([
      ["Created at the courier", "info"],
    ]);
    const [link] = all("s-link");
    expect(link?.text).toBe("KW0088123");
    expect(link?.element.getAttribute("href")).toBe(TRACKING_URL);
    expect(link?.element.getAttribute("target")).toBe("_blank");
    expect(screen()).toContain("Collect 12.500 KWD on delivery");
    expect(all("s-banner")).toEqual([]);
    expect(buttonLabels()).toEqual(["Print label", "Cancel delivery"]);
  });

  it("shows the courier number without a link when there is no tracking link", async () => {
    await openBlock(orderAnswer([deliveryView({ trackingUrl: null })]));
    await until(() => expect(screen()).toContain("KW0088123"));
    expect(all("s-link")).toEqual([]);
  });

  it("shows the problem in words and Fix address for a delivery waiting for its address", async () => {
    await openBlock(orderAnswer([waitingForAddress()]));
    await until(() => expect(all("s-badge")).toHaveLength(1));
    expect(all("s-badge").map((b) => [b.text, b.tone])).toEqual([
      ["Address needs review", "critical"],
    ]);
    expect(all("s-banner").map((b) => [b.text, b.tone])).toEqual([
      [
        "The area could not be recognised: the city says Hawally, and no block is given.",
        "warning",
      ],
    ]);
    expect(screen()).toContain("Paid: nothing to collect");
    expect(all("s-link")).toEqual([]);
    expect(buttonLabels()).toEqual(["Fix address", "Cancel delivery"]);
  });

  it("opens the app's address review from Fix address", async () => {
    await openBlock(orderAnswer([waitingForAddress()]));
    await until(() => expect(buttonLabels()).toContain("Fix address"));
    expect(button("Fix address").href).toBe("app:/app/address-review");
    press(admin, "Fix address");
    expect(admin.navigations).toEqual(["app:/app/address-review"]);
  });

  it("opens the app's labels page for the delivery from Print label", async () => {
    await openBlock(orderAnswer([deliveryView()]));
    await until(() => expect(buttonLabels()).toContain("Print label"));
    press(admin, "Print label");
    expect(admin.navigations).toEqual([`app:/app/labels?deliveryIds=${DELIVERY_ID}`]);
  });

  it("asks before cancelling, then cancels through the app's cancel API and shows the outcome", async () => {
    let cancelled = false;
    await openBlock({
      "GET /api/orders/7001": () => ({
        json: orderAnswer([
          cancelled
            ? deliveryView({
                state: "cancelled",
                actions: { cancel: false, fixAddress: false, printLabel: false },
              })
            : deliveryView(),
        ]),
      }),
      [`POST /api/deliveries/${DELIVERY_ID}/cancel`]: () => {
        cancelled = true;
        return { json: { ok: true, state: "cancelled" } };
      },
    });
    await until(() => expect(buttonLabels()).toContain("Cancel delivery"));
    press(admin, "Cancel delivery");
    await until(() =>
      expect(all("s-banner").map((b) => b.element.getAttribute("heading"))).toEqual([
        "Cancel this delivery at the courier? This cannot be undone.",
      ]),
    );
    expect(buttonLabels()).toEqual(["Yes, cancel it", "Keep it", "Print label"]);
    expect(admin.requests.filter((r) => r.method === "POST")).toEqual([]);
    press(admin, "Yes, cancel it");
    await until(() =>
      expect(all("s-banner").map((b) => [b.text, b.tone])).toEqual([["Cancelled.", "success"]]),
    );
    await until(() => expect(all("s-badge").map((b) => b.text)).toEqual(["Cancelled"]));
    expect(buttonLabels()).toEqual([]);
    const cancel = admin.requests.filter((r) => r.method === "POST");
    expect(cancel).toEqual([
      expect.objectContaining({
        url: `/api/deliveries/${DELIVERY_ID}/cancel`,
        authorization: `Bearer ${SESSION_TOKEN}`,
      }),
    ]);
  });

  it("keeps the delivery when the merchant thinks better of cancelling", async () => {
    await openBlock(orderAnswer([deliveryView()]));
    await until(() => expect(buttonLabels()).toContain("Cancel delivery"));
    press(admin, "Cancel delivery");
    await until(() => expect(buttonLabels()).toContain("Keep it"));
    press(admin, "Keep it");
    await until(() => expect(buttonLabels()).toEqual(["Print label", "Cancel delivery"]));
    expect(all("s-banner")).toEqual([]);
    expect(admin.requests.filter((r) => r.method === "POST")).toEqual([]);
  });

  it("shows the cancel button busy while the app cancels", async () => {
    const answer = later<{ json: unknown }>();
    await openBlock({
      "GET /api/orders/7001": () => ({ json: orderAnswer([deliveryView()]) }),
      [`POST /api/deliveries/${DELIVERY_ID}/cancel`]: () => answer.promise,
    });
    await until(() => expect(buttonLabels()).toContain("Cancel delivery"));
    press(admin, "Cancel delivery");
    await until(() => expect(buttonLabels()).toContain("Yes, cancel it"));
    press(admin, "Yes, cancel it");
    await until(() =>
      expect(button("Yes, cancel it")).toMatchObject({ loading: true, disabled: true }),
    );
    expect(button("Keep it").disabled).toBe(true);
    answer.resolve({ json: { ok: true, state: "cancelled" } });
    await until(() => expect(screen()).toContain("Cancelled."));
  });

  it("says a cancellation under way instead of offering Cancel again", async () => {
    await openBlock(
      orderAnswer([
        deliveryView({
          cancelRequested: true,
          actions: { cancel: false, fixAddress: false, printLabel: true },
        }),
      ]),
    );
    await until(() =>
      expect(all("s-banner").map((b) => b.text)).toEqual(["Cancellation under way."]),
    );
    expect(buttonLabels()).toEqual(["Print label"]);
  });

  it("shows the courier's refusal when a cancel is refused", async () => {
    await openBlock({
      "GET /api/orders/7001": () => ({ json: orderAnswer([deliveryView()]) }),
      [`POST /api/deliveries/${DELIVERY_ID}/cancel`]: () => ({
        status: 409,
        json: { ok: false, error: "The courier has picked the parcel up: it cannot be cancelled." },
      }),
    });
    await until(() => expect(buttonLabels()).toContain("Cancel delivery"));
    press(admin, "Cancel delivery");
    await until(() => expect(buttonLabels()).toContain("Yes, cancel it"));
    press(admin, "Yes, cancel it");
    await until(() =>
      expect(all("s-banner").map((b) => [b.text, b.tone])).toEqual([
        ["The courier has picked the parcel up: it cannot be cancelled.", "critical"],
      ]),
    );
    expect(buttonLabels()).toEqual(["Print label", "Cancel delivery"]);
  });

  it("offers Send to courier for an order not sent yet, and says it was sent", async () => {
    await openBlock({
      "GET /api/orders/7001": () => ({ json: orderAnswer([], { possible: true, reason: null }) }),
      "POST /api/send": () => ({
        json: {
          outcomes: [
            {
              orderId: "gid://shopify/Order/7001",
              orderName: "#1042",
              ok: true,
              deliveryId: DELIVERY_ID,
            },
          ],
        },
      }),
    });
    await until(() => expect(screen()).toContain("Not sent to the courier yet."));
    expect(buttonLabels()).toEqual(["Send to courier"]);
    press(admin, "Send to courier");
    await until(() =>
      expect(all("s-banner").map((b) => b.text)).toEqual([
        "Sent to the courier. The delivery appears here as soon as the courier creates it.",
      ]),
    );
    expect(all("s-banner")[0]?.tone).toBe("success");
    expect(admin.requests.find((r) => r.method === "POST")).toMatchObject({
      url: "/api/send",
      body: { orderIds: ["gid://shopify/Order/7001"] },
      authorization: `Bearer ${SESSION_TOKEN}`,
    });
  });

  it("says why an order cannot be sent", async () => {
    await openBlock(
      orderAnswer([], {
        possible: false,
        reason: "The order is in USD: the courier takes amounts in Kuwaiti dinar (KWD) only.",
      }),
    );
    await until(() => expect(screen()).toContain("Not sent to the courier yet."));
    expect(screen()).toContain(
      "The order is in USD: the courier takes amounts in Kuwaiti dinar (KWD) only.",
    );
    expect(buttonLabels()).toEqual([]);
  });

  it("shows the app's error in words when the order cannot be read, and tries again", async () => {
    let looks = 0;
    await openBlock({
      "GET /api/orders/7001": () =>
        looks++ === 0
          ? { status: 404, json: { error: "No such order in this shop." } }
          : { json: orderAnswer([deliveryView()]) },
    });
    await until(() => expect(all("s-banner")).toHaveLength(1));
    expect(all("s-banner").map((b) => [b.element.getAttribute("heading"), b.text, b.tone])).toEqual(
      [["The courier delivery could not be shown.", "No such order in this shop.", "critical"]],
    );
    press(admin, "Try again");
    await until(() =>
      expect(all("s-badge").map((b) => b.text)).toEqual(["Created at the courier"]),
    );
    expect(all("s-banner")).toEqual([]);
  });

  it("says the app did not answer, in words, when it cannot be reached", async () => {
    await openBlock({
      "GET /api/orders/7001": () => {
        throw new TypeError("Failed to fetch");
      },
    });
    await until(() =>
      expect(all("s-banner").map((b) => b.text)).toEqual([
        "The courier app did not answer. Check the connection and try again.",
      ]),
    );
  });

  it("says an answer that is not the app's in words, not as a status code", async () => {
    await openBlock({
      "GET /api/orders/7001": () => new Response("<html>Bad gateway</html>", { status: 502 }),
    });
    await until(() =>
      expect(all("s-banner").map((b) => b.text)).toEqual([
        "The courier app could not do this (error 502). Try again in a moment.",
      ]),
    );
  });

  it("speaks Arabic in an Arabic admin", async () => {
    await openBlock(orderAnswer([deliveryView(), waitingForAddress()]), "ar");
    await until(() => expect(all("s-badge")).toHaveLength(2));
    expect(screen()[0]).toBe("التوصيل");
    expect(all("s-badge").map((b) => b.text)).toEqual([
      "أُنشئ لدى شركة التوصيل",
      "العنوان بحاجة إلى مراجعة",
    ]);
    expect(screen()).toContain("تحصيل 12.500 KWD عند التسليم");
    expect(screen()).toContain("مدفوع: لا شيء للتحصيل");
    expect(buttonLabels()).toEqual([
      "طباعة الملصق",
      "إلغاء التوصيل",
      "تصحيح العنوان",
      "إلغاء التوصيل",
    ]);
  });
});
