import { settledStatus } from "./holds";
import { gid } from "./ids";
import {
  fail,
  type FulfillmentCreateInput,
  type FulfillmentEventInput,
  type Outcome,
  type StandInFulfillment,
  type StandInFulfillmentEvent,
  type StandInFulfillmentOrder,
  type StandInFulfillmentOrderLineItem,
  type StandInLineItem,
  type StandInTrackingInfo,
  type TrackingInput,
} from "./records";
import type { StoreContext } from "./store";

// The store's fulfillment operations, shared by the GraphQL mutations and the merchant's actions:
// bad input is a user error worded as Shopify words it, never an exception.

export function createFulfillment(
  ctx: StoreContext,
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
    const fo = ctx.store.findFulfillmentOrder(entry.fulfillmentOrderId);
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
  const order = ctx.store.orderOf(first);

  // Validate every requested quantity before changing anything.
  const plan: {
    fo: StandInFulfillmentOrder;
    lines: { line: StandInFulfillmentOrderLineItem; quantity: number }[];
  }[] = [];
  for (const [index, entry] of input.lineItemsByFulfillmentOrder.entries()) {
    const fo = fulfillmentOrders[index];
    if (!fo) continue;
    if (fo.status === "CLOSED" || fo.status === "ON_HOLD" || order.cancelledAt) {
      const status = fo.status === "ON_HOLD" && !order.cancelledAt ? "on_hold" : "closed";
      return fail(
        field,
        `Fulfillment order ${gid("FulfillmentOrder", fo.id)} has an unfulfillable status= ${status}.`,
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
      const already = lines.filter((l) => l.line === line).reduce((sum, l) => sum + l.quantity, 0);
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

  const now = ctx.now();
  const byLineItem = new Map<number, number>();
  for (const { fo, lines } of plan) {
    for (const { line, quantity } of lines) {
      line.remainingQuantity -= quantity;
      byLineItem.set(line.lineItemId, (byLineItem.get(line.lineItemId) ?? 0) + quantity);
    }
    fo.status = settledStatus(fo);
    fo.updatedAt = now;
  }
  const fulfillment: StandInFulfillment = {
    id: ctx.takeId(),
    orderId: order.id,
    locationId: first.locationId,
    name: `${order.name}.${order.fulfillments.length + 1}`,
    status: "SUCCESS",
    createdAt: now,
    updatedAt: now,
    trackingInfo: trackingList(input.trackingInfo),
    events: [],
    lineItems: [...byLineItem].map(([lineItemId, quantity]) => ({
      id: ctx.takeId(),
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
  ctx.emit({ topic: "fulfillments/create", at: now, order, fulfillment });
  if (ctx.store.displayFulfillmentStatus(order) === "FULFILLED") {
    ctx.emit({ topic: "orders/fulfilled", at: now, order });
  }
  return { ok: true, value: fulfillment };
}

export function updateTracking(
  ctx: StoreContext,
  fulfillmentId: number,
  tracking: TrackingInput,
  notifyCustomer: boolean | null | undefined,
): Outcome<StandInFulfillment> {
  const fulfillment = ctx.store.findFulfillment(fulfillmentId);
  if (!fulfillment) return fail(["fulfillmentId"], "Fulfillment does not exist.");
  if (fulfillment.status === "CANCELLED") {
    return fail(
      ["fulfillmentId"],
      "Tracking information can't be updated on a cancelled fulfillment.",
    );
  }
  const now = ctx.now();
  fulfillment.trackingInfo = trackingList(tracking);
  if (notifyCustomer) fulfillment.notifyCustomer = true;
  fulfillment.updatedAt = now;
  const order = ctx.store.orderOf(fulfillment);
  ctx.emit({ topic: "fulfillments/update", at: now, order, fulfillment });
  return { ok: true, value: fulfillment };
}

export function createFulfillmentEvent(
  ctx: StoreContext,
  fulfillmentId: number,
  input: FulfillmentEventInput,
): Outcome<StandInFulfillmentEvent> {
  const fulfillment = ctx.store.findFulfillment(fulfillmentId);
  if (!fulfillment)
    return fail(["fulfillmentEvent", "fulfillmentId"], "Fulfillment does not exist.");
  if (fulfillment.status === "CANCELLED") {
    return fail(
      ["fulfillmentEvent", "fulfillmentId"],
      "Events can't be added to a cancelled fulfillment.",
    );
  }
  const now = ctx.now();
  const event: StandInFulfillmentEvent = {
    id: ctx.takeId(),
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
  ctx.emit({
    topic: "fulfillments/update",
    at: now,
    order: ctx.store.orderOf(fulfillment),
    fulfillment,
  });
  return { ok: true, value: event };
}

export function cancelFulfillment(
  ctx: StoreContext,
  fulfillmentId: number,
): Outcome<StandInFulfillment> {
  const fulfillment = ctx.store.findFulfillment(fulfillmentId);
  if (!fulfillment) return fail(["id"], "Fulfillment does not exist.");
  if (fulfillment.status === "CANCELLED") return fail(["id"], "Fulfillment is already cancelled.");
  const order = ctx.store.orderOf(fulfillment);
  if (order.cancelledAt)
    return fail(["id"], "Fulfillments of a cancelled order can't be cancelled.");
  const now = ctx.now();
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
      order.fulfillmentOrders.push(ctx.newFulfillmentOrder(order, fo.locationId, items));
    } else {
      for (const { id, quantity } of drawn.lines) {
        const line = fo.lineItems.find((l) => l.id === id);
        if (line) line.remainingQuantity += quantity;
      }
      fo.status = settledStatus(fo);
      fo.updatedAt = now;
    }
  }
  order.updatedAt = now;
  ctx.emit({ topic: "fulfillments/update", at: now, order, fulfillment });
  return { ok: true, value: fulfillment };
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
