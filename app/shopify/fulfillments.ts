import { z } from "zod";
import type { OrderForDelivery } from "../deliveries/request";
import {
  runAdminOperation,
  ShopifyReplyError,
  userErrorsMessage,
  type AdminGraphql,
} from "./graphql";

const DELIVERY_FULFILLMENT = `#graphql
  query DeliveryFulfillment($id: ID!) {
    fulfillment(id: $id) {
      id
      status
      location { id }
      fulfillmentLineItems(first: 100) {
        nodes {
          quantity
          lineItem {
            title
            quantity
            discountedTotalSet { shopMoney { amount } presentmentMoney { amount } }
            variant { inventoryItem { measurement { weight { unit value } } } }
          }
        }
      }
      order {
        id
        name
        phone
        currencyCode
        presentmentCurrencyCode
        totalPriceSet { shopMoney { amount } presentmentMoney { amount } }
        totalOutstandingSet { shopMoney { amount } presentmentMoney { amount } }
        shippingAddress {
          name
          phone
          address1
          address2
          city
          zip
          provinceCode
          countryCodeV2
          latitude
          longitude
        }
      }
    }
  }`;

const money = z.object({
  shopMoney: z.object({ amount: z.string() }),
  presentmentMoney: z.object({ amount: z.string() }),
});
const weight = z.object({
  unit: z.enum(["GRAMS", "KILOGRAMS", "OUNCES", "POUNDS"]),
  value: z.number(),
});

const fulfillmentReply = z.object({
  fulfillment: z
    .object({
      id: z.string(),
      status: z.string(),
      location: z.object({ id: z.string() }).nullable(),
      fulfillmentLineItems: z.object({
        nodes: z.array(
          z.object({
            quantity: z.number(),
            lineItem: z.object({
              title: z.string(),
              quantity: z.number(),
              discountedTotalSet: money,
              variant: z
                .object({
                  inventoryItem: z
                    .object({ measurement: z.object({ weight: weight.nullable() }).nullable() })
                    .nullable(),
                })
                .nullable(),
            }),
          }),
        ),
      }),
      order: z.object({
        id: z.string(),
        name: z.string(),
        phone: z.string().nullable(),
        currencyCode: z.string(),
        presentmentCurrencyCode: z.string(),
        totalPriceSet: money,
        totalOutstandingSet: money,
        shippingAddress: z
          .object({
            name: z.string().nullable(),
            phone: z.string().nullable(),
            address1: z.string().nullable(),
            address2: z.string().nullable(),
            city: z.string().nullable(),
            zip: z.string().nullable(),
            provinceCode: z.string().nullable(),
            countryCodeV2: z.string().nullable(),
            latitude: z.number().nullable(),
            longitude: z.number().nullable(),
          })
          .nullable(),
      }),
    })
    .nullable(),
});

export const KG_PER_UNIT = {
  GRAMS: 0.001,
  KILOGRAMS: 1,
  OUNCES: 0.028349523125,
  POUNDS: 0.45359237,
} as const;

export interface DeliveryFulfillment {
  fulfillmentId: string;
  status: string;
  locationId: string | null;
  order: OrderForDelivery;
}

/** The fulfillment with what a delivery request needs of its order; null when Shopify has none. */
export async function fetchDeliveryFulfillment(
  admin: AdminGraphql,
  fulfillmentId: string,
): Promise<DeliveryFulfillment | null> {
  const data = await runAdminOperation(
    admin,
    "DeliveryFulfillment",
    DELIVERY_FULFILLMENT,
    fulfillmentReply,
    {
      id: fulfillmentId,
    },
  );
  const f = data.fulfillment;
  if (!f) return null;
  const address = f.order.shippingAddress;
  return {
    fulfillmentId: f.id,
    status: f.status,
    locationId: f.location?.id ?? null,
    order: {
      id: f.order.id,
      name: f.order.name,
      currencyCode: f.order.currencyCode,
      totalPrice: f.order.totalPriceSet.shopMoney.amount,
      totalOutstanding: f.order.totalOutstandingSet.shopMoney.amount,
      presentment: {
        currencyCode: f.order.presentmentCurrencyCode,
        totalPrice: f.order.totalPriceSet.presentmentMoney.amount,
        totalOutstanding: f.order.totalOutstandingSet.presentmentMoney.amount,
      },
      phone: f.order.phone,
      shippingAddress: address
        ? {
            name: address.name,
            phone: address.phone,
            address1: address.address1,
            address2: address.address2,
            city: address.city,
            zip: address.zip,
            provinceCode: address.provinceCode,
            countryCode: address.countryCodeV2,
            latitude: address.latitude,
            longitude: address.longitude,
          }
        : null,
      items: f.fulfillmentLineItems.nodes.map((node) => {
        const w = node.lineItem.variant?.inventoryItem?.measurement?.weight;
        // The line's price after discounts, for the part of it this fulfillment carries.
        const share = (amount: string) =>
          node.lineItem.quantity > 0
            ? (Number(amount) * node.quantity) / node.lineItem.quantity
            : 0;
        return {
          title: node.lineItem.title,
          quantity: node.quantity,
          unitWeightKg: w ? w.value * KG_PER_UNIT[w.unit] : null,
          value: {
            shop: share(node.lineItem.discountedTotalSet.shopMoney.amount),
            presentment: share(node.lineItem.discountedTotalSet.presentmentMoney.amount),
          },
        };
      }),
    },
  };
}

const TRACKING_UPDATE = `#graphql
  mutation DeliveryTrackingUpdate(
    $fulfillmentId: ID!
    $trackingInfoInput: FulfillmentTrackingInput!
    $notifyCustomer: Boolean
  ) {
    fulfillmentTrackingInfoUpdate(
      fulfillmentId: $fulfillmentId
      trackingInfoInput: $trackingInfoInput
      notifyCustomer: $notifyCustomer
    ) {
      fulfillment { id trackingInfo { number url company } }
      userErrors { field message }
    }
  }`;

const trackingReply = z.object({
  fulfillmentTrackingInfoUpdate: z.object({
    fulfillment: z.object({ id: z.string() }).nullable(),
    userErrors: z.array(z.object({ field: z.array(z.string()).nullable(), message: z.string() })),
  }),
});

/** Puts the courier's order number and tracking URL on the Shopify fulfillment. */
export async function updateFulfillmentTracking(
  admin: AdminGraphql,
  input: {
    fulfillmentId: string;
    number: string;
    url: string;
    company: string;
    notifyCustomer: boolean;
  },
): Promise<void> {
  const data = await runAdminOperation(
    admin,
    "DeliveryTrackingUpdate",
    TRACKING_UPDATE,
    trackingReply,
    {
      fulfillmentId: input.fulfillmentId,
      trackingInfoInput: { number: input.number, url: input.url, company: input.company },
      notifyCustomer: input.notifyCustomer,
    },
  );
  const errors = data.fulfillmentTrackingInfoUpdate.userErrors;
  if (errors.length > 0) {
    throw new ShopifyReplyError(
      `Shopify refused the tracking number: ${userErrorsMessage(errors)}`,
      "DeliveryTrackingUpdate",
    );
  }
}
