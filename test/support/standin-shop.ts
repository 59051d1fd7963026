import { getGlobalDispatcher } from "undici";
import prisma from "../../app/db.server";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { action as ordersCreate } from "../../app/routes/webhooks.orders.create";
import { gid, routeShopifyToStandIn, type ShopifyStandIn } from "../../sandbox/shopify";
import type { OrderInput, OutgoingWebhook } from "../../sandbox/shopify";
import { startTestStandIn } from "../shopify-standin/support";
import { readyShop } from "./pipeline";
import { APP_URL, callRoute, shopDomain } from "./shopify";

/**
 * A shop ready to send deliveries whose Shopify is the stand-in (sandbox/shopify): its real Admin
 * API with the leaky cost bucket, on the test's clock, and its fulfillments/create and orders/create
 * webhooks handed to the app's routes (other topics are acknowledged and ignored). Needs the
 * courier sandbox.
 */
export interface StandInShop {
  shop: string;
  standIn: ShopifyStandIn;
  /** The pickup location's gid in the stand-in. */
  locationId: string;
  /** Adds an order and fulfils it (its webhook goes to the app unless dropped); its gid. */
  fulfilNewOrder(order?: Omit<OrderInput, "locationId">): {
    orderId: string;
    fulfillmentId: string;
  };
  /** Successful tracking writes Shopify accepted, per fulfillment gid. */
  trackingWrites(): Map<string, number>;
  close(): Promise<void>;
}

export async function startStandInShop(
  name: string,
  clock: { now: Date },
  costLimits?: { maximumAvailable?: number; restoreRate?: number },
): Promise<StandInShop> {
  const shop = shopDomain(name);
  const routes = {
    "/webhooks/fulfillments/create": fulfillmentsCreate,
    "/webhooks/orders/create": ordersCreate,
  };
  const deliverToApp = async (webhook: OutgoingWebhook) => {
    const path = Object.keys(routes).find((p) => webhook.url.endsWith(p)) as
      keyof typeof routes | undefined;
    if (!path) return { status: 200 };
    const response = await callRoute(
      routes[path],
      new Request(new URL(path, APP_URL), {
        method: "POST",
        headers: webhook.headers,
        body: webhook.body,
      }),
    );
    return { status: response.status };
  };
  const standIn = await startTestStandIn({
    shop,
    clock: () => clock.now.getTime(),
    appUrl: APP_URL,
    webhooks: { transport: deliverToApp, retryDelayMs: 1 },
    ...(costLimits ? { costLimits } : {}),
  });
  const location = standIn.store.addLocation({ name: "Salmiya store" });
  await readyShop(shop);
  standIn.auth.issueAccessToken({ token: `offline-token-${shop}` });
  const locationId = gid("Location", location.id);
  await prisma.pickupLocation.updateMany({ where: { shop }, data: { locationId } });
  const uninstall = routeShopifyToStandIn(standIn.url, { fallback: getGlobalDispatcher() });
  return {
    shop,
    standIn,
    locationId,
    fulfilNewOrder(input = {}) {
      const order = standIn.store.addOrder({ ...input, locationId: location.id });
      const fulfillment = standIn.store.fulfillOrder(order.id);
      return { orderId: gid("Order", order.id), fulfillmentId: gid("Fulfillment", fulfillment.id) };
    },
    trackingWrites() {
      const writes = new Map<string, number>();
      for (const call of standIn.store.graphqlLog) {
        if (call.operationName !== "DeliveryTrackingUpdate" || call.outcome !== "ok") continue;
        if (call.userErrors.length > 0) continue;
        const id = String(call.variables.fulfillmentId);
        writes.set(id, (writes.get(id) ?? 0) + 1);
      }
      return writes;
    },
    close: async () => {
      await standIn.webhooks.flush();
      await uninstall();
      await standIn.close();
    },
  };
}
