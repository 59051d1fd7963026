import {
  checkFlowTrigger,
  flowTriggersFromExtensions,
  type FlowTriggerDefinition,
  type ReceivedFlowTrigger,
} from "./flow";
import { gid, IdSequence, parseGid, type ResourceType } from "./ids";
import { fromMinor, toMinor } from "./money";
import type {
  AddressInput,
  DisplayFulfillmentStatus,
  FulfillmentCreateInput,
  FulfillmentEventInput,
  FulfillOptions,
  GraphqlOperationRecord,
  LocationInput,
  OrderCancelInput,
  OrderInput,
  Outcome,
  StandInAddress,
  StandInFulfillment,
  StandInFulfillmentEvent,
  StandInFulfillmentOrder,
  StandInFulfillmentOrderLineItem,
  StandInLineItem,
  StandInLocation,
  StandInLocationAddress,
  StandInOrder,
  StandInTrackingInfo,
  StoreEvent,
  TrackingInput,
  UserErrorRecord,
  Weight,
} from "./records";

/** Misuse of the store's own API (an unknown order, nothing left to fulfill...). */
export class StandInError extends Error {
  constructor(
    message: string,
    readonly userErrors: UserErrorRecord[] = [],
  ) {
    super(message);
    this.name = "StandInError";
  }
}

export interface ShopifyStandInStoreOptions {
  /** The shop's myshopify domain (default "demo-store.myshopify.com"). */
  shop?: string;
  /** The shop's display name (default "Demo Store"). */
  name?: string;
  email?: string;
  currencyCode?: string;
  /** Milliseconds since the epoch; for tests that need fixed times. */
  clock?: () => number;
}

const KUWAIT_PROVINCES: Record<string, string> = {
  "KW-AH": "Al Ahmadi",
  "KW-FA": "Al Farwaniyah",
  "KW-HA": "Hawalli",
  "KW-JA": "Al Jahra",
  "KW-KU": "Al Asimah",
  "KW-MU": "Mubarak Al-Kabeer",
};

const DEFAULT_SHIPPING_ADDRESS: AddressInput = {
  firstName: "Fatima",
  lastName: "Al-Mutairi",
  company: null,
  address1: "Block 4, Street 12, House 9",
  address2: null,
  city: "Salmiya",
  province: "Hawalli",
  provinceCode: "KW-HA",
  zip: null,
  country: "Kuwait",
  countryCode: "KW",
  phone: "+96550001234",
  latitude: null,
  longitude: null,
};

const DEFAULT_LOCATION_ADDRESS: StandInLocationAddress = {
  address1: "Block 2, Street 24, Building 15",
  address2: null,
  city: "Shuwaikh Industrial",
  zip: "70050",
  province: "Al Asimah",
  provinceCode: "KW-KU",
  country: "Kuwait",
  countryCode: "KW",
  phone: "+96522200000",
  latitude: 29.3375,
  longitude: 47.9314,
};

const DEFAULT_LINE_ITEM = {
  title: "Oud Perfume",
  variantTitle: "50 ml",
  sku: "OUD-50",
  vendor: "Demo Store",
  quantity: 1,
  price: "12.500",
  weight: { value: 350, unit: "GRAMS" } as Weight,
};

/**
 * An in-memory Shopify shop: locations, orders with their fulfillment orders, fulfillments with
 * tracking and events. The GraphQL API (`graphql.ts`) and the merchant-side methods below share the
 * same operations, so an order fulfilled "in the admin" and one fulfilled by the app through
 * `fulfillmentCreate` end up in the same state and announce the same webhook.
 *
 * Records returned are the live ones: read them freely, change them only through the methods.
 */
export class ShopifyStandInStore {
  readonly shop: {
    id: number;
    domain: string;
    name: string;
    email: string;
    currencyCode: string;
    ianaTimezone: string;
  };
  /** Every GraphQL call, in arrival order (filled by the GraphQL API). */
  readonly graphqlLog: GraphqlOperationRecord[] = [];
  /** Every Flow trigger the app fired and Flow accepted, in arrival order. */
  readonly flowTriggers: ReceivedFlowTrigger[] = [];
  private flowTriggerDefinitions: Map<string, FlowTriggerDefinition> | undefined;
  readonly clock: () => number;

  private readonly ids = new IdSequence();
  private readonly locationList: StandInLocation[] = [];
  private readonly orderList: StandInOrder[] = [];
  private readonly listeners = new Set<(event: StoreEvent) => void>();
  private nextOrderNumber = 1001;

  constructor(options: ShopifyStandInStoreOptions = {}) {
    this.clock = options.clock ?? Date.now;
    const domain = options.shop ?? "demo-store.myshopify.com";
    this.shop = {
      id: this.ids.take(),
      domain,
      name: options.name ?? "Demo Store",
      email: options.email ?? `owner@${domain.replace(/\.myshopify\.com$/, "")}.example`,
      currencyCode: options.currencyCode ?? "KWD",
      ianaTimezone: "Asia/Kuwait",
    };
  }

  // --- Reading ----------------------------------------------------------------------------------

  locations(): readonly StandInLocation[] {
    return this.locationList;
  }

  orders(): readonly StandInOrder[] {
    return this.orderList;
  }

  fulfillments(): StandInFulfillment[] {
    return this.orderList.flatMap((o) => o.fulfillments);
  }

  /** An order by id, gid, name ("#1001") or number ("1001"), or undefined. */
  findOrder(ref: number | string): StandInOrder | undefined {
    if (typeof ref === "string") {
      const byName = /^#?(\d{1,9})$/.exec(ref.trim());
      if (byName?.[1]) {
        const number = Number(byName[1]);
        const named = this.orderList.find((o) => o.number === number);
        if (named) return named;
      }
    }
    const id = numericId(ref, "Order");
    return id === undefined ? undefined : this.orderList.find((o) => o.id === id);
  }

  /** Like {@link findOrder}, but throws a {@link StandInError} when there is no such order. */
  order(ref: number | string): StandInOrder {
    const order = this.findOrder(ref);
    if (!order) throw new StandInError(`No order ${ref} in the stand-in store`);
    return order;
  }

  findLocation(ref: number | string): StandInLocation | undefined {
    const id = numericId(ref, "Location");
    return this.locationList.find((l) => l.id === id);
  }

  findFulfillment(ref: number | string): StandInFulfillment | undefined {
    const id = numericId(ref, "Fulfillment");
    return id === undefined ? undefined : this.fulfillments().find((f) => f.id === id);
  }

  /** Like {@link findFulfillment}, but throws a {@link StandInError} when there is none. */
  fulfillment(ref: number | string): StandInFulfillment {
    const fulfillment = this.findFulfillment(ref);
    if (!fulfillment) throw new StandInError(`No fulfillment ${ref} in the stand-in store`);
    return fulfillment;
  }

  findFulfillmentOrder(ref: number | string): StandInFulfillmentOrder | undefined {
    const id = numericId(ref, "FulfillmentOrder");
    if (id === undefined) return undefined;
    for (const order of this.orderList) {
      const found = order.fulfillmentOrders.find((fo) => fo.id === id);
      if (found) return found;
    }
    return undefined;
  }

  findLineItem(id: number): StandInLineItem | undefined {
    for (const order of this.orderList) {
      const found = order.lineItems.find((li) => li.id === id);
      if (found) return found;
    }
    return undefined;
  }

  findFulfillmentOrderLineItem(id: number): StandInFulfillmentOrderLineItem | undefined {
    for (const order of this.orderList) {
      for (const fo of order.fulfillmentOrders) {
        const found = fo.lineItems.find((line) => line.id === id);
        if (found) return found;
      }
    }
    return undefined;
  }

  findFulfillmentEvent(id: number): StandInFulfillmentEvent | undefined {
    for (const fulfillment of this.fulfillments()) {
      const found = fulfillment.events.find((e) => e.id === id);
      if (found) return found;
    }
    return undefined;
  }

  /** The order a line item, fulfillment order or fulfillment belongs to. */
  orderOf(record: { orderId: number } | StandInLineItem): StandInOrder {
    const order =
      "orderId" in record
        ? this.orderList.find((o) => o.id === record.orderId)
        : this.orderList.find((o) => o.lineItems.includes(record));
    if (!order) throw new StandInError("The record belongs to no order of this store");
    return order;
  }

  /** How much of a line item live fulfillments have taken. */
  fulfilledQuantity(order: StandInOrder, lineItemId: number): number {
    return order.fulfillments
      .filter((f) => f.status === "SUCCESS")
      .flatMap((f) => f.lineItems)
      .filter((line) => line.lineItemId === lineItemId)
      .reduce((sum, line) => sum + line.quantity, 0);
  }

  displayFulfillmentStatus(order: StandInOrder): DisplayFulfillmentStatus {
    const wanted = order.lineItems.reduce((sum, li) => sum + li.quantity, 0);
    const done = order.lineItems.reduce((sum, li) => sum + this.fulfilledQuantity(order, li.id), 0);
    if (done === 0) return "UNFULFILLED";
    return done >= wanted ? "FULFILLED" : "PARTIALLY_FULFILLED";
  }

  // --- Building the shop ------------------------------------------------------------------------

  /** Adds a location (a store or warehouse); by default a warehouse in Shuwaikh, Kuwait. */
  addLocation(input: LocationInput = {}): StandInLocation {
    const address = { ...DEFAULT_LOCATION_ADDRESS, ...input.address };
    if (input.address?.provinceCode && !input.address.province) {
      address.province = KUWAIT_PROVINCES[input.address.provinceCode] ?? null;
    }
    const location: StandInLocation = {
      id: this.ids.take(),
      name:
        input.name ??
        (this.locationList.length === 0
          ? "Shuwaikh Warehouse"
          : `Location ${this.locationList.length + 1}`),
      isActive: input.isActive ?? true,
      fulfillsOnlineOrders: input.fulfillsOnlineOrders ?? true,
      address,
    };
    this.locationList.push(location);
    return location;
  }

  /**
   * Adds an order as a customer's checkout would, with one fulfillment order per location its
   * lines are assigned to. Every field has a sensible Kuwaiti default.
   */
  addOrder(input: OrderInput = {}): StandInOrder {
    const now = new Date(this.clock());
    const createdAt = input.createdAt ? new Date(input.createdAt) : now;
    if (Number.isNaN(createdAt.getTime())) throw new StandInError("createdAt is not a date");
    const currencyCode = input.currencyCode ?? this.shop.currencyCode;
    const defaultLocation = this.resolveLocation(input.locationId);

    const lines = (input.lineItems ?? [{}]).map((line) => {
      const quantity = line.quantity ?? DEFAULT_LINE_ITEM.quantity;
      if (!Number.isInteger(quantity) || quantity < 1) {
        throw new StandInError(
          `A line item's quantity must be a whole number above 0, not ${quantity}`,
        );
      }
      const weight =
        line.grams !== undefined
          ? { value: line.grams, unit: "GRAMS" as const }
          : line.weight === undefined
            ? DEFAULT_LINE_ITEM.weight
            : line.weight;
      // A line that names its own product does not inherit the default product's variant and SKU.
      const base = line.title === undefined ? DEFAULT_LINE_ITEM : { variantTitle: null, sku: null };
      const item: StandInLineItem = {
        id: this.ids.take(),
        variantId: this.ids.take(),
        inventoryItemId: this.ids.take(),
        title: line.title ?? DEFAULT_LINE_ITEM.title,
        variantTitle: line.variantTitle === undefined ? base.variantTitle : line.variantTitle,
        sku: line.sku === undefined ? base.sku : line.sku,
        vendor: line.vendor === undefined ? this.shop.name : line.vendor,
        quantity,
        price: fromMinor(
          toMinor(line.price ?? DEFAULT_LINE_ITEM.price, currencyCode),
          currencyCode,
        ),
        requiresShipping: line.requiresShipping ?? true,
        weight: weight ? { ...weight } : null,
      };
      const location =
        line.locationId === undefined ? defaultLocation : this.resolveLocation(line.locationId);
      return { item, location };
    });

    const subtotal = lines.reduce(
      (sum, { item }) => sum + toMinor(item.price, currencyCode) * item.quantity,
      0,
    );
    const shipping = toMinor(input.shippingPrice ?? "1.000", currencyCode);
    const total = subtotal + shipping;
    const cod = input.payment === "cod";

    const order: StandInOrder = {
      id: this.ids.take(),
      number: this.nextOrderNumber,
      name: `#${this.nextOrderNumber}`,
      createdAt,
      updatedAt: createdAt,
      processedAt: createdAt,
      closedAt: null,
      cancelledAt: null,
      cancelReason: null,
      email: input.email === undefined ? "fatima@example.com" : input.email,
      phone: input.phone === undefined ? null : input.phone,
      customerLocale: input.customerLocale === undefined ? "en" : input.customerLocale,
      note: input.note ?? null,
      tags: input.tags ?? [],
      currencyCode,
      financialStatus: cod ? "PENDING" : "PAID",
      paymentGatewayNames:
        input.paymentGatewayNames ?? (cod ? ["Cash on Delivery (COD)"] : ["shopify_payments"]),
      subtotalPrice: fromMinor(subtotal, currencyCode),
      shippingPrice: fromMinor(shipping, currencyCode),
      totalPrice: fromMinor(total, currencyCode),
      totalOutstanding: fromMinor(cod ? total : 0, currencyCode),
      shippingAddress:
        input.shippingAddress === null ? null : this.buildAddress(input.shippingAddress ?? {}),
      lineItems: lines.map((l) => l.item),
      fulfillmentOrders: [],
      fulfillments: [],
    };
    this.nextOrderNumber += 1;

    // One fulfillment order per location, in the order the locations first appear.
    const byLocation = new Map<number, StandInLineItem[]>();
    for (const { item, location } of lines) {
      if (!item.requiresShipping) continue;
      byLocation.set(location.id, [...(byLocation.get(location.id) ?? []), item]);
    }
    for (const [locationId, items] of byLocation) {
      order.fulfillmentOrders.push(
        this.newFulfillmentOrder(
          order,
          locationId,
          items.map((i) => [i, i.quantity]),
        ),
      );
    }

    this.orderList.push(order);
    return order;
  }

  // --- What the merchant does in the admin --------------------------------------------------------

  /**
   * Fulfills an order as the merchant would in the admin ("Fulfill items"): one fulfillment from
   * one fulfillment order, by default everything it still holds. Announces `fulfillments/create`.
   */
  fulfillOrder(ref: number | string, options: FulfillOptions = {}): StandInFulfillment {
    const order = this.order(ref);
    const candidates = order.fulfillmentOrders.filter((fo) => fo.status !== "CLOSED");
    let fulfillmentOrder: StandInFulfillmentOrder | undefined;
    if (options.fulfillmentOrderId !== undefined) {
      const id = numericId(options.fulfillmentOrderId, "FulfillmentOrder");
      fulfillmentOrder = order.fulfillmentOrders.find((fo) => fo.id === id);
    } else if (options.locationId !== undefined) {
      const location = this.resolveLocation(options.locationId);
      fulfillmentOrder = candidates.find((fo) => fo.locationId === location.id);
    } else {
      fulfillmentOrder = candidates[0];
    }
    if (!fulfillmentOrder) {
      throw new StandInError(`Order ${order.name} has no fulfillment order left to fulfill there`);
    }
    const lines = options.lineItems?.map(({ lineItem, quantity }) => {
      const item = order.lineItems.find(
        (li) =>
          li.id === numericId(lineItem, "LineItem") ||
          (typeof lineItem === "string" && li.sku === lineItem),
      );
      const line = fulfillmentOrder.lineItems.find((l) => l.lineItemId === item?.id);
      if (!line)
        throw new StandInError(`Line item ${lineItem} is not on ${order.name}'s fulfillment order`);
      return { id: line.id, quantity };
    });
    return this.unwrap(
      this.tryCreateFulfillment(
        {
          lineItemsByFulfillmentOrder: [
            { fulfillmentOrderId: fulfillmentOrder.id, fulfillmentOrderLineItems: lines ?? null },
          ],
          trackingInfo: options.tracking ?? null,
          notifyCustomer: options.notifyCustomer ?? false,
        },
        "merchant",
      ),
    );
  }

  /** Cancels a fulfillment as the merchant would; announces `fulfillments/update`. */
  cancelFulfillment(ref: number | string): StandInFulfillment {
    return this.unwrap(this.tryCancelFulfillment(this.fulfillment(ref).id));
  }

  /** Replaces a fulfillment's tracking; announces `fulfillments/update`. */
  updateTracking(ref: number | string, tracking: TrackingInput): StandInFulfillment {
    return this.unwrap(this.tryUpdateTracking(this.fulfillment(ref).id, tracking, false));
  }

  /** Adds a shipment status event to a fulfillment; announces `fulfillments/update`. */
  addFulfillmentEvent(ref: number | string, input: FulfillmentEventInput): StandInFulfillmentEvent {
    return this.unwrap(this.tryCreateFulfillmentEvent(this.fulfillment(ref).id, input));
  }

  /** Records the outstanding balance as paid (cash collected); announces `orders/paid`. */
  markOrderAsPaid(ref: number | string): StandInOrder {
    return this.unwrap(this.tryMarkAsPaid(this.order(ref).id));
  }

  /** Cancels an order; announces `orders/cancelled`. */
  cancelOrder(ref: number | string, input: Partial<OrderCancelInput> = {}): StandInOrder {
    return this.unwrap(this.tryCancelOrder(this.order(ref).id, { reason: "OTHER", ...input }));
  }

  /** Subscribes to what the store does; returns the unsubscribe function. */
  onEvent(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // --- Operations shared with the GraphQL mutations (user errors, never exceptions) -------------

  tryCreateFulfillment(
    input: FulfillmentCreateInput,
    createdBy: StandInFulfillment["createdBy"] = "app",
  ): Outcome<StandInFulfillment> {
    const field = ["fulfillment"];
    if (input.lineItemsByFulfillmentOrder.length === 0) {
      return fail(
        ["fulfillment", "lineItemsByFulfillmentOrder"],
        "Line items by fulfillment order can't be blank.",
      );
    }
    const fulfillmentOrders: StandInFulfillmentOrder[] = [];
    for (const entry of input.lineItemsByFulfillmentOrder) {
      const fo = this.findFulfillmentOrder(entry.fulfillmentOrderId);
      if (!fo)
        return fail(
          field,
          `Fulfillment order ${gid("FulfillmentOrder", entry.fulfillmentOrderId)} does not exist.`,
        );
      if (fulfillmentOrders.includes(fo)) return fail(field, "Fulfillment orders must be unique.");
      fulfillmentOrders.push(fo);
    }
    const [first] = fulfillmentOrders;
    if (!first) return fail(field, "Line items by fulfillment order can't be blank.");
    if (fulfillmentOrders.some((fo) => fo.orderId !== first.orderId)) {
      return fail(field, "All fulfillment orders must belong to the same order.");
    }
    if (fulfillmentOrders.some((fo) => fo.locationId !== first.locationId)) {
      return fail(field, "All fulfillment orders must be assigned to the same location.");
    }
    const order = this.orderOf(first);

    // Validate every requested quantity before changing anything.
    const plan: {
      fo: StandInFulfillmentOrder;
      lines: { line: StandInFulfillmentOrderLineItem; quantity: number }[];
    }[] = [];
    for (const [index, entry] of input.lineItemsByFulfillmentOrder.entries()) {
      const fo = fulfillmentOrders[index];
      if (!fo) continue;
      if (fo.status === "CLOSED" || order.cancelledAt) {
        return fail(
          field,
          `Fulfillment order ${gid("FulfillmentOrder", fo.id)} has an unfulfillable status= closed.`,
        );
      }
      const requested = entry.fulfillmentOrderLineItems?.length
        ? entry.fulfillmentOrderLineItems
        : fo.lineItems
            .filter((l) => l.remainingQuantity > 0)
            .map((l) => ({ id: l.id, quantity: l.remainingQuantity }));
      const lines: { line: StandInFulfillmentOrderLineItem; quantity: number }[] = [];
      for (const { id, quantity } of requested) {
        const line = fo.lineItems.find((l) => l.id === id);
        if (!line) {
          return fail(
            field,
            `Fulfillment order line item ${gid("FulfillmentOrderLineItem", id)} does not belong to fulfillment order ${gid("FulfillmentOrder", fo.id)}.`,
          );
        }
        const already = lines
          .filter((l) => l.line === line)
          .reduce((sum, l) => sum + l.quantity, 0);
        if (
          !Number.isInteger(quantity) ||
          quantity < 1 ||
          already + quantity > line.remainingQuantity
        ) {
          return fail(field, "Invalid fulfillment order line item quantity requested.");
        }
        lines.push({ line, quantity });
      }
      if (lines.length === 0)
        return fail(field, "Invalid fulfillment order line item quantity requested.");
      plan.push({ fo, lines });
    }

    const now = new Date(this.clock());
    const byLineItem = new Map<number, number>();
    for (const { fo, lines } of plan) {
      for (const { line, quantity } of lines) {
        line.remainingQuantity -= quantity;
        byLineItem.set(line.lineItemId, (byLineItem.get(line.lineItemId) ?? 0) + quantity);
      }
      fo.status = fo.lineItems.every((l) => l.remainingQuantity === 0) ? "CLOSED" : "IN_PROGRESS";
      fo.updatedAt = now;
    }
    const fulfillment: StandInFulfillment = {
      id: this.ids.take(),
      orderId: order.id,
      locationId: first.locationId,
      name: `${order.name}.${order.fulfillments.length + 1}`,
      status: "SUCCESS",
      createdAt: now,
      updatedAt: now,
      trackingInfo: trackingList(input.trackingInfo),
      events: [],
      lineItems: [...byLineItem].map(([lineItemId, quantity]) => ({
        id: this.ids.take(),
        lineItemId,
        quantity,
      })),
      drawnFrom: plan.map(({ fo, lines }) => ({
        fulfillmentOrderId: fo.id,
        lines: lines.map(({ line, quantity }) => ({ id: line.id, quantity })),
      })),
      notifyCustomer: input.notifyCustomer ?? false,
      originAddress: input.originAddress ?? null,
      message: input.message ?? null,
      deliveredAt: null,
      inTransitAt: null,
      estimatedDeliveryAt: null,
      createdBy,
    };
    order.fulfillments.push(fulfillment);
    order.updatedAt = now;
    this.emit({ topic: "fulfillments/create", at: now, order, fulfillment });
    if (this.displayFulfillmentStatus(order) === "FULFILLED") {
      this.emit({ topic: "orders/fulfilled", at: now, order });
    }
    return { ok: true, value: fulfillment };
  }

  tryUpdateTracking(
    fulfillmentId: number,
    tracking: TrackingInput,
    notifyCustomer: boolean | null | undefined,
  ): Outcome<StandInFulfillment> {
    const fulfillment = this.findFulfillment(fulfillmentId);
    if (!fulfillment) return fail(["fulfillmentId"], "Fulfillment does not exist.");
    if (fulfillment.status === "CANCELLED") {
      return fail(
        ["fulfillmentId"],
        "Tracking information can't be updated on a cancelled fulfillment.",
      );
    }
    const now = new Date(this.clock());
    fulfillment.trackingInfo = trackingList(tracking);
    if (notifyCustomer) fulfillment.notifyCustomer = true;
    fulfillment.updatedAt = now;
    const order = this.orderOf(fulfillment);
    this.emit({ topic: "fulfillments/update", at: now, order, fulfillment });
    return { ok: true, value: fulfillment };
  }

  tryCreateFulfillmentEvent(
    fulfillmentId: number,
    input: FulfillmentEventInput,
  ): Outcome<StandInFulfillmentEvent> {
    const fulfillment = this.findFulfillment(fulfillmentId);
    if (!fulfillment)
      return fail(["fulfillmentEvent", "fulfillmentId"], "Fulfillment does not exist.");
    if (fulfillment.status === "CANCELLED") {
      return fail(
        ["fulfillmentEvent", "fulfillmentId"],
        "Events can't be added to a cancelled fulfillment.",
      );
    }
    const now = new Date(this.clock());
    const event: StandInFulfillmentEvent = {
      id: this.ids.take(),
      status: input.status,
      happenedAt: input.happenedAt ?? now,
      createdAt: now,
      message: input.message ?? null,
      estimatedDeliveryAt: input.estimatedDeliveryAt ?? null,
      address1: input.address1 ?? null,
      city: input.city ?? null,
      province: input.province ?? null,
      country: input.country ?? null,
      zip: input.zip ?? null,
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
    };
    fulfillment.events.push(event);
    if (event.status === "DELIVERED") fulfillment.deliveredAt = event.happenedAt;
    if (event.status === "IN_TRANSIT") fulfillment.inTransitAt ??= event.happenedAt;
    if (event.estimatedDeliveryAt) fulfillment.estimatedDeliveryAt = event.estimatedDeliveryAt;
    fulfillment.updatedAt = now;
    this.emit({
      topic: "fulfillments/update",
      at: now,
      order: this.orderOf(fulfillment),
      fulfillment,
    });
    return { ok: true, value: event };
  }

  tryCancelFulfillment(fulfillmentId: number): Outcome<StandInFulfillment> {
    const fulfillment = this.findFulfillment(fulfillmentId);
    if (!fulfillment) return fail(["id"], "Fulfillment does not exist.");
    if (fulfillment.status === "CANCELLED")
      return fail(["id"], "Fulfillment is already cancelled.");
    const order = this.orderOf(fulfillment);
    if (order.cancelledAt)
      return fail(["id"], "Fulfillments of a cancelled order can't be cancelled.");
    const now = new Date(this.clock());
    fulfillment.status = "CANCELLED";
    fulfillment.updatedAt = now;

    // As Shopify does: a fulfillment order that was entirely fulfilled stays closed and a new one
    // takes the cancelled items; one still in progress gets its quantities back.
    for (const drawn of fulfillment.drawnFrom) {
      const fo = order.fulfillmentOrders.find((f) => f.id === drawn.fulfillmentOrderId);
      if (!fo) continue;
      if (fo.status === "CLOSED") {
        const items = drawn.lines.flatMap(({ id, quantity }) => {
          const line = fo.lineItems.find((l) => l.id === id);
          const item = order.lineItems.find((li) => li.id === line?.lineItemId);
          return item ? [[item, quantity] as [StandInLineItem, number]] : [];
        });
        order.fulfillmentOrders.push(this.newFulfillmentOrder(order, fo.locationId, items));
      } else {
        for (const { id, quantity } of drawn.lines) {
          const line = fo.lineItems.find((l) => l.id === id);
          if (line) line.remainingQuantity += quantity;
        }
        fo.status = fo.lineItems.every((l) => l.remainingQuantity === l.totalQuantity)
          ? "OPEN"
          : "IN_PROGRESS";
        fo.updatedAt = now;
      }
    }
    order.updatedAt = now;
    this.emit({ topic: "fulfillments/update", at: now, order, fulfillment });
    return { ok: true, value: fulfillment };
  }

  /** flowTriggerReceive: checked against the app's trigger extensions, recorded when accepted. */
  tryReceiveFlowTrigger(handle: unknown, payload: unknown): Outcome<ReceivedFlowTrigger> {
    this.flowTriggerDefinitions ??= flowTriggersFromExtensions();
    const userErrors = checkFlowTrigger(this.flowTriggerDefinitions, handle, payload);
    if (userErrors.length > 0) return { ok: false, userErrors };
    const received: ReceivedFlowTrigger = {
      handle: handle as string,
      payload: payload as Record<string, unknown>,
      at: new Date(this.clock()),
    };
    this.flowTriggers.push(received);
    return { ok: true, value: received };
  }

  tryMarkAsPaid(orderId: number): Outcome<StandInOrder> {
    const order = this.findOrder(orderId);
    if (!order) return fail(["id"], "Order does not exist.");
    if (order.cancelledAt) return fail(["id"], "Order is cancelled and can't be marked as paid.");
    if (toMinor(order.totalOutstanding, order.currencyCode) === 0) {
      return fail(["id"], "Order has no outstanding balance and can't be marked as paid.");
    }
    const now = new Date(this.clock());
    order.financialStatus = "PAID";
    order.totalOutstanding = fromMinor(0, order.currencyCode);
    order.updatedAt = now;
    this.emit({ topic: "orders/paid", at: now, order });
    return { ok: true, value: order };
  }

  tryCancelOrder(orderId: number, input: OrderCancelInput): Outcome<StandInOrder> {
    const order = this.findOrder(orderId);
    if (!order) return fail(["orderId"], "Order does not exist.", "NOT_FOUND");
    if (order.cancelledAt) return fail(["orderId"], "Order has already been cancelled.", "INVALID");
    if (order.fulfillments.some((f) => f.status === "SUCCESS")) {
      return fail(
        ["orderId"],
        "Order has fulfillments that aren't cancelled. Cancel them first.",
        "INVALID",
      );
    }
    const now = new Date(this.clock());
    order.cancelledAt = now;
    order.cancelReason = input.reason;
    order.closedAt = now;
    if (order.financialStatus === "PENDING") order.financialStatus = "VOIDED";
    else if (order.financialStatus === "PAID" && input.refund) order.financialStatus = "REFUNDED";
    order.totalOutstanding = fromMinor(0, order.currencyCode);
    for (const fo of order.fulfillmentOrders) {
      if (fo.status === "CLOSED") continue;
      fo.status = "CLOSED";
      for (const line of fo.lineItems) line.remainingQuantity = 0;
      fo.updatedAt = now;
    }
    order.updatedAt = now;
    this.emit({ topic: "orders/cancelled", at: now, order });
    return { ok: true, value: order };
  }

  // --- Internals ----------------------------------------------------------------------------------

  private emit(event: StoreEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private unwrap<T>(outcome: Outcome<T>): T {
    if (outcome.ok) return outcome.value;
    throw new StandInError(outcome.userErrors.map((e) => e.message).join(" "), outcome.userErrors);
  }

  private resolveLocation(ref: number | string | undefined): StandInLocation {
    if (ref === undefined) {
      return (
        this.locationList.find((l) => l.isActive && l.fulfillsOnlineOrders) ?? this.addLocation()
      );
    }
    const location = this.findLocation(ref);
    if (!location) throw new StandInError(`No location ${ref} in the stand-in store`);
    return location;
  }

  private buildAddress(input: Partial<AddressInput>): StandInAddress {
    const address = { ...DEFAULT_SHIPPING_ADDRESS, ...input };
    if (input.provinceCode && input.province === undefined) {
      address.province = KUWAIT_PROVINCES[input.provinceCode] ?? null;
    }
    return { id: this.ids.take(), ...address };
  }

  private newFulfillmentOrder(
    order: StandInOrder,
    locationId: number,
    items: [StandInLineItem, number][],
  ): StandInFulfillmentOrder {
    const now = new Date(this.clock());
    return {
      id: this.ids.take(),
      orderId: order.id,
      locationId,
      status: "OPEN",
      createdAt: now,
      updatedAt: now,
      lineItems: items.map(([item, quantity]) => ({
        id: this.ids.take(),
        lineItemId: item.id,
        totalQuantity: quantity,
        remainingQuantity: quantity,
      })),
    };
  }
}

function fail<T>(field: string[] | null, message: string, code?: string): Outcome<T> {
  return { ok: false, userErrors: [{ field, message, ...(code ? { code } : {}) }] };
}

function trackingList(input: TrackingInput | null | undefined): StandInTrackingInfo[] {
  if (!input) return [];
  const company = input.company ?? null;
  if (input.numbers?.length) {
    return input.numbers.map((number, i) => ({ company, number, url: input.urls?.[i] ?? null }));
  }
  if (input.number || input.url)
    return [{ company, number: input.number ?? null, url: input.url ?? null }];
  return company ? [{ company, number: null, url: null }] : [];
}

/** A numeric id from a number, a digit string or a gid of the expected type. */
function numericId(ref: number | string, type: ResourceType): number | undefined {
  if (typeof ref === "number") return ref;
  if (/^\d+$/.test(ref)) return Number(ref);
  const parsed = parseGid(ref);
  return parsed?.type === type ? parsed.id : undefined;
}
