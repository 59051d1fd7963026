import { normalizeArabic } from "../../app/addresses";
import { createCourierClient, type CourierClient } from "../../app/courier";
import prisma from "../../app/db.server";
import { runDueDeliveries, type WorkerDependencies } from "../../app/pipeline/worker.server";
import { loadCourierApiKey } from "../../app/models/courier-account.server";
import { ensureShopInstalled } from "../../app/models/shop.server";
import { loadCourierDirectory } from "../../app/services/courier-directory.server";
import { connectCourier, courierBaseUrl } from "../../app/services/courier-connection.server";
import { unauthenticated } from "../../app/shopify.server";
import { adminApi } from "./admin-api";
import { installShop } from "./shopify";
import { SANDBOX_KEY } from "./test-env";
import { trackingLink } from "../../app/domain/tracking-link";

/**
 * A shop ready to send deliveries: installed, connected to the courier sandbox, automatic sending
 * on, payment codes set, and one confirmed pickup location in Salmiya.
 */
export const PICKUP_LOCATION_ID = "gid://shopify/Location/701";

export async function readyShop(shop: string) {
  await installShop(shop);
  await ensureShopInstalled(shop);
  const outcome = await connectCourier({ shop, environment: "sandbox", apiKey: SANDBOX_KEY });
  if (!outcome.ok) throw new Error(outcome.error);
  await prisma.shopSettings.update({
    where: { shop },
    data: { autoSend: true, paymentCodeCod: "COD", paymentCodePrepaid: "PREPAID" },
  });
  const directory = (await loadCourierDirectory(shop, "sandbox"))!;
  const named = (name: string) => (x: { name: string }) =>
    normalizeArabic(x.name) === normalizeArabic(name);
  const hawalli = directory.governances.find(named("حولي"))!;
  const salmiya = directory.areas.find(named("السالمية"))!;
  await prisma.pickupLocation.create({
    data: {
      shop,
      locationId: PICKUP_LOCATION_ID,
      name: "Salmiya store",
      governanceId: hawalli.id,
      areaId: salmiya.id,
      block: "10",
      street: "Salem Al Mubarak",
      contactName: "Salmiya store",
      contactPhone: "22223333",
      confirmedAt: new Date(),
    },
  });
  return { directory };
}

export interface FakeOrder {
  fulfillmentNumber: number;
  orderNumber: number;
  city: string;
  address1: string;
  address2?: string;
  provinceCode?: string;
  outstanding?: string;
  countryCode?: string;
  /** The shop's currency (KWD unless said); amounts in it are the ones above. */
  shopCurrency?: string;
  /** What the customer paid in, when not the shop's currency (Shopify Markets). */
  paidIn?: { currency: string; total: string; outstanding: string };
  /** The order's customer locale (default null: Shopify did not say). */
  customerLocale?: string;
  /** The order's note (the shopper's instructions at checkout; default none). */
  note?: string;
  /** Shopify answers the fulfillment query with this error instead. */
  shopifyError?: string;
  /** What this fulfillment carries (default: 2 × Abaya, 600 g each, 24.500 for the line). */
  items?: FakeItem[];
}

export interface FakeItem {
  title: string;
  /** How many of the line this fulfillment carries. */
  quantity: number;
  /** The order line's quantity and price after discounts (both currencies alike). */
  lineQuantity: number;
  lineTotal: string;
  grams: number;
}

const ABAYAS: FakeItem[] = [
  { title: "Abaya", quantity: 2, lineQuantity: 2, lineTotal: "24.500", grams: 600 },
];

/** Programs the Admin API stand-in with fulfillments, and records tracking updates. */
export function programShopify(orders: FakeOrder[]) {
  const trackingUpdates: Record<string, unknown>[] = [];
  adminApi.on("DeliveryFulfillment", (variables) => {
    const order = orders.find(
      (o) => `gid://shopify/Fulfillment/${o.fulfillmentNumber}` === variables.id,
    );
    if (!order) return { data: { fulfillment: null } };
    if (order.shopifyError) return { errors: [{ message: order.shopifyError }] };
    return {
      data: {
        fulfillment: {
          id: variables.id,
          status: "SUCCESS",
          location: { id: PICKUP_LOCATION_ID },
          fulfillmentLineItems: {
            nodes: (order.items ?? ABAYAS).map((item) => ({
              quantity: item.quantity,
              lineItem: {
                title: item.title,
                quantity: item.lineQuantity,
                discountedTotalSet: {
                  shopMoney: { amount: item.lineTotal },
                  presentmentMoney: { amount: item.lineTotal },
                },
                weight: { unit: "GRAMS", value: item.grams },
              },
            })),
            pageInfo: { hasNextPage: false, endCursor: null },
          },
          order: {
            id: `gid://shopify/Order/${order.orderNumber}`,
            name: `#${order.orderNumber}`,
            note: order.note ?? null,
            phone: null,
            customerLocale: order.customerLocale ?? null,
            currencyCode: order.shopCurrency ?? "KWD",
            presentmentCurrencyCode: order.paidIn?.currency ?? order.shopCurrency ?? "KWD",
            totalPriceSet: {
              shopMoney: { amount: "24.500" },
              presentmentMoney: { amount: order.paidIn?.total ?? "24.500" },
            },
            totalOutstandingSet: {
              shopMoney: { amount: order.outstanding ?? "0.0" },
              presentmentMoney: {
                amount: order.paidIn?.outstanding ?? order.outstanding ?? "0.0",
              },
            },
            shippingAddress: {
              name: "Fatima Al-Sabah",
              phone: "+965 9999 1234",
              address1: order.address1,
              address2: order.address2 ?? null,
              city: order.city,
              zip: null,
              provinceCode: order.provinceCode ?? null,
              countryCodeV2: order.countryCode ?? "KW",
              latitude: null,
              longitude: null,
            },
          },
        },
      },
    };
  });
  // What Shopify's fulfillments carry: the last tracking written to each.
  adminApi.on("DeliveryFulfillmentTracking", (variables) => {
    const last = trackingUpdates.findLast((u) => u.fulfillmentId === variables.id) as
      { trackingInfoInput: { number: string; url: string } } | undefined;
    return {
      data: {
        fulfillment: {
          id: variables.id,
          trackingInfo: last
            ? [{ number: last.trackingInfoInput.number, url: last.trackingInfoInput.url }]
            : [],
        },
      },
    };
  });
  adminApi.on("DeliveryTrackingUpdate", (variables) => {
    trackingUpdates.push(variables);
    return {
      data: {
        fulfillmentTrackingInfoUpdate: {
          fulfillment: { id: variables.fulfillmentId },
          userErrors: [],
        },
      },
    };
  });
  return { trackingUpdates };
}

/** The fulfillments/create payload Shopify sends for a fake order. */
export function fulfillmentPayload(order: FakeOrder) {
  return {
    id: order.fulfillmentNumber,
    admin_graphql_api_id: `gid://shopify/Fulfillment/${order.fulfillmentNumber}`,
    order_id: order.orderNumber,
    location_id: Number(PICKUP_LOCATION_ID.split("/").pop()),
    name: `#${order.orderNumber}.1`,
    status: "success",
    destination: { country_code: order.countryCode ?? "KW", city: order.city },
  };
}

/** Worker dependencies for tests: a controllable clock, short courier timeouts, no delays. */
export function testWorker(
  overrides: Partial<WorkerDependencies> & {
    timeoutMs?: number;
    /** A clock shared with others (the courier sandbox's, another worker's). */
    clock?: { now: Date };
  } = {},
) {
  const clock = overrides.clock ?? { now: new Date() };
  const deps: WorkerDependencies = {
    owner: "test-worker",
    courierFor: async (shop, environment): Promise<CourierClient | null> => {
      // As in production: an unreadable key gives no courier, not an exception.
      const stored = await loadCourierApiKey(shop);
      const baseUrl = courierBaseUrl(environment);
      return stored.status === "readable" && baseUrl
        ? createCourierClient({
            baseUrl,
            apiKey: stored.apiKey,
            timeoutMs: overrides.timeoutMs ?? 2_000,
            retryBaseDelayMs: 1,
          })
        : null;
    },
    adminFor: async (shop) => (await unauthenticated.admin(shop)).admin,
    trackingUrl: (delivery) => trackingLink("https://app.example", delivery),
    courierDisplayName: "Test Courier",
    now: () => clock.now,
    courierTimeoutMs: overrides.timeoutMs ?? 2_000,
    reconcileDelayMs: 0,
    ...overrides,
  };
  return {
    deps,
    clock,
    advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms);
    },
    /**
     * Lets time pass as the worker asks: runs passes until nothing is due, moves the clock to the
     * next time a delivery of the worker's states waits for, and again, until none waits (bounded).
     */
    async settle(rounds = 40) {
      for (let round = 0; round < rounds; round += 1) {
        await this.drain();
        const next = await prisma.delivery.findFirst({
          where: {
            state: { in: ["pending", "ready", "creating", "unknown", "created"] },
            nextAttemptAt: { gt: clock.now },
          },
          orderBy: { nextAttemptAt: "asc" },
          select: { nextAttemptAt: true },
        });
        if (!next?.nextAttemptAt) return;
        clock.now = next.nextAttemptAt;
      }
    },
    /** Runs passes until nothing is due (bounded). */
    async drain(maxPasses = 20) {
      let handled = 0;
      for (let i = 0; i < maxPasses; i += 1) {
        const n = await runDueDeliveries(deps, 20);
        if (n === 0) break;
        handled += n;
      }
      return handled;
    },
  };
}
