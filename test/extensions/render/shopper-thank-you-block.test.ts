// @vitest-environment happy-dom
import { render } from "preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import block from "../../../extensions/shopper-thank-you-block/src/ThankYouBlock";
import { THANK_YOU_RETRY_DELAYS_MS } from "../../../extensions/shared/shopper";
import { button, runExtension, screen } from "./fake-admin";
import {
  APP_URL,
  asked,
  checking,
  CHECKOUT_TOKEN,
  closeBlock,
  decided,
  installFakeStorefront,
  nothingToShow,
  type AppAnswer,
  type FakeStorefront,
} from "./fake-storefront";

// The thank-you page's block, rendered from its real component against a fake checkout and app.
// Timers are fake: the block's waits between questions are the test's to pass.

let page: FakeStorefront;
afterEach(() => {
  closeBlock(page);
  vi.useRealTimers();
});

const LINK = `${APP_URL}/tracking/${"a".repeat(32)}`;

async function openBlock(
  answers: AppAnswer[],
  { locale = "en", confirmation = "F3KQ7ZP1X" as string | null } = {},
) {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "requestAnimationFrame"] });
  page = installFakeStorefront({
    extension: "shopper-thank-you-block",
    locale: locale as "en" | "ar",
    order: { id: 7001, confirmation },
    answers,
  });
  await runExtension(block);
  // Preact runs the block's effect after the first paint.
  await vi.advanceTimersByTimeAsync(150);
}

/** Lets the block's next wait pass and the app's answer arrive. */
const wait = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe("the thank-you page's block", () => {
  it("asks the shopper to confirm the address, linking to their page", async () => {
    await openBlock([asked(["address"])]);
    expect(screen()).toEqual([
      "Please confirm your delivery address",
      "We could not be sure where to deliver your order. Please check your address, so the courier finds you the first time.",
      "Confirm my address",
    ]);
    const confirm = button("Confirm my address");
    expect(confirm.href).toBe(LINK);
    expect(confirm.element.getAttribute("target")).toBe("_blank");
  });

  it("asks the app for this order with the checkout's session token and confirmation number", async () => {
    await openBlock([asked()]);
    expect(page.requests).toEqual([
      {
        url: `${APP_URL}/api/shopper/orders/7001?confirmation=F3KQ7ZP1X&surface=thank-you`,
        authorization: `Bearer ${CHECKOUT_TOKEN}`,
      },
    ]);
  });

  it("says it in Arabic for a shopper who checked out in Arabic", async () => {
    await openBlock([asked(["address"])], { locale: "ar" });
    expect(screen()).toEqual([
      "يرجى تأكيد عنوان التوصيل",
      "لم نتأكد من مكان توصيل طلبك. يرجى مراجعة عنوانك ليصل إليك المندوب من أول مرة.",
      "تأكيد عنواني",
    ]);
    expect(button("تأكيد عنواني").href).toBe(LINK);
  });

  it("asks to confirm cash on delivery when that is the only question", async () => {
    await openBlock([asked(["cash"])]);
    expect(screen()).toContain(
      "You chose to pay on delivery. Please confirm it, so we can send your order.",
    );
    expect(button("Confirm payment on delivery").href).toBe(LINK);
  });

  it("explains both questions in Arabic when both are asked", async () => {
    await openBlock([asked(["address", "cash"])], { locale: "ar" });
    expect(screen()).toContain(
      "لم نتأكد من مكان توصيل طلبك، واخترت الدفع عند الاستلام. يرجى مراجعة عنوانك وتأكيد الدفع.",
    );
  });

  it("asks again while the app has not yet heard of the order or is checking it", async () => {
    await openBlock([nothingToShow, checking(), asked()]);
    expect(document.body.innerHTML).toBe("");
    expect(page.requests).toHaveLength(1);
    await wait(THANK_YOU_RETRY_DELAYS_MS[0]);
    expect(page.requests).toHaveLength(2);
    expect(document.body.innerHTML).toBe("");
    await wait(THANK_YOU_RETRY_DELAYS_MS[1]);
    expect(page.requests).toHaveLength(3);
    expect(button("Confirm my address").href).toBe(LINK);
  });

  it("shows nothing and stops asking once the app has nothing to ask", async () => {
    await openBlock([decided()]);
    await wait(30_000);
    expect(document.body.innerHTML).toBe("");
    expect(page.requests).toHaveLength(1);
  });

  it("gives up after about twenty seconds, showing nothing", async () => {
    await openBlock([nothingToShow]);
    await wait(60_000);
    expect(page.requests).toHaveLength(THANK_YOU_RETRY_DELAYS_MS.length + 1);
    expect(document.body.innerHTML).toBe("");
  });

  it("keeps asking through the app's failures, then shows the question", async () => {
    await openBlock([{ status: 503 }, asked()]);
    expect(document.body.innerHTML).toBe("");
    await wait(THANK_YOU_RETRY_DELAYS_MS[0]);
    expect(button("Confirm my address").href).toBe(LINK);
  });

  it("asks nothing for an order without a confirmation number", async () => {
    await openBlock([asked()], { confirmation: null });
    await wait(30_000);
    expect(page.requests).toEqual([]);
    expect(document.body.innerHTML).toBe("");
  });

  it("stops asking when the page closes the block", async () => {
    await openBlock([nothingToShow]);
    render(null, document.body);
    const before = page.requests.length;
    await wait(60_000);
    expect(page.requests).toHaveLength(before);
  });
});
