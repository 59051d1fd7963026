// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import type { ShopperOrderResponse } from "../../../app/api-contract";
import block from "../../../extensions/shopper-order-status-block/src/OrderStatusBlock";
import { all, button, buttons, runExtension, screen, until } from "./fake-admin";
import {
  APP_URL,
  asked,
  CHECKOUT_TOKEN,
  closeBlock,
  decided,
  installFakeStorefront,
  nothingToShow,
  type AppAnswer,
  type FakeStorefront,
} from "./fake-storefront";

// The order status page's block, rendered from its real component against a fake customer
// account and app.

let page: FakeStorefront;
afterEach(() => closeBlock(page));

const TRACKING = `${APP_URL}/tracking/${"b".repeat(32)}`;
const ASK_LINK = `${APP_URL}/tracking/${"a".repeat(32)}`;

function onTheWay(status: "in_transit" | "delivered" = "in_transit"): ShopperOrderResponse {
  return decided({
    status,
    expectedDay: status === "delivered" ? null : "2026-12-01",
    trackingLink: TRACKING,
  });
}

async function openBlock(
  answer: AppAnswer,
  { locale = "en" as "en" | "ar", confirmation = "F3KQ7ZP1X" as string | null } = {},
) {
  page = installFakeStorefront({
    extension: "shopper-order-status-block",
    locale,
    order: { id: 7001, confirmation },
    answers: [answer],
  });
  await runExtension(block);
}

/** Waits for the app's answer and a moment more (for blocks that stay empty). */
async function settled() {
  await until(() => expect(page.requests.length).toBeGreaterThan(0));
  await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("the order status page's block", () => {
  it("shows the delivery's status, the expected day and the link to follow it", async () => {
    await openBlock(onTheWay());
    await until(() => expect(buttons()).toHaveLength(1));
    expect(screen()).toEqual([
      "Delivery",
      "On its way",
      "Expected on Tuesday, December 1",
      "Follow your delivery",
    ]);
    expect(button("Follow your delivery").href).toBe(TRACKING);
  });

  it("asks the app for this order with the customer account's token", async () => {
    await openBlock(onTheWay());
    await until(() => expect(buttons()).toHaveLength(1));
    expect(page.requests).toEqual([
      {
        url: `${APP_URL}/api/shopper/orders/7001?confirmation=F3KQ7ZP1X&surface=order-status`,
        authorization: `Bearer ${CHECKOUT_TOKEN}`,
      },
    ]);
  });

  it("says it in Arabic", async () => {
    await openBlock(onTheWay(), { locale: "ar" });
    await until(() => expect(buttons()).toHaveLength(1));
    expect(screen()).toEqual([
      "التوصيل",
      "في الطريق",
      "الموعد المتوقع: الثلاثاء، 1 ديسمبر",
      "تابع التوصيل",
    ]);
    expect(button("تابع التوصيل").href).toBe(TRACKING);
  });

  it("links to the open question before anything else, and says what is asked", async () => {
    await openBlock(asked(["address", "cash"]));
    await until(() => expect(buttons()).toHaveLength(1));
    expect(screen()).toEqual([
      "Delivery",
      "Your order is being prepared",
      "We need you to confirm your delivery address and payment on delivery before we can send your order.",
      "Confirm now",
    ]);
    expect(all("s-banner").map((b) => b.tone)).toEqual(["warning"]);
    expect(button("Confirm now").href).toBe(ASK_LINK);
  });

  it("asks the question in Arabic", async () => {
    await openBlock(asked(["address"]), { locale: "ar" });
    await until(() => expect(buttons()).toHaveLength(1));
    expect(screen()).toContain("نحتاج أن تؤكد عنوان التوصيل قبل أن نرسل طلبك.");
    expect(button("أكّد الآن").href).toBe(ASK_LINK);
  });

  it("says the parcel was delivered, with no expected day", async () => {
    await openBlock(onTheWay("delivered"));
    await until(() => expect(buttons()).toHaveLength(1));
    expect(screen()).toEqual(["Delivery", "Delivered", "Follow your delivery"]);
  });

  it("says the order is being prepared, with no link, before there is a delivery", async () => {
    await openBlock(decided());
    await until(() => expect(screen()).toEqual(["Delivery", "Your order is being prepared"]));
    expect(buttons()).toEqual([]);
  });

  it("shows nothing for an order the app has nothing to say about", async () => {
    await openBlock(nothingToShow);
    await settled();
    expect(document.body.innerHTML).toBe("");
  });

  it("shows nothing when the app refuses", async () => {
    await openBlock({ status: 401 });
    await settled();
    expect(document.body.innerHTML).toBe("");
    expect(page.requests).toHaveLength(1);
  });

  it("asks nothing for an order without a confirmation number", async () => {
    await openBlock(onTheWay(), { confirmation: null });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(page.requests).toEqual([]);
    expect(document.body.innerHTML).toBe("");
  });
});
