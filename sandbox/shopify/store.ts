import { DEFAULT_LOCATION_ADDRESS, KUWAIT_PROVINCES } from "./addresses";
import { StandInError } from "./errors";
import {
  checkFlowTrigger,
  flowTriggersFromExtensions,
  type FlowTriggerDefinition,
  type ReceivedFlowTrigger,
} from "./flow";
import {
  cancelFulfillment,
  createFulfillment,
  createFulfillmentEvent,
  updateTracking,
} from "./fulfillment-ops";
import { StandInShipping } from "./carrier-services";
import { activeHolds, holdFulfillmentOrder, releaseFulfillmentHolds } from "./holds";
import { IdSequence, parseGid, type ResourceType } from "./ids";
import { appNamespace } from "./metafields";
import { buildOrder, routeOrder, type Placement } from "./order-building";
import { cancelOrder, markAsPaid, updateOrder } from "./order-ops";
import type {
  DisplayFulfillmentStatus,
  FulfillmentCreateInput,
  FulfillmentEventInput,
  FulfillmentHoldInput,
  FulfillOptions,
  GraphqlOperationRecord,
  HoldResult,
  LocationInput,
  OrderCancelInput,
  OrderInput,
  OrderUpdateInput,
  Outcome,
  StandInFulfillment,
  StandInFulfillmentEvent,
  StandInFulfillmentHold,
  StandInFulfillmentOrder,
  StandInFulfillmentOrderLineItem,
  StandInLineItem,
  StandInLocation,
  StandInMetafield,
  StandInOrder,
  StoreEvent,
  TrackingInput,
} from "./records";

export { StandInError } from "./errors";

export interface ShopifyStandInStoreOptions {
  /** The shop's myshopify domain (default "demo-store.myshopify.com"). */
  shop?: string;
  /** The shop's display name (default "Demo Store"). */
  name?: string;
  email?: string;
  currencyCode?: string;
  /** Milliseconds since the epoch; for tests that need fixed times. */
  clock?: () => number;
  /** The app's id, which names its reserved metafield namespace `app--<id>` (default 6120001). */
  appId?: number;
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
  /** The one app's id: `$app` metafield namespaces are `app--<appId>`. */
  readonly appId: number;

  private readonly ids = new IdSequence();
  private readonly locationList: StandInLocation[] = [];
  private readonly orderList: StandInOrder[] = [];
  private readonly listeners = new Set<(event: StoreEvent) => void>();
  private nextOrderNumber = 1001;
  /** Orders added with `routed: false`, and where their lines will ship from. */
  private readonly unrouted = new Map<number, Placement>();
  private readonly context: StoreContext = {
    store: this,
    takeId: () => this.ids.take(),
    now: () => new Date(this.clock()),
    emit: (event) => this.emit(event),
    newFulfillmentOrder: (order, locationId, items) =>
      this.newFulfillmentOrder(order, locationId, items),
  };
  /** The shop's plan and carrier services (`carrier-services.ts`). */
  readonly shipping = new StandInShipping(this.context);

  constructor(options: ShopifyStandInStoreOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.appId = options.appId ?? 6_120_001;
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

  /** Like {@link findFulfillmentOrder}, but throws a {@link StandInError} when there is none. */
  fulfillmentOrder(ref: number | string): StandInFulfillmentOrder {
    const fo = this.findFulfillmentOrder(ref);
    if (!fo) throw new StandInError(`No fulfillment order ${ref} in the stand-in store`);
    return fo;
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
    if (done === 0) {
      // As in the admin: on hold only when everything left to ship is held.
      const open = order.fulfillmentOrders.filter((fo) => fo.status !== "CLOSED");
      const held = open.length > 0 && open.every((fo) => fo.status === "ON_HOLD");
      return held ? "ON_HOLD" : "UNFULFILLED";
    }
    return done >= wanted ? "FULFILLED" : "PARTIALLY_FULFILLED";
  }

  /** A hold by id or gid, released or not. */
  findFulfillmentHold(ref: number | string): StandInFulfillmentHold | undefined {
    const id = numericId(ref, "FulfillmentHold");
    for (const order of this.orderList) {
      for (const fo of order.fulfillmentOrders) {
        const found = fo.holds.find((hold) => hold.id === id);
        if (found) return found;
      }
    }
    return undefined;
  }

  /** The holds in force on an order's fulfillment orders (released ones stay on each `holds`). */
  fulfillmentHolds(ref: number | string): StandInFulfillmentHold[] {
    return this.order(ref).fulfillmentOrders.flatMap((fo) => activeHolds(fo));
  }

  /** An order's metafield; `namespace` null or "$app" is the app's reserved namespace. */
  metafield(
    ref: number | string,
    namespace: string | null,
    key: string,
  ): StandInMetafield | undefined {
    const wanted = appNamespace(this.appId, namespace);
    return this.order(ref).metafields.find((m) => m.namespace === wanted && m.key === key);
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
   * lines are assigned to (unless `routed: false`), and announces `orders/create`. Every field
   * has a sensible Kuwaiti default.
   */
  addOrder(input: OrderInput = {}): StandInOrder {
    const { order, placement } = buildOrder(this.context, input, this.nextOrderNumber, (ref) =>
      this.resolveLocation(ref),
    );
    this.nextOrderNumber += 1;
    if (input.routed === false) this.unrouted.set(order.id, placement);
    else routeOrder(this.context, order, placement);
    this.orderList.push(order);
    this.emit({ topic: "orders/create", at: new Date(this.clock()), order });
    return order;
  }

  /**
   * Creates the fulfillment orders of an order added with `routed: false`, as Shopify's routing
   * does some time after the order was created.
   */
  routeOrder(ref: number | string): StandInOrder {
    const order = this.order(ref);
    const placement = this.unrouted.get(order.id);
    if (!placement) throw new StandInError(`Order ${order.name} is routed already`);
    this.unrouted.delete(order.id);
    routeOrder(this.context, order, placement);
    return order;
  }

  // --- What the merchant does in the admin --------------------------------------------------------

  /**
   * Fulfills an order as the merchant would in the admin ("Fulfill items"): one fulfillment from
   * one fulfillment order, by default everything it still holds. Announces `fulfillments/create`.
   */
  fulfillOrder(ref: number | string, options: FulfillOptions = {}): StandInFulfillment {
    return this.unwrap(this.tryFulfillOrder(ref, options));
  }

  /**
   * Like {@link fulfillOrder}, but Shopify's refusal (a fulfillment order on hold or closed, a
   * quantity too large) comes back as the user errors fulfillmentCreate would give.
   */
  tryFulfillOrder(ref: number | string, options: FulfillOptions = {}): Outcome<StandInFulfillment> {
    const order = this.order(ref);
    // The merchant picks a fulfillment order that can ship; a held one only when all are held.
    const candidates = order.fulfillmentOrders
      .filter((fo) => fo.status !== "CLOSED")
      .sort((a, b) => Number(a.status === "ON_HOLD") - Number(b.status === "ON_HOLD"));
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
    return this.tryCreateFulfillment(
      {
        lineItemsByFulfillmentOrder: [
          { fulfillmentOrderId: fulfillmentOrder.id, fulfillmentOrderLineItems: lines ?? null },
        ],
        trackingInfo: options.tracking ?? null,
        notifyCustomer: options.notifyCustomer ?? false,
      },
      "merchant",
    );
  }

  /**
   * Holds a fulfillment order (id or gid) as the merchant would in the admin ("Hold fulfillment");
   * reason OTHER unless given. The merchant's handles do not clash with the app's.
   */
  holdFulfillmentOrder(
    ref: number | string,
    input: Partial<FulfillmentHoldInput> = {},
  ): StandInFulfillmentHold {
    const fo = this.fulfillmentOrder(ref);
    return this.unwrap(
      this.tryHoldFulfillmentOrder(fo.id, { reason: "OTHER", ...input }, "merchant"),
    ).hold;
  }

  /** Releases holds as the merchant would: the given ones, or every hold on the fulfillment order. */
  releaseFulfillmentHolds(
    ref: number | string,
    holdIds?: readonly (number | string)[],
  ): StandInFulfillmentOrder {
    const fo = this.fulfillmentOrder(ref);
    const ids = holdIds?.map((id) => numericId(id, "FulfillmentHold") ?? -1) ?? null;
    return this.unwrap(this.tryReleaseFulfillmentHolds(fo.id, ids));
  }

  /** Edits an order as the merchant would (shipping address, metafields, note...). */
  updateOrder(ref: number | string, input: OrderUpdateInput): StandInOrder {
    return this.unwrap(this.tryUpdateOrder(this.order(ref).id, input));
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

  tryUpdateOrder(orderId: number, input: OrderUpdateInput): Outcome<StandInOrder> {
    return updateOrder(this.context, orderId, input);
  }

  tryHoldFulfillmentOrder(
    fulfillmentOrderId: number,
    input: FulfillmentHoldInput,
    heldBy: StandInFulfillmentHold["heldBy"] = "app",
  ): Outcome<HoldResult> {
    return holdFulfillmentOrder(this.context, fulfillmentOrderId, input, heldBy);
  }

  tryReleaseFulfillmentHolds(
    fulfillmentOrderId: number,
    holdIds: readonly number[] | null,
  ): Outcome<StandInFulfillmentOrder> {
    return releaseFulfillmentHolds(this.context, fulfillmentOrderId, holdIds);
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
      destination: order.shippingAddress ? { ...order.shippingAddress, id: this.ids.take() } : null,
      holds: [],
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
