import { shopperOrderResponse, type ShopperOrderResponse } from "../api-contract";
import { shopperOrderAnswer } from "../domain/shopper-order";
import { env } from "../env.server";
import { shopperOrderRows } from "../models/read/shopper-order.server";

/**
 * The shopper's blocks: the order's open question and delivery, as its shopper may see them
 * (app/domain/shopper-order.ts), checked against the contract before it leaves.
 */
export async function shopperOrder(
  shop: string,
  orderGid: string,
  confirmation: string,
  now = new Date(),
): Promise<ShopperOrderResponse> {
  const rows = await shopperOrderRows(shop, orderGid);
  return shopperOrderResponse.parse(
    shopperOrderAnswer(rows, confirmation, env().SHOPIFY_APP_URL, now),
  );
}
