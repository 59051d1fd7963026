import { randomUUID } from "node:crypto";
import { GraphQLError } from "graphql";
import { gid, parseGid, type ResourceType } from "./ids";
import { graphqlDecimal, toMinor } from "./money";
import { orderMatches, orderSortValue, sortOrders } from "./order-search";
import type { ShopifyStandInStore } from "./store";
import {
  FULFILLMENT_EVENT_STATUSES,
  ORDER_CANCEL_REASONS,
  weightInGrams,
  type FulfillmentEventStatus,
  type Outcome,
  type StandInAddress,
  type StandInFulfillment,
  type StandInFulfillmentEvent,
  type StandInFulfillmentOrder,
  type StandInFulfillmentOrderLineItem,
  type StandInLineItem,
  type StandInLocation,
  type StandInOrder,
  type TrackingInput,
  type Weight,
} from "./records";

// Resolvers for the schema subset: store records seen as GraphQL objects. graphql-js's default
// field resolver reads a property or calls a method of the same name, so each view is a plain
// object whose nested fields are functions, built only when a query asks for them.

const MAX_PAGE_SIZE = 250;

// --- Connections ----------------------------------------------------------------------------------

type View = Record<string, unknown>;
type Args = Record<string, unknown>;

interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  reverse?: boolean | null;
}

/** A Relay connection over `items` (already sorted), paginated as Shopify does. */
function connection<T>(
  items: readonly T[],
  args: PageArgs,
  idOf: (item: T) => number,
  view: (item: T) => View,
  sortValue: (item: T) => string | number = idOf,
): View {
  const { first, last, after, before } = args;
  if ((first === undefined || first === null) && (last === undefined || last === null)) {
    throw new GraphQLError("you must provide one of first or last");
  }
  for (const [name, size] of [
    ["first", first],
    ["last", last],
  ] as const) {
    if (size !== undefined && size !== null && (size < 0 || size > MAX_PAGE_SIZE)) {
      throw new GraphQLError(`${name} must be between 0 and ${MAX_PAGE_SIZE}`);
    }
  }
  const all = args.reverse ? [...items].reverse() : [...items];
  // Where a cursor points: just after its item. Shopify's cursor holds the item's sort value and
  // id, so it keeps its place when the item itself has left the list (an order fulfilled since
  // the page was read no longer matches `fulfillment_status:unshipped`); `items` come sorted by
  // that value, then id.
  const place = (cursor: string) => {
    const decoded = decodeCursor(cursor);
    if (!decoded) throw new GraphQLError("Invalid cursor for current pagination sort.");
    const at = all.findIndex((item) => idOf(item) === decoded.id);
    if (at >= 0) return { before: at, after: at + 1 };
    const direction = args.reverse ? -1 : 1;
    const beyond = all.findIndex((item) => {
      const value = sortValue(item);
      const mark = typeof value === "number" ? Number(decoded.value) : decoded.value;
      const order = value < mark ? -1 : value > mark ? 1 : idOf(item) - decoded.id;
      return order * direction > 0;
    });
    const index = beyond < 0 ? all.length : beyond;
    return { before: index, after: index };
  };
  let start = after ? place(after).after : 0;
  let end = before ? place(before).before : all.length;
  if (first !== undefined && first !== null) end = Math.min(end, start + first);
  if (last !== undefined && last !== null) start = Math.max(start, end - last);
  const page = all.slice(start, end);
  const cursorOf = (item: T) => encodeCursor(idOf(item), sortValue(item));
  return {
    edges: () => page.map((item) => ({ cursor: cursorOf(item), node: () => view(item) })),
    nodes: () => page.map(view),
    pageInfo: {
      hasNextPage: end < all.length,
      hasPreviousPage: start > 0,
      startCursor: page[0] === undefined ? null : cursorOf(page[0]),
      endCursor: page.length === 0 ? null : cursorOf(page[page.length - 1] as T),
    },
  };
}

// Shopify's cursors are base64 JSON of the last id and the sort value; the stand-in's look alike.
function encodeCursor(id: number, value: string | number): string {
  return Buffer.from(JSON.stringify({ last_id: id, last_value: String(value) })).toString("base64");
}

function decodeCursor(cursor: string): { id: number; value: string } | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64").toString("utf8")) as {
      last_id?: unknown;
      last_value?: unknown;
    };
    return typeof parsed.last_id === "number"
      ? { id: parsed.last_id, value: String(parsed.last_value ?? parsed.last_id) }
      : undefined;
  } catch {
    return undefined;
  }
}

// --- Views: store records as GraphQL objects ----------------------------------------------------

/** A global id argument as a numeric id; null for a well-formed id of another type. */
function idArg(value: unknown, type: ResourceType): number | null {
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

class Views {
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
      fulfillable: () =>
        !cancelled &&
        order.fulfillmentOrders.some((fo) => fo.lineItems.some((l) => l.remainingQuantity > 0)),
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
    const destination = order.shippingAddress;
    const open = fo.status !== "CLOSED" && order.cancelledAt === null;
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
      supportedActions: open ? [{ action: "CREATE_FULFILLMENT", externalUrl: null }] : [],
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
      destination: destination
        ? {
            __typename: "FulfillmentOrderDestination",
            ...destination,
            id: gid("FulfillmentOrderDestination", destination.id),
            email: order.email,
          }
        : null,
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

// --- Root fields ----------------------------------------------------------------------------------

/** The root object graphql-js resolves queries and mutations from. */
export function rootValue(store: ShopifyStandInStore): View {
  const views = new Views(store);
  const root: View = {
    shop: () => views.shop(),
    node: (args: Args) => views.node(String(args.id)),
    nodes: (args: Args) => (args.ids as string[]).map((id) => views.node(id)),
    order: (args: Args) => {
      const id = idArg(args.id, "Order");
      const order = id === null ? undefined : store.findOrder(id);
      return order ? views.order(order) : null;
    },
    orders: (args: Args & PageArgs) => {
      const orders = sortOrders(
        store
          .orders()
          .filter((o) => orderMatches(store, o, typeof args.query === "string" ? args.query : "")),
        String(args.sortKey ?? "PROCESSED_AT"),
      );
      return connection(
        orders,
        args,
        (o) => o.id,
        (o) => views.order(o),
        (o) => orderSortValue(o, String(args.sortKey ?? "PROCESSED_AT")),
      );
    },
    location: (args: Args) => {
      if (args.id === undefined || args.id === null) {
        const primary = store.locations()[0];
        return primary ? views.location(primary) : null;
      }
      const id = idArg(args.id, "Location");
      const location = id === null ? undefined : store.findLocation(id);
      return location ? views.location(location) : null;
    },
    locations: (args: Args & PageArgs) => {
      const name =
        typeof args.query === "string"
          ? /name:(\S+)/.exec(args.query)?.[1]?.toLowerCase()
          : undefined;
      const locations = store
        .locations()
        .filter((l) => args.includeInactive === true || l.isActive)
        .filter((l) => !name || l.name.toLowerCase().includes(name.replace(/\*$/, "")));
      const sorted =
        args.sortKey === "ID"
          ? [...locations]
          : [...locations].sort((a, b) => a.name.localeCompare(b.name));
      return connection(
        sorted,
        args,
        (l) => l.id,
        (l) => views.location(l),
        (l) => l.name,
      );
    },
    fulfillment: (args: Args) => {
      const id = idArg(args.id, "Fulfillment");
      const fulfillment = id === null ? undefined : store.findFulfillment(id);
      return fulfillment ? views.fulfillment(fulfillment) : null;
    },
    fulfillmentOrder: (args: Args) => {
      const id = idArg(args.id, "FulfillmentOrder");
      const fo = id === null ? undefined : store.findFulfillmentOrder(id);
      return fo ? views.fulfillmentOrder(fo) : null;
    },

    // Mutations
    fulfillmentCreate: (args: Args) => {
      const input = args.fulfillment as {
        lineItemsByFulfillmentOrder: {
          fulfillmentOrderId: string;
          fulfillmentOrderLineItems?: { id: string; quantity: number }[] | null;
        }[];
        notifyCustomer?: boolean | null;
        trackingInfo?: TrackingInput | null;
        originAddress?: StandInFulfillment["originAddress"];
      };
      const outcome = store.tryCreateFulfillment({
        lineItemsByFulfillmentOrder: input.lineItemsByFulfillmentOrder.map((entry) => ({
          fulfillmentOrderId: idArg(entry.fulfillmentOrderId, "FulfillmentOrder") ?? -1,
          fulfillmentOrderLineItems:
            entry.fulfillmentOrderLineItems?.map((l) => ({
              id: idArg(l.id, "FulfillmentOrderLineItem") ?? -1,
              quantity: l.quantity,
            })) ?? null,
        })),
        notifyCustomer: input.notifyCustomer ?? false,
        trackingInfo: input.trackingInfo ?? null,
        originAddress: input.originAddress
          ? {
              address1: input.originAddress.address1 ?? null,
              address2: input.originAddress.address2 ?? null,
              city: input.originAddress.city ?? null,
              countryCode: input.originAddress.countryCode,
              provinceCode: input.originAddress.provinceCode ?? null,
              zip: input.originAddress.zip ?? null,
            }
          : null,
        message: typeof args.message === "string" ? args.message : null,
      });
      return payload(outcome, "fulfillment", (f) => views.fulfillment(f));
    },
    fulfillmentTrackingInfoUpdate: (args: Args) => {
      const id = idArg(args.fulfillmentId, "Fulfillment") ?? -1;
      const outcome = store.tryUpdateTracking(
        id,
        args.trackingInfoInput as TrackingInput,
        args.notifyCustomer as boolean | null | undefined,
      );
      return payload(outcome, "fulfillment", (f) => views.fulfillment(f));
    },
    fulfillmentEventCreate: (args: Args) => {
      const input = args.fulfillmentEvent as Record<string, unknown> & {
        fulfillmentId: string;
        status: string;
      };
      if (!(FULFILLMENT_EVENT_STATUSES as readonly string[]).includes(input.status)) {
        throw new GraphQLError(`Unknown fulfillment event status ${input.status}`);
      }
      const outcome = store.tryCreateFulfillmentEvent(
        idArg(input.fulfillmentId, "Fulfillment") ?? -1,
        {
          status: input.status as FulfillmentEventStatus,
          happenedAt: (input.happenedAt as Date | null | undefined) ?? null,
          estimatedDeliveryAt: (input.estimatedDeliveryAt as Date | null | undefined) ?? null,
          message: (input.message as string | null | undefined) ?? null,
          address1: (input.address1 as string | null | undefined) ?? null,
          city: (input.city as string | null | undefined) ?? null,
          province: (input.province as string | null | undefined) ?? null,
          country: (input.country as string | null | undefined) ?? null,
          zip: (input.zip as string | null | undefined) ?? null,
          latitude: (input.latitude as number | null | undefined) ?? null,
          longitude: (input.longitude as number | null | undefined) ?? null,
        },
      );
      return payload(outcome, "fulfillmentEvent", (e) => views.fulfillmentEvent(e));
    },
    fulfillmentCancel: (args: Args) => {
      const outcome = store.tryCancelFulfillment(idArg(args.id, "Fulfillment") ?? -1);
      return payload(outcome, "fulfillment", (f) => views.fulfillment(f));
    },
    flowTriggerReceive: (args: Args) => {
      const outcome = store.tryReceiveFlowTrigger(args.handle, args.payload);
      return { userErrors: outcome.ok ? [] : outcome.userErrors };
    },
    orderMarkAsPaid: (args: Args) => {
      const input = args.input as { id: string };
      const outcome = store.tryMarkAsPaid(idArg(input.id, "Order") ?? -1);
      return payload(outcome, "order", (o) => views.order(o));
    },
    orderCancel: (args: Args) => {
      const reason = String(args.reason);
      if (!(ORDER_CANCEL_REASONS as readonly string[]).includes(reason)) {
        throw new GraphQLError(`Unknown cancel reason ${reason}`);
      }
      const refundMethod = args.refundMethod as
        { originalPaymentMethodsRefund?: boolean | null } | null | undefined;
      const outcome = store.tryCancelOrder(idArg(args.orderId, "Order") ?? -1, {
        reason: reason as (typeof ORDER_CANCEL_REASONS)[number],
        restock: args.restock === true,
        refund: args.refund === true || refundMethod?.originalPaymentMethodsRefund === true,
        notifyCustomer: args.notifyCustomer === true,
        staffNote: typeof args.staffNote === "string" ? args.staffNote : null,
      });
      if (!outcome.ok) {
        return {
          job: null,
          orderCancelUserErrors: outcome.userErrors.map((e) => ({
            field: e.field,
            message: e.message,
            code: e.code ?? null,
          })),
          userErrors: outcome.userErrors.map((e) => ({ field: e.field, message: e.message })),
        };
      }
      // Shopify cancels in a background job; the stand-in has already done it when it answers.
      return {
        job: { id: gid("Job", randomUUID()), done: true, query: () => root },
        orderCancelUserErrors: [],
        userErrors: [],
      };
    },
  };
  return root;
}

function payload<T>(outcome: Outcome<T>, key: string, view: (value: T) => View): View {
  if (outcome.ok) return { [key]: view(outcome.value), userErrors: [] };
  return {
    [key]: null,
    userErrors: outcome.userErrors.map((e) => ({ field: e.field, message: e.message })),
  };
}
