import { z } from "zod";
import {
  runAdminOperation,
  ShopifyReplyError,
  userErrorsMessage,
  type AdminGraphql,
} from "./graphql";

// The fields of an order "Send to courier" and the price quote need: about 21 points each, so the
// orders are asked for 25 at a time (Shopify refuses a query over 1,000 points). The currencies
// are scalars, free: an order the courier cannot take for its currency is refused before Send
// fulfils it.
export const SENDABLE_ORDER_FIELDS = `
  id
  name
  createdAt
  displayFinancialStatus
  currencyCode
  presentmentCurrencyCode
  totalPriceSet { shopMoney { amount currencyCode } }
  shippingAddress { address1 address2 city zip provinceCode countryCodeV2 }
  fulfillmentOrders(first: 5) {
    nodes { id status assignedLocation { location { id } } }
  }`;

const sendableOrder = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  displayFinancialStatus: z.string().nullable(),
  currencyCode: z.string(),
  presentmentCurrencyCode: z.string(),
  totalPriceSet: z.object({
    shopMoney: z.object({ amount: z.string(), currencyCode: z.string() }),
  }),
  shippingAddress: z
    .object({
      address1: z.string().nullable(),
      address2: z.string().nullable(),
      city: z.string().nullable(),
      zip: z.string().nullable(),
      provinceCode: z.string().nullable(),
      countryCodeV2: z.string().nullable(),
    })
    .nullable(),
  fulfillmentOrders: z.object({
    nodes: z.array(
      z.object({
        id: z.string(),
        status: z.string(),
        assignedLocation: z.object({ location: z.object({ id: z.string() }).nullable() }),
      }),
    ),
  }),
});

const ordersByIdReply = z.object({ nodes: z.array(z.unknown()) });

export type SendableOrder = z.infer<typeof sendableOrder>;

const ORDERS_BY_ID = `#graphql
  query SendOrdersById($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Order { ${SENDABLE_ORDER_FIELDS} }
    }
  }`;

/**
 * The orders with these ids, in chunks small enough for Shopify's query cost limit (an order with
 * its fulfillment orders costs about 21 points; a query may cost at most 1,000).
 */
export async function fetchOrdersByIds(
  admin: AdminGraphql,
  ids: readonly string[],
): Promise<SendableOrder[]> {
  const orders: SendableOrder[] = [];
  for (let i = 0; i < ids.length; i += 25) {
    const data = await runAdminOperation(admin, "SendOrdersById", ORDERS_BY_ID, ordersByIdReply, {
      ids: ids.slice(i, i + 25),
    });
    // A missing id comes back null; something that is not an order, as an empty object.
    for (const node of data.nodes) {
      const order = sendableOrder.safeParse(node);
      if (order.success) orders.push(order.data);
    }
  }
  return orders;
}

const FULFILL = `#graphql
  mutation SendFulfillment($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment { id status }
      userErrors { field message }
    }
  }`;

const fulfillReply = z.object({
  fulfillmentCreate: z.object({
    fulfillment: z.object({ id: z.string(), status: z.string() }).nullable(),
    userErrors: z.array(z.object({ field: z.array(z.string()).nullable(), message: z.string() })),
  }),
});

/** Fulfills a whole fulfillment order in Shopify (the merchant pressed "Send to courier"). */
export async function fulfillFulfillmentOrder(
  admin: AdminGraphql,
  fulfillmentOrderId: string,
): Promise<string> {
  const data = await runAdminOperation(admin, "SendFulfillment", FULFILL, fulfillReply, {
    fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId }], notifyCustomer: false },
  });
  const { fulfillment, userErrors } = data.fulfillmentCreate;
  if (userErrors.length > 0 || !fulfillment) {
    throw new ShopifyReplyError(
      `Shopify did not fulfil the order: ${userErrorsMessage(userErrors)}`,
      "SendFulfillment",
    );
  }
  return fulfillment.id;
}
