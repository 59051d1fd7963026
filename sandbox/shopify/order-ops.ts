import { updatedAddress } from "./addresses";
import { plannedMetafields } from "./metafields";
import { fromMinor, toMinor } from "./money";
import {
  fail,
  type OrderCancelInput,
  type OrderUpdateInput,
  type Outcome,
  type StandInAddress,
  type StandInOrder,
} from "./records";
import type { StoreContext } from "./store";

// The store's order operations, shared by the GraphQL mutations and the merchant's actions.

export function markAsPaid(ctx: StoreContext, orderId: number): Outcome<StandInOrder> {
  const order = ctx.store.findOrder(orderId);
  if (!order) return fail(["id"], "Order does not exist.");
  if (order.cancelledAt) return fail(["id"], "Order is cancelled and can't be marked as paid.");
  if (toMinor(order.totalOutstanding, order.currencyCode) === 0) {
    return fail(["id"], "Order has no outstanding balance and can't be marked as paid.");
  }
  const now = ctx.now();
  order.financialStatus = "PAID";
  order.totalOutstanding = fromMinor(0, order.currencyCode);
  order.updatedAt = now;
  ctx.emit({ topic: "orders/paid", at: now, order });
  return { ok: true, value: order };
}

export function cancelOrder(
  ctx: StoreContext,
  orderId: number,
  input: OrderCancelInput,
): Outcome<StandInOrder> {
  const order = ctx.store.findOrder(orderId);
  if (!order) return fail(["orderId"], "Order does not exist.", "NOT_FOUND");
  if (order.cancelledAt) return fail(["orderId"], "Order has already been cancelled.", "INVALID");
  if (order.fulfillments.some((f) => f.status === "SUCCESS")) {
    return fail(
      ["orderId"],
      "Order has fulfillments that aren't cancelled. Cancel them first.",
      "INVALID",
    );
  }
  const now = ctx.now();
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
    for (const hold of fo.holds) hold.releasedAt ??= now;
    fo.updatedAt = now;
  }
  order.updatedAt = now;
  ctx.emit({ topic: "orders/cancelled", at: now, order });
  return { ok: true, value: order };
}

/**
 * orderUpdate: every input is checked before anything changes. A new shipping address becomes the
 * destination of the fulfillment orders still to ship; closed ones keep the address they went to.
 */
export function updateOrder(
  ctx: StoreContext,
  orderId: number,
  input: OrderUpdateInput,
): Outcome<StandInOrder> {
  const order = ctx.store.findOrder(orderId);
  if (!order) return fail(["id"], "Order does not exist.");
  let address: StandInAddress | undefined;
  if (input.shippingAddress) {
    const outcome = updatedAddress(order.shippingAddress, input.shippingAddress, ctx.takeId);
    if (!outcome.ok) return outcome;
    address = outcome.value;
  }
  const planned = plannedMetafields(order.metafields, input.metafields ?? [], ctx.store.appId);
  if (!planned.ok) return planned;

  const now = ctx.now();
  if (address) {
    order.shippingAddress = address;
    for (const fo of order.fulfillmentOrders) {
      if (fo.status === "CLOSED") continue;
      fo.destination = { ...address, id: fo.destination?.id ?? ctx.takeId() };
      fo.updatedAt = now;
    }
  }
  for (const change of planned.value) {
    const { target, ...fields } = change;
    if (target) Object.assign(target, { type: fields.type, value: fields.value, updatedAt: now });
    else order.metafields.push({ id: ctx.takeId(), ...fields, createdAt: now, updatedAt: now });
  }
  if (input.email !== undefined) order.email = input.email;
  if (input.phone !== undefined) order.phone = input.phone;
  if (input.note !== undefined) order.note = input.note;
  if (input.tags !== undefined && input.tags !== null) order.tags = [...input.tags];
  order.updatedAt = now;
  return { ok: true, value: order };
}
