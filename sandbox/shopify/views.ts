import { GraphQLError } from "graphql";
import { connection, type PageArgs, type View } from "./connection";
import type { StandInCarrierService } from "./carrier-services";
import { activeHolds } from "./holds";
import { gid, parseGid, type ResourceType } from "./ids";
import { appNamespace } from "./metafields";
import { graphqlDecimal, toMinor } from "./money";
import type { ShopifyStandInStore } from "./store";
import {
  weightInGrams,
  type StandInAddress,
  type StandInFulfillment,
  type FulfillmentHoldReason,
  type StandInFulfillmentEvent,
  type StandInFulfillmentHold,
  type StandInFulfillmentOrder,
  type StandInFulfillmentOrderLineItem,
  type StandInLineItem,
  type StandInLocation,
  type StandInMetafield,
  type StandInOrder,
  type Weight,
} from "./records";

// Store records seen as GraphQL objects. graphql-js's default field resolver reads a property or
// calls a method of the same name, so each view is a plain object whose nested fields are
// functions, built only when a query asks for them.

/** A global id argument as a numeric id; null for a well-formed id of another type. */
export function idArg(value: unknown, type: ResourceType): number | null {
  const parsed = typeof value === "string" ? parseGid(value) : null;
  if (!parsed)
    throw new GraphQLError(`Invalid global id '${String(value)}'`, {
      extensions: { code: "argumentLiteralsIncompatible" },
    });
  return parsed.type === type ? parsed.id : null;
}

function money(amount: string, currencyCode: string) {
  const shopMoney = {
    amount: graphqlDecimal(toMinor(amount, currencyCode), currencyCode),
    currencyCode,
  };
  return { shopMoney, presentmentMoney: shopMoney };
}

function moneyMinor(minor: number, currencyCode: string) {
  const shopMoney = { amount: graphqlDecimal(minor, currencyCode), currencyCode };
  return { shopMoney, presentmentMoney: shopMoney };
}

function weightView(weight: Weight | null) {
  return weight ? { unit: weight.unit, value: weight.value } : null;
}

// FulfillmentHold.displayReason: the reason as the admin shows it (English).
const HOLD_REASON_WORDS: Record<FulfillmentHoldReason, string> = {
  AWAITING_PAYMENT: "Awaiting payment",
  AWAITING_RETURN_ITEMS: "Awaiting return items",
  HIGH_RISK_OF_FRAUD: "High risk of fraud",
  INCORRECT_ADDRESS: "Incorrect address",
  INVENTORY_OUT_OF_STOCK: "Inventory out of stock",
  ONLINE_STORE_POST_PURCHASE_CROSS_SELL: "Post-purchase upsell",
  OTHER: "Other",
  UNKNOWN_DELIVERY_DATE: "Unknown delivery date",
};

export class Views {
  constructor(private readonly store: ShopifyStandInStore) {}

  shop(): View {
    const shop = this.store.shop;
    return {
      __typename: "Shop",
      id: gid("Shop", shop.id),
      name: shop.name,
      email: shop.email,
      myshopifyDomain: shop.domain,
      currencyCode: shop.currencyCode,
      ianaTimezone: shop.ianaTimezone,
    };
  }

  order(order: StandInOrder): View {
    const store = this.store;
    const currency = order.currencyCode;
    const cancelled = order.cancelledAt !== null;
    const outstanding = toMinor(order.totalOutstanding, currency);
    return {
      __typename: "Order",
      id: gid("Order", order.id),
      legacyResourceId: order.id,
      name: order.name,
      createdAt: order.createdAt,
      updatedAt: order.updatedAt,
      processedAt: order.processedAt,
      closed: order.closedAt !== null,
      closedAt: order.closedAt,
      confirmed: true,
      test: false,
      cancelledAt: order.cancelledAt,
      cancelReason: order.cancelReason,
      email: order.email,
      phone: order.phone,
      customerLocale: order.customerLocale,
      note: order.note,
      tags: order.tags,
      currencyCode: currency,
      presentmentCurrencyCode: currency,
      paymentGatewayNames: order.paymentGatewayNames,
      displayFinancialStatus: order.financialStatus,
      displayFulfillmentStatus: () => store.displayFulfillmentStatus(order),
      // Held items cannot be fulfilled until the hold is released.
      fulfillable: () =>
        !cancelled &&
        order.fulfillmentOrders.some(
          (fo) => fo.status !== "ON_HOLD" && fo.lineItems.some((l) => l.remainingQuantity > 0),
        ),
      fullyPaid: order.financialStatus === "PAID" && outstanding === 0,
      canMarkAsPaid: !cancelled && outstanding > 0,
      totalPriceSet: money(order.totalPrice, currency),
      currentTotalPriceSet: money(
        order.financialStatus === "REFUNDED" ? "0" : order.totalPrice,
        currency,
      ),
      subtotalPriceSet: money(order.subtotalPrice, currency),
      totalShippingPriceSet: money(order.shippingPrice, currency),
      totalOutstandingSet: money(order.totalOutstanding, currency),
      totalWeight: order.lineItems.reduce(
        (sum, li) => sum + weightInGrams(li.weight) * li.quantity,
        0,
      ),
      shippingAddress: () => (order.shippingAddress ? this.address(order.shippingAddress) : null),
      lineItems: (args: PageArgs) =>
        connection(
          order.lineItems,
          args,
          (li) => li.id,
          (li) => this.lineItem(li),
        ),
      fulfillmentOrders: (args: PageArgs) =>
        connection(
          order.fulfillmentOrders,
          args,
          (fo) => fo.id,
          (fo) => this.fulfillmentOrder(fo),
        ),
      fulfillments: (args: { first?: number | null }) =>
        order.fulfillments.slice(0, args.first ?? undefined).map((f) => this.fulfillment(f)),
      metafield: (args: { namespace?: string | null; key: string }) => {
        const found = store.metafield(order.id, args.namespace ?? null, args.key);
        return found ? this.metafield(found) : null;
      },
      metafields: (args: PageArgs & { namespace?: string | null; keys?: string[] | null }) => {
        const namespace =
          args.namespace === undefined || args.namespace === null
            ? undefined
            : appNamespace(store.appId, args.namespace);
        const keys = args.keys?.map((k) => {
          const at = k.lastIndexOf(".");
          return `${appNamespace(store.appId, k.slice(0, at))}.${k.slice(at + 1)}`;
        });
        return connection(
          order.metafields.filter(
            (m) =>
              (namespace === undefined || m.namespace === namespace) &&
              (!keys || keys.includes(`${m.namespace}.${m.key}`)),
          ),
          args,
          (m) => m.id,
          (m) => this.metafield(m),
        );
      },
    };
  }

  metafield(metafield: StandInMetafield): View {
    return {
      __typename: "Metafield",
      ...metafield,
      id: gid("Metafield", metafield.id),
      legacyResourceId: metafield.id,
      ownerType: "ORDER",
    };
  }

  fulfillmentHold(hold: StandInFulfillmentHold): View {
    return {
      __typename: "FulfillmentHold",
      id: gid("FulfillmentHold", hold.id),
      handle: hold.handle,
      reason: hold.reason,
      reasonNotes: hold.reasonNotes,
      displayReason: HOLD_REASON_WORDS[hold.reason],
      heldByRequestingApp: hold.heldBy === "app",
    };
  }

  address(address: StandInAddress): View {
    const name = [address.firstName, address.lastName].filter(Boolean).join(" ") || null;
    const area = [address.city, address.province].filter(Boolean).join(", ");
    return {
      __typename: "MailingAddress",
      ...address,
      id: gid("MailingAddress", address.id),
      name,
      countryCodeV2: address.countryCode,
      coordinatesValidated: address.latitude !== null && address.longitude !== null,
      formattedArea: [area, address.country].filter(Boolean).join(", ") || null,
      timeZone: null,
      formatted: (args: { withName?: boolean; withCompany?: boolean }) =>
        [
          args.withName ? name : null,
          args.withCompany === false ? null : address.company,
          address.address1,
          address.address2,
          [address.city, address.province, address.zip].filter(Boolean).join(" "),
          address.country,
        ].filter((line): line is string => Boolean(line)),
    };
  }

  lineItem(item: StandInLineItem): View {
    const order = this.store.orderOf(item);
    const currency = order.currencyCode;
    const unit = toMinor(item.price, currency);
    return {
      __typename: "LineItem",
      id: gid("LineItem", item.id),
      title: item.title,
      name: item.variantTitle ? `${item.title} - ${item.variantTitle}` : item.title,
      variantTitle: item.variantTitle,
      sku: item.sku,
      vendor: item.vendor,
      quantity: item.quantity,
      currentQuantity: item.quantity,
      unfulfilledQuantity: () =>
        order.cancelledAt
          ? 0
          : Math.max(0, item.quantity - this.store.fulfilledQuantity(order, item.id)),
      requiresShipping: item.requiresShipping,
      originalUnitPriceSet: moneyMinor(unit, currency),
      discountedTotalSet: moneyMinor(unit * item.quantity, currency),
      variant: () => this.variant(item),
      weight: weightView(item.weight),
    };
  }

  variant(item: StandInLineItem): View {
    const currency = this.store.orderOf(item).currencyCode;
    const title = item.variantTitle ?? "Default Title";
    return {
      __typename: "ProductVariant",
      id: gid("ProductVariant", item.variantId),
      legacyResourceId: item.variantId,
      title,
      displayName: `${item.title} - ${title}`,
      sku: item.sku,
      price: graphqlDecimal(toMinor(item.price, currency), currency),
      inventoryItem: () => this.inventoryItem(item),
    };
  }

  inventoryItem(item: StandInLineItem): View {
    return {
      __typename: "InventoryItem",
      id: gid("InventoryItem", item.inventoryItemId),
      legacyResourceId: item.inventoryItemId,
      sku: item.sku,
      tracked: true,
      requiresShipping: item.requiresShipping,
      measurement: {
        __typename: "InventoryItemMeasurement",
        id: gid("InventoryItemMeasurement", item.inventoryItemId),
        weight: weightView(item.weight),
      },
    };
  }

  location(location: StandInLocation): View {
    const a = location.address;
    return {
      __typename: "Location",
      id: gid("Location", location.id),
      legacyResourceId: location.id,
      name: location.name,
      isActive: location.isActive,
      fulfillsOnlineOrders: location.fulfillsOnlineOrders,
      shipsInventory: true,
      activatable: !location.isActive,
      deactivatable: location.isActive,
      hasActiveInventory: location.isActive,
      address: {
        ...a,
        formatted: [
          a.address1,
          a.address2,
          [a.city, a.zip].filter(Boolean).join(" "),
          a.country,
        ].filter((line): line is string => Boolean(line)),
      },
    };
  }

  fulfillmentOrder(fo: StandInFulfillmentOrder): View {
    const order = this.store.orderOf(fo);
    const location = this.store.findLocation(fo.locationId);
    const destination = fo.destination;
    const open = fo.status !== "CLOSED" && order.cancelledAt === null;
    const actions: string[] = !open
      ? []
      : fo.status === "ON_HOLD"
        ? ["HOLD", "RELEASE_HOLD"]
        : ["CREATE_FULFILLMENT", "HOLD"];
    return {
      __typename: "FulfillmentOrder",
      id: gid("FulfillmentOrder", fo.id),
      status: fo.status,
      requestStatus: "UNSUBMITTED",
      createdAt: fo.createdAt,
      updatedAt: fo.updatedAt,
      orderId: gid("Order", order.id),
      orderName: order.name,
      order: () => this.order(order),
      supportedActions: actions.map((action) => ({ action, externalUrl: null })),
      fulfillmentHolds: () => activeHolds(fo).map((hold) => this.fulfillmentHold(hold)),
      assignedLocation: {
        name: location?.name ?? "",
        address1: location?.address.address1 ?? null,
        address2: location?.address.address2 ?? null,
        city: location?.address.city ?? null,
        province: location?.address.province ?? null,
        zip: location?.address.zip ?? null,
        phone: location?.address.phone ?? null,
        countryCode: location?.address.countryCode ?? "KW",
        location: () => (location ? this.location(location) : null),
      },
      // Since 2024-10 an order without a shipping address has a destination of nulls, not null.
      destination: {
        __typename: "FulfillmentOrderDestination",
        ...(destination ?? {}),
        id: gid("FulfillmentOrderDestination", destination?.id ?? fo.id),
        email: order.email,
      },
      lineItems: (args: PageArgs) =>
        connection(
          fo.lineItems,
          args,
          (l) => l.id,
          (l) => this.fulfillmentOrderLineItem(l, order),
        ),
      fulfillments: (args: PageArgs) =>
        connection(
          order.fulfillments.filter((f) => f.drawnFrom.some((d) => d.fulfillmentOrderId === fo.id)),
          args,
          (f) => f.id,
          (f) => this.fulfillment(f),
        ),
    };
  }

  fulfillmentOrderLineItem(line: StandInFulfillmentOrderLineItem, order: StandInOrder): View {
    const item = order.lineItems.find((li) => li.id === line.lineItemId);
    if (!item) throw new Error(`Line item ${line.lineItemId} vanished from ${order.name}`);
    return {
      __typename: "FulfillmentOrderLineItem",
      id: gid("FulfillmentOrderLineItem", line.id),
      totalQuantity: line.totalQuantity,
      remainingQuantity: line.remainingQuantity,
      sku: item.sku,
      productTitle: item.title,
      variantTitle: item.variantTitle,
      requiresShipping: item.requiresShipping,
      inventoryItemId: gid("InventoryItem", item.inventoryItemId),
      weight: weightView(item.weight),
      lineItem: () => this.lineItem(item),
    };
  }

  fulfillment(fulfillment: StandInFulfillment): View {
    const order = this.store.orderOf(fulfillment);
    const location = this.store.findLocation(fulfillment.locationId);
    return {
      __typename: "Fulfillment",
      id: gid("Fulfillment", fulfillment.id),
      legacyResourceId: fulfillment.id,
      name: fulfillment.name,
      status: fulfillment.status,
      displayStatus: displayStatus(fulfillment),
      createdAt: fulfillment.createdAt,
      updatedAt: fulfillment.updatedAt,
      deliveredAt: fulfillment.deliveredAt,
      inTransitAt: fulfillment.inTransitAt,
      estimatedDeliveryAt: fulfillment.estimatedDeliveryAt,
      requiresShipping: true,
      totalQuantity: fulfillment.lineItems.reduce((sum, l) => sum + l.quantity, 0),
      originAddress: fulfillment.originAddress,
      trackingInfo: (args: { first?: number | null }) =>
        fulfillment.trackingInfo.slice(0, args.first ?? undefined),
      order: () => this.order(order),
      location: () => (location ? this.location(location) : null),
      events: (args: PageArgs & { sortKey?: string }) => {
        const events =
          args.sortKey === "HAPPENED_AT"
            ? [...fulfillment.events].sort(
                (a, b) => a.happenedAt.getTime() - b.happenedAt.getTime(),
              )
            : fulfillment.events;
        return connection(
          events,
          args,
          (e) => e.id,
          (e) => this.fulfillmentEvent(e),
        );
      },
      fulfillmentLineItems: (args: PageArgs) =>
        connection(
          fulfillment.lineItems,
          args,
          (l) => l.id,
          (l) => {
            const item = order.lineItems.find((li) => li.id === l.lineItemId);
            return {
              __typename: "FulfillmentLineItem",
              id: gid("FulfillmentLineItem", l.id),
              quantity: l.quantity,
              lineItem: () => (item ? this.lineItem(item) : null),
            };
          },
        ),
      fulfillmentOrders: (args: PageArgs) =>
        connection(
          order.fulfillmentOrders.filter((fo) =>
            fulfillment.drawnFrom.some((d) => d.fulfillmentOrderId === fo.id),
          ),
          args,
          (fo) => fo.id,
          (fo) => this.fulfillmentOrder(fo),
        ),
    };
  }

  fulfillmentEvent(event: StandInFulfillmentEvent): View {
    return { __typename: "FulfillmentEvent", ...event, id: gid("FulfillmentEvent", event.id) };
  }

  carrierService(service: StandInCarrierService): View {
    return {
      __typename: "DeliveryCarrierService",
      id: gid("DeliveryCarrierService", service.id),
      name: service.name,
      formattedName: service.name,
      callbackUrl: service.callbackUrl,
      active: service.active,
      supportsServiceDiscovery: service.supportsServiceDiscovery,
    };
  }

  /** Any record by global id, as `node(id:)` finds it. */
  node(id: string): View | null {
    const parsed = parseGid(id);
    if (!parsed) return null;
    const store = this.store;
    const itemWith = (key: "variantId" | "inventoryItemId") =>
      store
        .orders()
        .flatMap((o) => o.lineItems)
        .find((li) => li[key] === parsed.id);
    switch (parsed.type) {
      case "Shop":
        return parsed.id === store.shop.id ? this.shop() : null;
      case "Order": {
        const order = store.findOrder(parsed.id);
        return order ? this.order(order) : null;
      }
      case "LineItem": {
        const item = store.findLineItem(parsed.id);
        return item ? this.lineItem(item) : null;
      }
      case "ProductVariant": {
        const item = itemWith("variantId");
        return item ? this.variant(item) : null;
      }
      case "InventoryItem": {
        const item = itemWith("inventoryItemId");
        return item ? this.inventoryItem(item) : null;
      }
      case "Location": {
        const location = store.findLocation(parsed.id);
        return location ? this.location(location) : null;
      }
      case "FulfillmentOrder": {
        const fo = store.findFulfillmentOrder(parsed.id);
        return fo ? this.fulfillmentOrder(fo) : null;
      }
      case "FulfillmentOrderLineItem": {
        for (const order of store.orders()) {
          for (const fo of order.fulfillmentOrders) {
            const line = fo.lineItems.find((l) => l.id === parsed.id);
            if (line) return this.fulfillmentOrderLineItem(line, order);
          }
        }
        return null;
      }
      case "Fulfillment": {
        const fulfillment = store.findFulfillment(parsed.id);
        return fulfillment ? this.fulfillment(fulfillment) : null;
      }
      case "FulfillmentEvent": {
        const event = store.findFulfillmentEvent(parsed.id);
        return event ? this.fulfillmentEvent(event) : null;
      }
      case "FulfillmentHold": {
        const hold = store.findFulfillmentHold(parsed.id);
        return hold ? this.fulfillmentHold(hold) : null;
      }
      case "DeliveryCarrierService": {
        const service = store.shipping.findCarrierService(parsed.id);
        return service ? this.carrierService(service) : null;
      }
      case "Metafield": {
        const metafield = store
          .orders()
          .flatMap((o) => o.metafields)
          .find((m) => m.id === parsed.id);
        return metafield ? this.metafield(metafield) : null;
      }
      default:
        return null;
    }
  }
}

// The most recently created event sets the status, whatever its happenedAt: an app that posts a
// stale event late sees its fulfillment move backwards, as a merchant would.
function displayStatus(fulfillment: StandInFulfillment): string {
  if (fulfillment.status === "CANCELLED") return "CANCELED";
  return fulfillment.events.at(-1)?.status ?? "FULFILLED";
}
