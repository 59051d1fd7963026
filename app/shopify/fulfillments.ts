import { z } from "zod";
import type { LineItemsRead } from "../domain/line-items-read";
import type { OrderForDelivery } from "../domain/request";
import {
  runAdminOperation,
  ShopifyReplyError,
  userErrorsMessage,
  type AdminGraphql,
} from "./graphql";

/**
 * What a parcel needs of a line item: its title, quantity, price after discounts and the weight
 * of one unit. The line item's own `weight` costs 1 point of the requested cost where the
 * variant's inventory item's measurement cost 4: 6 points an item instead of 9 (issue 24).
 */
export const PARCEL_LINE_ITEM_FIELDS = `
  title
  quantity
  discountedTotalSet { shopMoney { amount } presentmentMoney { amount } }
  weight { unit value }`;

/** An order's amounts in the shop's currency and in the one the customer paid in. */
export const ORDER_AMOUNT_FIELDS = `
  currencyCode
  presentmentCurrencyCode
  totalPriceSet { shopMoney { amount } presentmentMoney { amount } }
  totalOutstandingSet { shopMoney { amount } presentmentMoney { amount } }`;

/**
 * Line items in the fulfillment's own query: each costs 6 points of the requested cost, so 10
 * keep the query near 70 points where asking for 100 at once reserved about 912 of the shop's
 * 2,000-point bucket for an actual cost near 21 (issue 11).
 */
export const LINE_ITEMS_PAGE = 10;

/**
 * Line items per further page, for the rare fulfillment with more (about 300 points a page): a
 * 1,000-line order is 20 pages rather than 100 (issue 24).
 */
export const MORE_LINE_ITEMS_PAGE = 50;

const DELIVERY_FULFILLMENT = `#graphql
  query DeliveryFulfillment($id: ID!, $after: String) {
    fulfillment(id: $id) {
      id
      status
      location { id }
      fulfillmentLineItems(first: ${LINE_ITEMS_PAGE}, after: $after) {
        nodes {
          quantity
          lineItem { ${PARCEL_LINE_ITEM_FIELDS} }
        }
        pageInfo { hasNextPage endCursor }
      }
      order {
        id
        name
        note
        phone
        customerLocale
        ${ORDER_AMOUNT_FIELDS}
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

const DELIVERY_FULFILLMENT_LINE_ITEMS = `#graphql
  query DeliveryFulfillmentLineItems($id: ID!, $after: String) {
    fulfillment(id: $id) {
      fulfillmentLineItems(first: ${MORE_LINE_ITEMS_PAGE}, after: $after) {
        nodes {
          quantity
          lineItem { ${PARCEL_LINE_ITEM_FIELDS} }
        }
        pageInfo { hasNextPage endCursor }
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

export const parcelLineItem = z.object({
  title: z.string(),
  quantity: z.number(),
  discountedTotalSet: money,
  weight: weight.nullable(),
});

export const orderAmounts = z.object({
  currencyCode: z.string(),
  presentmentCurrencyCode: z.string(),
  totalPriceSet: money,
  totalOutstandingSet: money,
});

/** A parcel's item: `quantity` of the line item, its weight and its share of the line's price. */
export function parcelItem(
  lineItem: z.infer<typeof parcelLineItem>,
  quantity: number,
): OrderForDelivery["items"][number] {
  const w = lineItem.weight;
  const share = (amount: string) =>
    lineItem.quantity > 0 ? (Number(amount) * quantity) / lineItem.quantity : 0;
  return {
    title: lineItem.title,
    quantity,
    unitWeightKg: w ? w.value * KG_PER_UNIT[w.unit] : null,
    value: {
      shop: share(lineItem.discountedTotalSet.shopMoney.amount),
      presentment: share(lineItem.discountedTotalSet.presentmentMoney.amount),
    },
  };
}

/** The order's amounts as a delivery request reads them. */
export function amountsOf(
  order: z.infer<typeof orderAmounts>,
): Pick<OrderForDelivery, "currencyCode" | "totalPrice" | "totalOutstanding" | "presentment"> {
  return {
    currencyCode: order.currencyCode,
    totalPrice: order.totalPriceSet.shopMoney.amount,
    totalOutstanding: order.totalOutstandingSet.shopMoney.amount,
    presentment: {
      currencyCode: order.presentmentCurrencyCode,
      totalPrice: order.totalPriceSet.presentmentMoney.amount,
      totalOutstanding: order.totalOutstandingSet.presentmentMoney.amount,
    },
  };
}

const lineItemPage = z.object({
  nodes: z.array(z.object({ quantity: z.number(), lineItem: parcelLineItem })),
  pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
});

const lineItemsReply = z.object({
  fulfillment: z.object({ fulfillmentLineItems: lineItemPage }).nullable(),
});

const fulfillmentReply = z.object({
  fulfillment: z
    .object({
      id: z.string(),
      status: z.string(),
      location: z.object({ id: z.string() }).nullable(),
      fulfillmentLineItems: lineItemPage,
      order: orderAmounts.extend({
        id: z.string(),
        name: z.string(),
        note: z.string().nullish(),
        phone: z.string().nullable(),
        customerLocale: z.string().nullable(),
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

const KG_PER_UNIT = {
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

/**
 * The read of a fulfillment's line items stopped part way (Shopify's budget held a page back, or
 * a page failed): what was read so far, for the next attempt to go on from (issue 24).
 */
export class LineItemsReadStopped extends Error {
  constructor(
    readonly progress: LineItemsRead,
    readonly reason: unknown,
  ) {
    super(
      `The fulfillment's line items were read up to ${progress.items.length} when Shopify stopped the read.`,
    );
    this.name = "LineItemsReadStopped";
  }
}

/** The fulfillment with what a delivery request needs of its order; null when Shopify has none. */
export async function fetchDeliveryFulfillment(
  admin: AdminGraphql,
  fulfillmentId: string,
): Promise<DeliveryFulfillment | null> {
  try {
    return await readDeliveryFulfillment(admin, fulfillmentId, null);
  } catch (error) {
    throw error instanceof LineItemsReadStopped ? error.reason : error;
  }
}

/**
 * {@link fetchDeliveryFulfillment} for a caller that keeps what was read (the worker): `resume` is
 * what an earlier attempt read, and a page that cannot be read after the first throws
 * {@link LineItemsReadStopped} with all read so far.
 */
export async function readDeliveryFulfillment(
  admin: AdminGraphql,
  fulfillmentId: string,
  resume: LineItemsRead | null,
): Promise<DeliveryFulfillment | null> {
  const data = await runAdminOperation(
    admin,
    "DeliveryFulfillment",
    DELIVERY_FULFILLMENT,
    fulfillmentReply,
    { id: fulfillmentId, after: resume?.cursor ?? null },
  );
  const f = data.fulfillment;
  if (!f) return null;
  const items = [
    ...(resume?.items ?? []),
    ...f.fulfillmentLineItems.nodes.map((node) => parcelItem(node.lineItem, node.quantity)),
  ];
  for (let page = f.fulfillmentLineItems.pageInfo; page.hasNextPage;) {
    let next: z.infer<typeof lineItemsReply>;
    try {
      next = await runAdminOperation(
        admin,
        "DeliveryFulfillmentLineItems",
        DELIVERY_FULFILLMENT_LINE_ITEMS,
        lineItemsReply,
        { id: fulfillmentId, after: page.endCursor },
      );
    } catch (error) {
      if (page.endCursor === null) throw error;
      throw new LineItemsReadStopped({ cursor: page.endCursor, items }, error);
    }
    if (!next.fulfillment) return null;
    const more = next.fulfillment.fulfillmentLineItems;
    items.push(...more.nodes.map((node) => parcelItem(node.lineItem, node.quantity)));
    page = more.pageInfo;
  }
  const address = f.order.shippingAddress;
  return {
    fulfillmentId: f.id,
    status: f.status,
    locationId: f.location?.id ?? null,
    order: {
      id: f.order.id,
      name: f.order.name,
      note: f.order.note ?? null,
      ...amountsOf(f.order),
      phone: f.order.phone,
      customerLocale: f.order.customerLocale,
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
      items,
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

const FULFILLMENT_TRACKING = `#graphql
  query DeliveryFulfillmentTracking($id: ID!) {
    fulfillment(id: $id) {
      id
      trackingInfo(first: 5) { number url }
    }
  }`;

const fulfillmentTrackingReply = z.object({
  fulfillment: z
    .object({
      id: z.string(),
      trackingInfo: z.array(
        z.object({ number: z.string().nullable(), url: z.string().nullable() }),
      ),
    })
    .nullable(),
});

/**
 * Whether the fulfillment already carries this tracking number and URL: a write Shopify accepted
 * just before the app stopped (issue 11) is not made again, so the customer is not told twice.
 */
export async function fulfillmentHasTracking(
  admin: AdminGraphql,
  input: { fulfillmentId: string; number: string; url: string },
): Promise<boolean> {
  const data = await runAdminOperation(
    admin,
    "DeliveryFulfillmentTracking",
    FULFILLMENT_TRACKING,
    fulfillmentTrackingReply,
    { id: input.fulfillmentId },
  );
  return (
    data.fulfillment?.trackingInfo.some((t) => t.number === input.number && t.url === input.url) ??
    false
  );
}
