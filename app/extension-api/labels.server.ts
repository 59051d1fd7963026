import { labelDataFromDelivery, type LabelData } from "../labels";
import { findDeliveries } from "../models/deliveries.server";
import type { DeliveryState } from "../domain/states";
import type { AdminGraphql } from "../shopify/graphql";
import { fetchOrdersByIds } from "../shopify/orders";
import { whenShopifyAllows } from "../shopify/sending";
import {
  FINISHED_REASONS,
  NO_LABEL_REASONS,
  whyNoLabel,
  type NoLabelReason,
} from "../domain/label-availability";
import { shopDisplayName } from "./orders.server";

/** Deliveries left out for one reason (orders never sent to the courier count as `not_sent`). */
export interface LeftOut {
  reason: NoLabelReason | "not_sent";
  deliveryIds: string[];
  /** How many: the deliveries, or the orders never sent. */
  count: number;
}

export type LabelsOutcome =
  | { ok: true; labels: LabelData[]; leftOut: LeftOut[] }
  /** Some ids are not this shop's (or do not exist): nothing is printed. */
  | { ok: false; status: 404; error: string }
  /**
   * All found, none with a label to print: not created at the courier yet (`not_yet`), or every
   * one already delivered, returned or cancelled (`finished`); `leftOut` says why for each.
   */
  | {
      ok: false;
      status: 409;
      error: string;
      why: "not_yet" | "finished";
      leftOut: LeftOut[];
    };

/**
 * The labels of a shop's deliveries, named directly or by their orders (the order page's and the
 * order list's print actions): those the courier has created and not yet delivered, in the order
 * asked. Every id must be the shop's; one that is not makes the whole answer a 404. An order of
 * the shop that was never sent to the courier (selected in the order list beside sent ones) has
 * no label and is left out, as one whose delivery has none yet; Shopify, asked with the shop's
 * token, tells it from another shop's order (when Shopify does not answer, it is left out too:
 * nothing of it is printed either way).
 */
export async function printableLabels(
  shop: string,
  admin: AdminGraphql,
  ids: { orderIds?: readonly string[]; deliveryIds?: readonly string[] },
): Promise<LabelsOutcome> {
  const orderIds = [...new Set(ids.orderIds ?? [])];
  const deliveryIds = [...new Set(ids.deliveryIds ?? [])];
  const rows = await findDeliveries(shop, { ids: deliveryIds, orderIds });
  const unsent = orderIds.filter((id) => !rows.some((r) => r.orderId === id));
  const shopifyKnows =
    unsent.length === 0
      ? []
      : await whenShopifyAllows(() => fetchOrdersByIds(admin, unsent)).then(
          (orders) => orders.map((o) => o.id),
          () => unsent,
        );
  const missing =
    deliveryIds.some((id) => !rows.some((r) => r.id === id)) ||
    unsent.some((id) => !shopifyKnows.includes(id));
  if (missing) return { ok: false, status: 404, error: "No such order or delivery in this shop." };
  const printable = rows.filter((r) => whyNoLabel(labelFacts(r)) === null);
  const leftOut: LeftOut[] = NO_LABEL_REASONS.map((reason) => {
    const deliveryIds = rows.filter((r) => whyNoLabel(labelFacts(r)) === reason).map((r) => r.id);
    return { reason, deliveryIds, count: deliveryIds.length };
  });
  leftOut.push({ reason: "not_sent", deliveryIds: [], count: unsent.length });
  const reasons = leftOut.filter((l) => l.count > 0);
  if (printable.length === 0) {
    // Every one delivered, returned or cancelled: it needs no label.
    const finished = reasons.every((l) => (FINISHED_REASONS as string[]).includes(l.reason));
    return finished
      ? {
          ok: false,
          status: 409,
          why: "finished",
          leftOut: reasons,
          error:
            "These deliveries are delivered, returned or cancelled: there is no label left to print.",
        }
      : {
          ok: false,
          status: 409,
          why: "not_yet",
          leftOut: reasons,
          error:
            "None of these deliveries has a label yet: a label is printed once the courier has created the delivery.",
        };
  }
  // Orders first in the order named, then deliveries named directly.
  const rank = (r: (typeof rows)[number]) => {
    const byOrder = orderIds.indexOf(r.orderId);
    return byOrder >= 0 ? byOrder : orderIds.length + deliveryIds.indexOf(r.id);
  };
  printable.sort((a, b) => rank(a) - rank(b));
  const shopName = await shopDisplayName(shop, admin);
  return {
    ok: true,
    labels: printable.map((row) => labelDataFromDelivery(row, null, { name: shopName })),
    leftOut: reasons,
  };
}

const labelFacts = (row: {
  state: DeliveryState;
  courierOrderNumber: string | null;
  courierOrderId: string | null;
}) => ({
  state: row.state,
  courierOrderNumber: row.courierOrderNumber ?? row.courierOrderId,
});
