import { gid } from "./ids";
import {
  fail,
  type FulfillmentHoldInput,
  type HoldResult,
  type Outcome,
  type StandInFulfillmentHold,
  type StandInFulfillmentOrder,
  type StandInFulfillmentOrderLineItem,
} from "./records";
import type { StoreContext } from "./store";

// Fulfillment holds (fulfillmentOrderHold, fulfillmentOrderReleaseHold, the merchant's "Hold
// fulfillment"), as Shopify documents them for 2026-10.

/** Each holder may keep this many active holds on one fulfillment order. */
export const MAX_HOLDS_PER_HOLDER = 10;
const MAX_HANDLE_LENGTH = 64;

export function activeHolds(fo: StandInFulfillmentOrder): StandInFulfillmentHold[] {
  return fo.holds.filter((hold) => hold.releasedAt === null);
}

/**
 * The status a fulfillment order settles in after a change: on hold while a hold is active,
 * closed once nothing remains, in progress once something was fulfilled, otherwise open.
 */
export function settledStatus(fo: StandInFulfillmentOrder): StandInFulfillmentOrder["status"] {
  if (fo.lineItems.every((line) => line.remainingQuantity === 0)) return "CLOSED";
  if (activeHolds(fo).length > 0) return "ON_HOLD";
  return fo.lineItems.every((line) => line.remainingQuantity === line.totalQuantity)
    ? "OPEN"
    : "IN_PROGRESS";
}

export function holdFulfillmentOrder(
  ctx: StoreContext,
  fulfillmentOrderId: number,
  input: FulfillmentHoldInput,
  heldBy: StandInFulfillmentHold["heldBy"],
): Outcome<HoldResult> {
  const fo = ctx.store.findFulfillmentOrder(fulfillmentOrderId);
  if (!fo) return fail(["id"], "Fulfillment order does not exist.", "FULFILLMENT_ORDER_NOT_FOUND");
  const order = ctx.store.orderOf(fo);
  if (fo.status === "CLOSED" || order.cancelledAt) {
    return fail(
      ["id"],
      `Fulfillment order ${gid("FulfillmentOrder", fo.id)} can't be placed on hold: its status is closed.`,
    );
  }
  const handle = input.handle ?? "";
  if (handle.length > MAX_HANDLE_LENGTH) {
    return fail(
      ["fulfillmentHold", "handle"],
      `Handle is too long (maximum is ${MAX_HANDLE_LENGTH} characters).`,
    );
  }
  const mine = activeHolds(fo).filter((hold) => hold.heldBy === heldBy);
  if (mine.some((hold) => hold.handle === handle)) {
    return fail(
      ["fulfillmentHold", "handle"],
      "The handle provided for the fulfillment hold is already in use by this app for another hold on this fulfillment order.",
      "DUPLICATE_FULFILLMENT_HOLD_HANDLE",
    );
  }
  if (mine.length >= MAX_HOLDS_PER_HOLDER) {
    return fail(
      ["id"],
      `The maximum number of fulfillment holds for this fulfillment order has been reached for this app. An app can only have up to ${MAX_HOLDS_PER_HOLDER} holds on a single fulfillment order at any one time.`,
      "FULFILLMENT_ORDER_HOLD_LIMIT_REACHED",
    );
  }

  // Holding some of the items splits the fulfillment order: the rest goes on without the hold.
  const requested = input.fulfillmentOrderLineItems ?? [];
  const kept = new Map<StandInFulfillmentOrderLineItem, number>();
  if (requested.length > 0) {
    const field = ["fulfillmentHold", "fulfillmentOrderLineItems"];
    if (fo.status === "ON_HOLD") {
      return fail(
        field,
        "The fulfillment order is not in a splittable state.",
        "FULFILLMENT_ORDER_NOT_SPLITTABLE",
      );
    }
    for (const { id, quantity } of requested) {
      const line = fo.lineItems.find((l) => l.id === id);
      if (!line || line.remainingQuantity === 0) {
        return fail(
          field,
          "The fulfillment order line item quantity is invalid.",
          "INVALID_LINE_ITEM_QUANTITY",
        );
      }
      if (kept.has(line)) {
        return fail(
          field,
          "The fulfillment order line items are not unique.",
          "DUPLICATED_FULFILLMENT_ORDER_LINE_ITEMS",
        );
      }
      if (!Number.isInteger(quantity) || quantity <= 0) {
        return fail(
          field,
          "The fulfillment order line item quantity must be greater than 0.",
          "GREATER_THAN_ZERO",
        );
      }
      if (quantity > line.remainingQuantity) {
        return fail(
          field,
          "The fulfillment order line item quantity is invalid.",
          "INVALID_LINE_ITEM_QUANTITY",
        );
      }
      kept.set(line, quantity);
    }
  }

  const now = ctx.now();
  let remainingFulfillmentOrder: StandInFulfillmentOrder | null = null;
  const rest = fo.lineItems.flatMap((line) => {
    if (kept.size === 0 || line.remainingQuantity === 0) return [];
    const left = line.remainingQuantity - (kept.get(line) ?? 0);
    return left > 0 ? [{ line, left }] : [];
  });
  if (rest.length > 0) {
    remainingFulfillmentOrder = ctx.newFulfillmentOrder(
      order,
      fo.locationId,
      rest.map(({ line, left }) => {
        line.totalQuantity -= left;
        line.remainingQuantity -= left;
        const item = order.lineItems.find((li) => li.id === line.lineItemId);
        if (!item) throw new Error(`Line item ${line.lineItemId} vanished from ${order.name}`);
        return [item, left];
      }),
    );
    order.fulfillmentOrders.push(remainingFulfillmentOrder);
    fo.lineItems = fo.lineItems.filter((line) => line.totalQuantity > 0);
  }

  const hold: StandInFulfillmentHold = {
    id: ctx.takeId(),
    fulfillmentOrderId: fo.id,
    reason: input.reason,
    reasonNotes: input.reasonNotes ?? null,
    handle,
    heldBy,
    notifyMerchant: input.notifyMerchant ?? false,
    externalId: input.externalId ?? null,
    createdAt: now,
    releasedAt: null,
  };
  fo.holds.push(hold);
  fo.status = settledStatus(fo);
  fo.updatedAt = now;
  order.updatedAt = now;
  return { ok: true, value: { hold, fulfillmentOrder: fo, remainingFulfillmentOrder } };
}

/**
 * Releases the given holds of a fulfillment order (ids of other fulfillment orders' holds are
 * ignored, as Shopify documents), or every hold on it when no ids are given: the merchant's and
 * the app's alike, which is why Shopify asks apps to name theirs.
 */
export function releaseFulfillmentHolds(
  ctx: StoreContext,
  fulfillmentOrderId: number,
  holdIds: readonly number[] | null,
): Outcome<StandInFulfillmentOrder> {
  const fo = ctx.store.findFulfillmentOrder(fulfillmentOrderId);
  if (!fo) return fail(["id"], "Fulfillment order does not exist.", "FULFILLMENT_ORDER_NOT_FOUND");
  const active = activeHolds(fo);
  if (active.length === 0) return fail(["id"], "The fulfillment order is not on hold.");
  const now = ctx.now();
  for (const hold of active) {
    if (holdIds === null || holdIds.includes(hold.id)) hold.releasedAt = now;
  }
  fo.status = settledStatus(fo);
  fo.updatedAt = now;
  ctx.store.orderOf(fo).updatedAt = now;
  return { ok: true, value: fo };
}
