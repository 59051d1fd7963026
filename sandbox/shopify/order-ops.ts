import { fromMinor, toMinor } from "./money";
import { fail, type OrderCancelInput, type Outcome, type StandInOrder } from "./records";
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
    fo.updatedAt = now;
  }
  order.updatedAt = now;
  ctx.emit({ topic: "orders/cancelled", at: now, order });
  return { ok: true, value: order };
}
