import type { ShopperOrderResponse } from "../../app/api-contract";

/**
 * The shopper's blocks on Shopify's thank-you and order status pages (issue 27): the app's answer
 * for one order (docs/api-contract.md, `GET /api/shopper/orders/:orderId`) and what to show of
 * it. Types only from the app's contract, as for the admin extensions.
 */

/**
 * The app's public URL. Unlike the admin, checkout and customer accounts do not resolve a
 * relative URL against the app: Shopify's CLI writes each environment variable of the build into
 * the bundle (`process.env.NAME`), so the blocks are built with SHOPIFY_APP_URL set. Without it
 * the reference stays and throws in Shopify's worker, where there is no `process`: no URL, and
 * the blocks show nothing rather than ask the wrong server.
 */
declare const process: { env: Record<string, string | undefined> };
export function appUrl(): string | null {
  try {
    const url = process.env.SHOPIFY_APP_URL;
    return url && /^https?:\/\//.test(url) ? url.replace(/\/+$/, "") : null;
  } catch {
    return null;
  }
}

export interface ShopperHost {
  sessionToken: { get: () => Promise<string> };
}

/**
 * What the blocks use of their targets' APIs (purchase.thank-you's OrderConfirmationApi, the
 * order status's OrderStatusApi, and StandardApi), written out: those surfaces' typings declare a
 * global `shopify` that clashes with the admin's (extensions/shopify.d.ts) and App Bridge's.
 * Names and shapes as in @shopify/ui-extensions 2026.10.
 */
export interface ThankYouApi extends ShopperHost {
  orderConfirmation: { value: { order: { id: string }; number?: string } };
  i18n: { translate: (key: string, options?: Record<string, unknown>) => unknown };
}

export interface OrderStatusApi extends ShopperHost {
  order: { value: { id: string; confirmationNumber?: string } | undefined };
  i18n: {
    translate: (key: string, options?: Record<string, unknown>) => unknown;
    formatDate: (date: Date, options?: Intl.DateTimeFormatOptions) => string;
  };
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** "gid://shopify/Order/7001" (or an OrderIdentity gid) → "7001". */
export function orderNumber(gid: string): string | null {
  const id = gid.slice(gid.lastIndexOf("/") + 1);
  return /^\d{1,20}$/.test(id) ? id : null;
}

/** The app's answer for the order, or throws when it gave none (offline, refused, broken). */
export async function fetchShopperOrder(
  host: ShopperHost,
  order: { gid: string; confirmation: string },
  surface: "thank-you" | "order-status",
  fetchImpl: Fetch = (i, o) => fetch(i, o),
): Promise<ShopperOrderResponse> {
  const base = appUrl();
  const id = orderNumber(order.gid);
  if (!base || !id) throw new Error("No app URL or order id.");
  const query = new URLSearchParams({ confirmation: order.confirmation, surface });
  const response = await fetchImpl(`${base}/api/shopper/orders/${id}?${query.toString()}`, {
    headers: {
      Accept: "application/json",
      Authorization: `Bearer ${await host.sessionToken.get()}`,
    },
    // A hung request would stop the thank-you block's further questions: count it as failed.
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`The app answered ${response.status}.`);
  return (await response.json()) as ShopperOrderResponse;
}

/**
 * How long the thank-you block waits before each further question: the app hears of the order
 * (orders/create) and checks it a second or a few after checkout; about 20 s in all, then the
 * block gives up and shows nothing.
 */
export const THANK_YOU_RETRY_DELAYS_MS = [1_000, 2_000, 3_000, 5_000, 8_000] as const;

export type ThankYouStep =
  | { show: { questions: ("address" | "cash")[]; link: string } }
  | { retryInMs: number }
  | { done: true };

/**
 * After the `attempt`-th answer (0 for the first; null when the app could not be asked): show
 * the question, ask again later, or stop with nothing shown. An order the app does not know yet,
 * or is still checking, is asked about again; one it has decided about is not.
 */
export function thankYouStep(answer: ShopperOrderResponse | null, attempt: number): ThankYouStep {
  const ask = answer?.ask;
  if (ask?.open && ask.link) return { show: { questions: ask.questions, link: ask.link } };
  if (ask && !ask.checking) return { done: true };
  const delay = THANK_YOU_RETRY_DELAYS_MS[attempt];
  return delay === undefined ? { done: true } : { retryInMs: delay };
}

export type ShopperStatus = NonNullable<ShopperOrderResponse["delivery"]>["status"];

export interface OrderStatusShown {
  status: ShopperStatus;
  expectedDay: string | null;
  /** Answer the open question, or follow the parcel; none before there is anything to follow. */
  link: { kind: "answer" | "follow"; href: string } | null;
  questions: ("address" | "cash")[];
}

/** What the order status block shows, or null for an order the app has nothing to say about. */
export function orderStatusShown(answer: ShopperOrderResponse | null): OrderStatusShown | null {
  if (!answer?.ask && !answer?.delivery) return null;
  const { ask, delivery } = answer;
  const open = ask?.open && ask.link ? ask.link : null;
  return {
    status: delivery?.status ?? "preparing",
    expectedDay: delivery?.expectedDay ?? null,
    link: open
      ? { kind: "answer", href: open }
      : delivery?.trackingLink
        ? { kind: "follow", href: delivery.trackingLink }
        : null,
    questions: open ? (ask?.questions ?? []) : [],
  };
}

/** "2026-11-30" as a date at noon in Kuwait, so no time zone moves it to another day. */
export function kuwaitDate(day: string): Date {
  return new Date(`${day}T12:00:00+03:00`);
}

/** Which explanation the shopper reads for the questions asked (each block's locales have all three). */
export function questionsKey(
  questions: readonly ("address" | "cash")[],
): "address" | "cash" | "both" {
  const address = questions.includes("address");
  const cash = questions.includes("cash");
  return address && cash ? "both" : cash ? "cash" : "address";
}
