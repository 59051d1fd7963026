import {
  checkFlowTrigger,
  flowTriggersFromExtensions,
  type FlowTriggerDefinition,
  type ReceivedFlowTrigger,
} from "./flow";
import {
  DEFAULT_LINE_ITEM,
  DEFAULT_LOCATION_ADDRESS,
  DEFAULT_SHIPPING_ADDRESS,
  KUWAIT_PROVINCES,
} from "./addresses";
import {
  cancelFulfillment,
  createFulfillment,
  createFulfillmentEvent,
  updateTracking,
} from "./fulfillment-ops";
import { IdSequence, parseGid, type ResourceType } from "./ids";
import { fromMinor, toMinor } from "./money";
import { cancelOrder, markAsPaid } from "./order-ops";
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
  StandInOrder,
  StoreEvent,
  TrackingInput,
  UserErrorRecord,
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

/**
 * What the store's operations (`fulfillment-ops.ts`, `order-ops.ts`...) may do besides reading
 * the store: take ids, read the clock, announce events, open fulfillment orders.
 */
export interface StoreContext {
  readonly store: ShopifyStandInStore;
  takeId(): number;
  now(): Date;
  emit(event: StoreEvent): void;
  newFulfillmentOrder(
    order: StandInOrder,
    locationId: number,
    items: [StandInLineItem, number][],
  ): StandInFulfillmentOrder;
}

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
  private readonly context: StoreContext = {
    store: this,
    takeId: () => this.ids.take(),
    now: () => new Date(this.clock()),
    emit: (event) => this.emit(event),
    newFulfillmentOrder: (order, locationId, items) =>
      this.newFulfillmentOrder(order, locationId, items),
  };

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
    return createFulfillment(this.context, input, createdBy);
  }

  tryUpdateTracking(
    fulfillmentId: number,
    tracking: TrackingInput,
    notifyCustomer: boolean | null | undefined,
  ): Outcome<StandInFulfillment> {
    return updateTracking(this.context, fulfillmentId, tracking, notifyCustomer);
  }

  tryCreateFulfillmentEvent(
    fulfillmentId: number,
    input: FulfillmentEventInput,
  ): Outcome<StandInFulfillmentEvent> {
    return createFulfillmentEvent(this.context, fulfillmentId, input);
  }

  tryCancelFulfillment(fulfillmentId: number): Outcome<StandInFulfillment> {
    return cancelFulfillment(this.context, fulfillmentId);
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
    return markAsPaid(this.context, orderId);
  }

  tryCancelOrder(orderId: number, input: OrderCancelInput): Outcome<StandInOrder> {
    return cancelOrder(this.context, orderId, input);
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

/** A numeric id from a number, a digit string or a gid of the expected type. */
function numericId(ref: number | string, type: ResourceType): number | undefined {
  if (typeof ref === "number") return ref;
  if (/^\d+$/.test(ref)) return Number(ref);
  const parsed = parseGid(ref);
  return parsed?.type === type ? parsed.id : undefined;
}
