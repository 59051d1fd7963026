import { z } from "zod";
import {
  runAdminOperation,
  ShopifyReplyError,
  userErrorsMessage,
  type AdminGraphql,
} from "./graphql";

const SENDABLE_ORDERS = `#graphql
  query SendableOrders($first: Int!, $query: String) {
    orders(first: $first, query: $query, sortKey: CREATED_AT, reverse: true) {
      nodes {
        id
        name
        createdAt
        displayFinancialStatus
        totalPriceSet { shopMoney { amount currencyCode } }
        shippingAddress { address1 address2 city zip provinceCode countryCodeV2 }
        fulfillmentOrders(first: 10) {
          nodes { id status assignedLocation { location { id } } }
        }
      }
    }
  }`;

const sendableReply = z.object({
  orders: z.object({
    nodes: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        createdAt: z.string(),
        displayFinancialStatus: z.string().nullable(),
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
      }),
    ),
  }),
});

export type SendableOrder = z.infer<typeof sendableReply>["orders"]["nodes"][number];

/** Unfulfilled orders, newest first, with their open fulfillment orders and where they ship from. */
export async function fetchSendableOrders(
  admin: AdminGraphql,
  first = 50,
): Promise<SendableOrder[]> {
  const data = await runAdminOperation(admin, "SendableOrders", SENDABLE_ORDERS, sendableReply, {
    first,
    query: "fulfillment_status:unshipped AND status:open",
  });
  return data.orders.nodes;
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
