import { afterEach, describe, expect, it, vi } from "vitest";
import type { ShopperOrderResponse } from "../../app/api-contract";
import { shopperOrderResponse } from "../../app/api-contract";
import {
  shopperOrderAnswer,
  type ShopperOrderAsk,
  type ShopperOrderDelivery,
} from "../../app/domain/shopper-order";
import {
  appUrl,
  fetchShopperOrder,
  orderStatusShown,
  questionsKey,
  THANK_YOU_RETRY_DELAYS_MS,
  thankYouStep,
} from "../../extensions/shared/shopper";

// What the shopper's blocks show for each state of the ask and the delivery, and when the
// thank-you block asks the app again.

const APP = "https://courier.example.com";
const NOW = new Date("2026-11-29T09:00:00Z");
const LINK = `${APP}/tracking/${"a".repeat(32)}`;

function ask(overrides: Partial<ShopperOrderAsk> = {}): ShopperOrderAsk {
  return {
    state: "asked",
    questions: ["address"],
    token: "a".repeat(32),
    linkExpiresAt: new Date(NOW.getTime() + 86_400_000),
    confirmationNumber: "F3KQ7ZP1X",
    ...overrides,
  };
}

function delivery(overrides: Partial<ShopperOrderDelivery> = {}): ShopperOrderDelivery {
  return {
    trackingToken: "b".repeat(32),
    courierOrderNumber: "KW000001001",
    step: "in_transit",
    expectedDay: "2026-11-30",
    ...overrides,
  };
}

describe("the app's answer to a shopper's block", () => {
  it("opens the question with the ask's link while the shopper is asked", () => {
    const answer = shopperOrderAnswer({ ask: ask(), delivery: null }, "F3KQ7ZP1X", APP, NOW);
    expect(answer.ask).toEqual({ checking: false, open: true, questions: ["address"], link: LINK });
  });

  it("accepts the confirmation number in any case and with spaces", () => {
    const answer = shopperOrderAnswer({ ask: ask(), delivery: null }, " f3kq 7zp1x", APP, NOW);
    expect(answer.ask?.open).toBe(true);
  });

  it.each(["answered", "expired", "released", "not_needed", "not_held"] as const)(
    "closes the question once the ask is %s",
    (state) => {
      const answer = shopperOrderAnswer(
        { ask: ask({ state }), delivery: null },
        "F3KQ7ZP1X",
        APP,
        NOW,
      );
      expect(answer.ask).toEqual({ checking: false, open: false, questions: [], link: null });
    },
  );

  it("closes the question when its link has expired", () => {
    const expired = ask({ linkExpiresAt: NOW });
    const answer = shopperOrderAnswer({ ask: expired, delivery: null }, "F3KQ7ZP1X", APP, NOW);
    expect(answer.ask?.open).toBe(false);
    expect(answer.ask?.link).toBeNull();
  });

  it("says the order is being prepared before the courier has it, with no link", () => {
    const waiting = delivery({ courierOrderNumber: null, step: null, expectedDay: null });
    const answer = shopperOrderAnswer({ ask: ask(), delivery: waiting }, "F3KQ7ZP1X", APP, NOW);
    expect(answer.delivery).toEqual({ status: "preparing", expectedDay: null, trackingLink: null });
  });

  it("gives the delivery's step, expected day and its own tracking link", () => {
    const answer = shopperOrderAnswer({ ask: ask(), delivery: delivery() }, "F3KQ7ZP1X", APP, NOW);
    expect(answer.delivery).toEqual({
      status: "in_transit",
      expectedDay: "2026-11-30",
      trackingLink: `${APP}/tracking/${"b".repeat(32)}`,
    });
    expect(shopperOrderResponse.parse(answer)).toEqual(answer);
  });

  it.each([
    ["a wrong confirmation number", ask(), "XXXXXXXXX"],
    ["no confirmation number kept", ask({ confirmationNumber: null }), "F3KQ7ZP1X"],
    ["no ask", null, "F3KQ7ZP1X"],
  ])("shows nothing, not even the delivery, for %s", (_name, row, confirmation) => {
    const answer = shopperOrderAnswer({ ask: row, delivery: delivery() }, confirmation, APP, NOW);
    expect(answer).toEqual({ ask: null, delivery: null });
  });
});

const answer = (
  a: Partial<NonNullable<ShopperOrderResponse["ask"]>> | null,
  d: ShopperOrderResponse["delivery"] = null,
): ShopperOrderResponse => ({
  ask: a && { checking: false, open: false, questions: [], link: null, ...a },
  delivery: d,
});

describe("the thank-you block's next step", () => {
  it("shows the question as soon as the app asks one", () => {
    expect(thankYouStep(answer({ open: true, questions: ["cash"], link: LINK }), 0)).toEqual({
      show: { questions: ["cash"], link: LINK },
    });
  });

  it("stops when the app decided there is nothing to ask", () => {
    expect(thankYouStep(answer({}), 0)).toEqual({ done: true });
  });

  it.each([
    ["the app does not know the order yet", answer(null)],
    ["the app is still checking it", answer({ checking: true })],
    ["the app did not answer", null],
  ])("asks again with growing waits while %s, then gives up", (_name, given) => {
    const waits = THANK_YOU_RETRY_DELAYS_MS.map((_, attempt) => thankYouStep(given, attempt));
    expect(waits).toEqual(THANK_YOU_RETRY_DELAYS_MS.map((ms) => ({ retryInMs: ms })));
    expect(thankYouStep(given, THANK_YOU_RETRY_DELAYS_MS.length)).toEqual({ done: true });
  });

  it("waits about twenty seconds in all", () => {
    const total = THANK_YOU_RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0);
    expect(total).toBeGreaterThanOrEqual(15_000);
    expect(total).toBeLessThanOrEqual(25_000);
    expect([...THANK_YOU_RETRY_DELAYS_MS]).toEqual(
      [...THANK_YOU_RETRY_DELAYS_MS].sort((a, b) => a - b),
    );
  });
});

describe("the order status block's view", () => {
  const moving = {
    status: "out_for_delivery",
    expectedDay: "2026-11-30",
    trackingLink: LINK,
  } as const;

  it("shows nothing for an order the app knows nothing of", () => {
    expect(orderStatusShown(answer(null))).toBeNull();
    expect(orderStatusShown(null)).toBeNull();
  });

  it("links to the question while one is open, before the delivery's tracking", () => {
    const shown = orderStatusShown(
      answer({ open: true, questions: ["address", "cash"], link: `${APP}/tracking/ask` }, moving),
    );
    expect(shown).toEqual({
      status: "out_for_delivery",
      expectedDay: "2026-11-30",
      link: { kind: "answer", href: `${APP}/tracking/ask` },
      questions: ["address", "cash"],
    });
  });

  it("links to follow the delivery once nothing is asked", () => {
    expect(orderStatusShown(answer({}, moving))?.link).toEqual({ kind: "follow", href: LINK });
  });

  it("says the order is being prepared, without a link, before there is a delivery", () => {
    expect(orderStatusShown(answer({}))).toEqual({
      status: "preparing",
      expectedDay: null,
      link: null,
      questions: [],
    });
  });

  it.each([
    [["address"], "address"],
    [["cash"], "cash"],
    [["address", "cash"], "both"],
  ] as const)("explains the questions %j with the %s text", (questions, key) => {
    expect(questionsKey(questions)).toBe(key);
  });
});

describe("asking the app from a shopper's block", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("asks the app's URL for the order with the session token and the confirmation number", async () => {
    vi.stubEnv("SHOPIFY_APP_URL", `${APP}/`);
    const calls: [string, RequestInit | undefined][] = [];
    const result = await fetchShopperOrder(
      { sessionToken: { get: async () => "checkout-token" } },
      { gid: "gid://shopify/Order/7001", confirmation: "F3KQ7ZP1X" },
      "order-status",
      async (url, init) => {
        calls.push([url, init]);
        return Response.json(answer(null));
      },
    );
    expect(result).toEqual(answer(null));
    expect(calls).toEqual([
      [
        `${APP}/api/shopper/orders/7001?confirmation=F3KQ7ZP1X&surface=order-status`,
        {
          headers: { Accept: "application/json", Authorization: "Bearer checkout-token" },
          signal: expect.any(AbortSignal),
        },
      ],
    ]);
  });

  it("throws when the app refuses, so the block shows nothing", async () => {
    vi.stubEnv("SHOPIFY_APP_URL", APP);
    await expect(
      fetchShopperOrder(
        { sessionToken: { get: async () => "t" } },
        { gid: "gid://shopify/Order/7001", confirmation: "F3KQ7ZP1X" },
        "thank-you",
        async () => new Response("", { status: 401 }),
      ),
    ).rejects.toThrow("401");
  });

  it("asks nobody when it was built without the app's URL", async () => {
    vi.stubEnv("SHOPIFY_APP_URL", "");
    expect(appUrl()).toBeNull();
    const fetchImpl = vi.fn();
    await expect(
      fetchShopperOrder(
        { sessionToken: { get: async () => "t" } },
        { gid: "gid://shopify/Order/7001", confirmation: "F3KQ7ZP1X" },
        "thank-you",
        fetchImpl,
      ),
    ).rejects.toThrow();
    expect(fetchImpl).not.toHaveBeenCalled();
  });
});
