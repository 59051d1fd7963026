import { z } from "zod";
import { runAdminOperation, userErrorsMessage, type AdminGraphql } from "./graphql";

/**
 * The Admin operations of asking the shopper (issue 26): the order's fulfillment orders, the app's
 * own hold on each (Shopify shows staff why the order waits and refuses to fulfil it meanwhile),
 * its release, the answer written back to the order, and the shop's name for the shopper's page.
 */

const userErrors = z.array(
  z.object({ field: z.array(z.string()).nullable().optional(), message: z.string() }),
);

const ORDER_FULFILLMENT_ORDERS = `#graphql
  query ShopperAskFulfillmentOrders($id: ID!) {
    order(id: $id) {
      id
      fulfillmentOrders(first: 10) {
        nodes {
          id
          status
          fulfillmentHolds { id handle }
        }
      }
    }
  }`;

const fulfillmentOrdersReply = z.object({
  order: z
    .object({
      id: z.string(),
      fulfillmentOrders: z.object({
        nodes: z.array(
          z.object({
            id: z.string(),
            status: z.string(),
            fulfillmentHolds: z.array(z.object({ id: z.string(), handle: z.string().nullable() })),
          }),
        ),
      }),
    })
    .nullable(),
});

export interface OrderFulfillmentOrder {
  id: string;
  status: string;
  holds: { id: string; handle: string | null }[];
}

/** The order's fulfillment orders with their holds; null when Shopify has no such order. */
export async function orderFulfillmentOrders(
  admin: AdminGraphql,
  orderId: string,
): Promise<OrderFulfillmentOrder[] | null> {
  const data = await runAdminOperation(
    admin,
    "ShopperAskFulfillmentOrders",
    ORDER_FULFILLMENT_ORDERS,
    fulfillmentOrdersReply,
    { id: orderId },
  );
  return (
    data.order?.fulfillmentOrders.nodes.map((f) => ({
      id: f.id,
      status: f.status,
      holds: f.fulfillmentHolds,
    })) ?? null
  );
}

const HOLD = `#graphql
  mutation ShopperAskHold($id: ID!, $fulfillmentHold: FulfillmentOrderHoldInput!) {
    fulfillmentOrderHold(id: $id, fulfillmentHold: $fulfillmentHold) {
      fulfillmentHold { id handle }
      userErrors { field message }
    }
  }`;

const holdReply = z.object({
  fulfillmentOrderHold: z.object({
    fulfillmentHold: z.object({ id: z.string(), handle: z.string().nullable() }).nullable(),
    userErrors,
  }),
});

/** Puts the app's hold on a fulfillment order: its id, or why Shopify refused it. */
export async function holdFulfillmentOrder(
  admin: AdminGraphql,
  input: {
    fulfillmentOrderId: string;
    reason: "INCORRECT_ADDRESS" | "OTHER";
    note: string;
    handle: string;
  },
): Promise<{ ok: true; holdId: string } | { ok: false; refusal: string }> {
  const data = await runAdminOperation(admin, "ShopperAskHold", HOLD, holdReply, {
    id: input.fulfillmentOrderId,
    fulfillmentHold: {
      reason: input.reason,
      reasonNotes: input.note,
      handle: input.handle,
      notifyMerchant: false,
    },
  });
  const hold = data.fulfillmentOrderHold;
  if (hold.fulfillmentHold) return { ok: true, holdId: hold.fulfillmentHold.id };
  return { ok: false, refusal: userErrorsMessage(hold.userErrors) || "no hold was placed" };
}

const RELEASE = `#graphql
  mutation ShopperAskRelease($id: ID!, $holdIds: [ID!]) {
    fulfillmentOrderReleaseHold(id: $id, holdIds: $holdIds) {
      fulfillmentOrder { id status }
      userErrors { field message }
    }
  }`;

const releaseReply = z.object({
  fulfillmentOrderReleaseHold: z.object({
    fulfillmentOrder: z.object({ id: z.string(), status: z.string() }).nullable(),
    userErrors,
  }),
});

/**
 * Releases the app's holds on a fulfillment order. A hold that is no longer there (staff released
 * it, the order was cancelled) is released already: only a refusal to release one that is there
 * is an error.
 */
export async function releaseFulfillmentOrderHolds(
  admin: AdminGraphql,
  fulfillmentOrderId: string,
  holdIds: string[],
): Promise<{ ok: true } | { ok: false; refusal: string }> {
  const data = await runAdminOperation(admin, "ShopperAskRelease", RELEASE, releaseReply, {
    id: fulfillmentOrderId,
    holdIds,
  });
  const release = data.fulfillmentOrderReleaseHold;
  if (release.userErrors.length === 0) return { ok: true };
  const message = userErrorsMessage(release.userErrors);
  // Nothing of ours left to release: what the call was for is done.
  if (/not on hold|no hold|cannot be released|not found|closed|cancel/i.test(message))
    return { ok: true };
  return { ok: false, refusal: message };
}

const ORDER_UPDATE = `#graphql
  mutation ShopperAskOrderUpdate($input: OrderInput!) {
    orderUpdate(input: $input) {
      order { id }
      userErrors { field message }
    }
  }`;

const orderUpdateReply = z.object({
  orderUpdate: z.object({ order: z.object({ id: z.string() }).nullable(), userErrors }),
});

export interface MailingAddress {
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  address1: string;
  address2: string | null;
  city: string | null;
  provinceCode: string | null;
  countryCode: "KW";
}

/** Writes the shopper's answer on the order: its shipping address (when changed) and metafields. */
export async function updateOrderWithAnswer(
  admin: AdminGraphql,
  input: {
    orderId: string;
    shippingAddress: MailingAddress | null;
    metafields: { namespace: string; key: string; type: string; value: string }[];
  },
): Promise<{ ok: true } | { ok: false; refusal: string }> {
  const data = await runAdminOperation(
    admin,
    "ShopperAskOrderUpdate",
    ORDER_UPDATE,
    orderUpdateReply,
    {
      input: {
        id: input.orderId,
        ...(input.shippingAddress ? { shippingAddress: input.shippingAddress } : {}),
        metafields: input.metafields,
      },
    },
  );
  const errors = data.orderUpdate.userErrors;
  return errors.length === 0 ? { ok: true } : { ok: false, refusal: userErrorsMessage(errors) };
}

const SHOP_NAME = `#graphql
  query ShopperAskShopName {
    shop { name }
  }`;

/** The shop's name as Shopify has it. */
export async function fetchShopName(admin: AdminGraphql): Promise<string> {
  const data = await runAdminOperation(
    admin,
    "ShopperAskShopName",
    SHOP_NAME,
    z.object({ shop: z.object({ name: z.string() }) }),
  );
  return data.shop.name;
}
