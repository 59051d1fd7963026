import { render } from "preact";
import { expect, vi } from "vitest";
import type { ShopperOrderResponse } from "../../../app/api-contract";
import { localeTranslate } from "./fake-admin";

/**
 * Shopify's thank-you and order status pages as the shopper's blocks see them, for rendering
 * their real Preact trees in happy-dom, as fake-admin.ts does for the admin: the `shopify`
 * global of each target (the order confirmation or the order, the session token, i18n from the
 * block's own locales/), the app's URL the build writes in, and `fetch` to the app answered in
 * turn from the test's list (the last answer repeats).
 */

export const APP_URL = "https://courier.example.com";
export const CHECKOUT_TOKEN = "header.checkout-session-token.signature";

export type StorefrontBlock = "shopper-thank-you-block" | "shopper-order-status-block";

/** An answer of the app, or a status it refuses with. */
export type AppAnswer = ShopperOrderResponse | { status: number };

export interface FakeStorefrontOptions {
  extension: StorefrontBlock;
  locale?: "en" | "ar";
  /** The order's numeric id and its confirmation number (none on very old orders). */
  order: { id: number; confirmation: string | null };
  answers: AppAnswer[];
}

export interface FakeStorefront {
  requests: { url: string; authorization: string | null }[];
  missingKeys: string[];
}

export function installFakeStorefront(options: FakeStorefrontOptions): FakeStorefront {
  const locale = options.locale ?? "en";
  const page: FakeStorefront = { requests: [], missingKeys: [] };
  const gid = `gid://shopify/Order/${options.order.id}`;
  const confirmation = options.order.confirmation ?? undefined;
  const signal = <T>(value: T) => ({ value, current: value, subscribe: () => () => {} });

  const shopify: Record<string, unknown> = {
    extension: {
      target:
        options.extension === "shopper-thank-you-block"
          ? "purchase.thank-you.block.render"
          : "customer-account.order-status.block.render",
    },
    i18n: {
      translate: localeTranslate(options.extension, locale, page.missingKeys),
      formatDate: (d: Date, o?: Intl.DateTimeFormatOptions) =>
        new Intl.DateTimeFormat(locale, o).format(d),
    },
    localization: { extensionLanguage: signal({ isoCode: locale }) },
    sessionToken: { get: async () => CHECKOUT_TOKEN },
  };
  if (options.extension === "shopper-thank-you-block") {
    // The thank-you page names the order by its OrderIdentity, whose number is the order's.
    shopify.orderConfirmation = signal({
      order: { id: `gid://shopify/OrderIdentity/${options.order.id}` },
      number: confirmation,
      isFirstOrder: true,
    });
  } else {
    shopify.order = signal({ id: gid, name: "#1001", confirmationNumber: confirmation });
  }
  vi.stubGlobal("shopify", shopify);
  // Shopify's CLI writes the app's URL into the bundle from the build's environment.
  vi.stubEnv("SHOPIFY_APP_URL", APP_URL);

  let turn = 0;
  vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
    const authorization = new Headers(init.headers).get("Authorization");
    page.requests.push({ url: input, authorization });
    // authenticate.public.checkout: no session token, no answer.
    if (authorization !== `Bearer ${CHECKOUT_TOKEN}`) return new Response("", { status: 401 });
    const answer = options.answers[Math.min(turn++, options.answers.length - 1)];
    if (!answer) throw new Error("The fake storefront has no answer to give");
    return "status" in answer ? new Response("", { status: answer.status }) : Response.json(answer);
  });
  return page;
}

/** Unmounts the block, puts the real `fetch` and environment back, and checks the texts. */
export function closeBlock(page: FakeStorefront): void {
  render(null, document.body);
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  expect(page.missingKeys, "texts missing from the block's locale").toEqual([]);
}

export const nothingToShow: ShopperOrderResponse = { ask: null, delivery: null };

export function asked(questions: ("address" | "cash")[] = ["address"]): ShopperOrderResponse {
  return {
    ask: { checking: false, open: true, questions, link: `${APP_URL}/tracking/${"a".repeat(32)}` },
    delivery: null,
  };
}

export function checking(): ShopperOrderResponse {
  return { ask: { checking: true, open: false, questions: [], link: null }, delivery: null };
}

export function decided(delivery: ShopperOrderResponse["delivery"] = null): ShopperOrderResponse {
  return { ask: { checking: false, open: false, questions: [], link: null }, delivery };
}
