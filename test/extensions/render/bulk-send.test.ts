// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SendStatusResponse } from "../../../app/api-contract";
import bulkSend from "../../../extensions/courier-bulk-send/src/BulkSend";
import {
  all,
  button,
  buttonLabels,
  closeExtension,
  installFakeAdmin,
  press,
  runExtension,
  screen,
  SESSION_TOKEN,
  until,
  type FakeAdmin,
  type Route,
} from "./fake-admin";

// "Send to courier" for the orders selected in the order list, rendered from its real component.
// It looks again every 2 seconds until each delivery has settled: the clock is the test's.

let admin: FakeAdmin;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
  closeExtension(admin);
});

const gid = (id: number) => `gid://shopify/Order/${id}`;

/** Waits for the check, moving the extension's clock on half a second at a time (150 s at most). */
async function untilLater(check: () => void): Promise<void> {
  for (let step = 0; ; step++) {
    try {
      check();
      return;
    } catch (error) {
      if (step >= 300) throw error;
      await vi.advanceTimersByTimeAsync(500);
    }
  }
}

/** Rows of the outcome table: order, then what its cell says ("badge · the app's words"). */
function table(): string[][] {
  return [...document.querySelectorAll("s-table-body s-table-row")].map((row) =>
    [...row.querySelectorAll("s-table-cell")].map((cell) => screen(cell).join(" · ")),
  );
}

function openBulk(orders: number[], routes: Record<string, Route>, locale: "en" | "ar" = "en") {
  admin = installFakeAdmin({
    extension: "courier-bulk-send",
    target: "admin.order-index.selection-action.render",
    locale,
    orders,
    routes,
  });
  return runExtension(bulkSend);
}

/** Three orders: two go to the courier, one is refused; the second waits a look longer. */
function threeOrders(): Record<string, Route> {
  let looks = 0;
  return {
    "POST /api/send": (request) => ({
      json: {
        outcomes: (request.body as { orderIds: string[] }).orderIds.map((orderId) =>
          orderId === gid(9003)
            ? {
                orderId,
                orderName: "#1003",
                ok: false,
                deliveryId: null,
                error: "The order does not ship to Kuwait.",
              }
            : {
                orderId,
                orderName: `#${orderId.slice(-4).replace("9", "1")}`,
                ok: true,
                deliveryId: `cldelivery${orderId.slice(-4)}0000000000`,
              },
        ),
      },
    }),
    "GET /api/send/status": (request) => {
      looks++;
      const statuses: SendStatusResponse["statuses"] = request.query
        .get("ids")!
        .split(",")
        .map((deliveryId) =>
          deliveryId.startsWith("cldelivery9001")
            ? {
                deliveryId,
                orderId: gid(9001),
                settled: true,
                progress: "created",
                message: "Created at the courier as KW0001",
              }
            : looks < 2
              ? {
                  deliveryId,
                  orderId: gid(9002),
                  settled: false,
                  progress: "in_progress",
                  message: "Sending to the courier",
                }
              : {
                  deliveryId,
                  orderId: gid(9002),
                  settled: true,
                  progress: "needs_address",
                  message: "Address needs review: the area could not be recognised.",
                },
        );
      return { json: { statuses } };
    },
  };
}

describe("sending the orders selected in the order list", () => {
  it("says what it will do before the merchant starts", async () => {
    await openBulk([9001, 9002, 9003], threeOrders());
    expect(screen()).toEqual([
      "Send 3 orders to the courier",
      "Each of the 3 orders is fulfilled and sent to the courier; the outcome of each shows here.",
      "Send 3 orders",
      "Close",
    ]);
    expect(admin.requests).toEqual([]);
  });

  it("shows progress and each order's outcome until every one has settled", async () => {
    await openBulk([9001, 9002, 9003], threeOrders());
    press(admin, "Send 3 orders");
    await until(() =>
      expect(button("Send 3 orders")).toMatchObject({ disabled: true, loading: true }),
    );
    await untilLater(() => expect(screen()).toContain("1 of 3 done"));
    await untilLater(() => expect(screen()).toContain("2 of 3 done"));
    expect(table()).toEqual([
      ["#1001", "Created · Created at the courier as KW0001"],
      ["#1002", "Under way · Sending to the courier"],
      ["#1003", "Not sent · The order does not ship to Kuwait."],
    ]);
    await untilLater(() => expect(screen()).toContain("3 of 3 done"));
    expect(table()).toEqual([
      ["#1001", "Created · Created at the courier as KW0001"],
      ["#1002", "Address to fix · Address needs review: the area could not be recognised."],
      ["#1003", "Not sent · The order does not ship to Kuwait."],
    ]);
    expect(all("s-table-cell s-badge").map((b) => b.tone)).toEqual([
      "success",
      "warning",
      "critical",
    ]);
    // Done: nothing more to send from here.
    expect(buttonLabels()).toEqual(["Close"]);
    expect(all("s-banner")).toEqual([]);
    expect(admin.requests[0]).toMatchObject({
      method: "POST",
      url: "/api/send",
      body: { orderIds: [gid(9001), gid(9002), gid(9003)] },
      authorization: `Bearer ${SESSION_TOKEN}`,
    });
    expect(admin.requests.slice(1).map((r) => r.query.get("ids"))).toEqual([
      "cldelivery90010000000000,cldelivery90020000000000",
      "cldelivery90020000000000",
    ]);
    press(admin, "Close");
    expect(admin.close).toHaveBeenCalledOnce();
  });

  it("sends a large selection in requests of 10 orders", async () => {
    const orders = Array.from({ length: 12 }, (_, i) => 9101 + i);
    await openBulk(orders, {
      "POST /api/send": (request) => ({
        json: {
          outcomes: (request.body as { orderIds: string[] }).orderIds.map((orderId) => ({
            orderId,
            orderName: null,
            ok: false,
            deliveryId: null,
            error: "Not sent.",
          })),
        },
      }),
    });
    press(admin, "Send 12 orders");
    await until(() => expect(screen()).toContain("12 of 12 done"));
    expect(admin.requests.map((r) => (r.body as { orderIds: string[] }).orderIds.length)).toEqual([
      10, 2,
    ]);
    expect(table()[0]).toEqual(["#9101", "Not sent · Not sent."]);
  });

  it("marks each order of a request the app refused with the app's words", async () => {
    await openBulk([9001, 9002], {
      "POST /api/send": () => ({
        status: 400,
        json: { error: "Send at most 10 orders per request." },
      }),
    });
    press(admin, "Send 2 orders");
    await until(() => expect(screen()).toContain("2 of 2 done"));
    expect(table()).toEqual([
      ["#9001", "Not sent · Send at most 10 orders per request."],
      ["#9002", "Not sent · Send at most 10 orders per request."],
    ]);
  });

  it("says in words, not as a status code, that the app did not take a request", async () => {
    await openBulk([9001], {
      "POST /api/send": () => new Response("<html>Service unavailable</html>", { status: 503 }),
    });
    press(admin, "Send 1 order");
    await until(() =>
      expect(table()).toEqual([
        [
          "#9001",
          "Not sent · The courier app could not do this (error 503). Try again in a moment.",
        ],
      ]),
    );
  });

  it("counts one order as one", async () => {
    await openBulk([9001], threeOrders());
    expect(screen()).toEqual([
      "Send 1 order to the courier",
      "The order is fulfilled and sent to the courier; its outcome shows here.",
      "Send 1 order",
      "Close",
    ]);
  });

  it("says where to look when deliveries are still under way after it stops following them", async () => {
    await openBulk([9002], {
      "POST /api/send": () => ({
        json: {
          outcomes: [
            {
              orderId: gid(9002),
              orderName: "#1002",
              ok: true,
              deliveryId: "cldelivery90020000000000",
            },
          ],
        },
      }),
      "GET /api/send/status": () => ({
        json: {
          statuses: [
            {
              deliveryId: "cldelivery90020000000000",
              orderId: gid(9002),
              settled: false,
              progress: "in_progress",
              message: "Waiting for Shopify to confirm the fulfillment",
            },
          ],
        },
      }),
    });
    press(admin, "Send 1 order");
    // It looks every 2 seconds, 60 times at most.
    await untilLater(() => expect(all("s-banner")).toHaveLength(1));
    expect(all("s-banner").map((b) => [b.text, b.tone])).toEqual([
      [
        "Some deliveries are still under way. The app's Deliveries page shows where each stands.",
        "info",
      ],
    ]);
    expect(screen()).toContain("0 of 1 done");
    expect(admin.requests.filter((r) => r.path === "/api/send/status")).toHaveLength(60);
  });

  it("speaks Arabic in an Arabic admin", async () => {
    await openBulk([9001, 9002, 9003], threeOrders(), "ar");
    expect(screen()[0]).toBe("إرسال 3 طلبات إلى شركة التوصيل");
    press(admin, "إرسال 3 طلبات");
    await untilLater(() => expect(screen()).toContain("اكتمل 3 من 3"));
    expect(screen()).toContain("الطلب");
    expect(screen()).toContain("النتيجة");
    expect(screen()).toContain("إغلاق");
    expect(table().map(([, outcome]) => outcome!.split(" · ")[0])).toEqual([
      "أُنشئ",
      "العنوان بحاجة إلى تصحيح",
      "لم يُرسل",
    ]);
  });

  it.each([
    [1, "إرسال طلب واحد إلى شركة التوصيل", "إرسال طلب واحد"],
    [2, "إرسال طلبين إلى شركة التوصيل", "إرسال طلبين"],
    [11, "إرسال 11 طلبًا إلى شركة التوصيل", "إرسال 11 طلبًا"],
  ])(
    "in Arabic, names a selection of %i in the form Arabic uses for that count",
    async (count, heading, send) => {
      await openBulk(
        Array.from({ length: count }, (_, i) => 9001 + i),
        {},
        "ar",
      );
      expect(screen()[0]).toBe(heading);
      expect(buttonLabels()[0]).toBe(send);
    },
  );
});
