import { z } from "zod";
import type { OrderDeliveriesResponse } from "../api-contract";
import { listOrderDeliveries } from "../models/deliveries.server";
import { getShopSettings, rememberShopifyShopName } from "../models/shop.server";
import type { AdminGraphql } from "../shopify/graphql";
import { fetchOrdersByIds } from "../shopify/orders";
import { whenShopifyAllows } from "../shopify/sending";
import { deliveryView } from "./delivery-view";

/** States after which an order's fulfillment no longer holds the order (it may be sent again). */
const GONE = ["skipped", "cancelled"];

/**
 * The order page's block: the order's deliveries (one per fulfillment, newest first) and whether
 * "Send to courier" can do anything for it now. Null when the shop has no such order: neither a
 * delivery of it nor Shopify (asked with this shop's token) knows it.
 */
export async function orderDeliveries(
  shop: string,
  admin: AdminGraphql,
  orderId: string,
): Promise<OrderDeliveriesResponse | null> {
  const [rows, orders] = await Promise.all([
    listOrderDeliveries(shop, orderId),
    whenShopifyAllows(() => fetchOrdersByIds(admin, [orderId])).catch(() => null),
  ]);
  const order = orders?.find((o) => o.id === orderId);
  if (rows.length === 0 && !order) return null;
  return {
    orderId,
    orderName: order?.name ?? rows[0]?.orderName ?? null,
    deliveries: rows.map(deliveryView),
    send: sendPossibility(order, orders === null, rows),
  };
}

function sendPossibility(
  order: Awaited<ReturnType<typeof fetchOrdersByIds>>[number] | undefined,
  shopifyFailed: boolean,
  rows: readonly { state: string; fulfillmentId: string | null }[],
): OrderDeliveriesResponse["send"] {
  if (shopifyFailed) return { possible: false, reason: "Shopify did not answer; try again." };
  if (!order) return { possible: false, reason: "Shopify does not show this order." };
  if (order.shippingAddress?.countryCodeV2 !== "KW")
    return { possible: false, reason: "The order does not ship to Kuwait." };
  if (rows.some((r) => r.fulfillmentId === null && !GONE.includes(r.state)))
    return { possible: false, reason: "This order is already being sent." };
  if (!order.fulfillmentOrders.nodes.some((fo) => fo.status === "OPEN"))
    return { possible: false, reason: "The order has nothing left to fulfil." };
  return { possible: true, reason: null };
}

const shopNameReply = z.object({ shop: z.object({ name: z.string() }) });

/**
 * The store's name for its labels: the name the merchant gave the shoppers' pages, else Shopify's,
 * read from Shopify once and kept (a round trip to Shopify on every print was most of the labels
 * page's time); its myshopify handle when Shopify does not say.
 */
export async function shopDisplayName(shop: string, admin: AdminGraphql): Promise<string> {
  const settings = await getShopSettings(shop);
  const known = settings?.trackingShopName?.trim() || settings?.shopifyShopName;
  if (known) return known;
  try {
    const response = await admin.graphql(`#graphql
      query LabelShopName { shop { name } }`);
    const parsed = shopNameReply.safeParse(((await response.json()) as { data?: unknown }).data);
    if (parsed.success) {
      await rememberShopifyShopName(shop, parsed.data.shop.name);
      return parsed.data.shop.name;
    }
  } catch {
    // The labels print without it.
  }
  return shop.replace(/\.myshopify\.com$/, "");
}
