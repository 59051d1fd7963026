import { findDeliveryProgress, type DeliveryRow } from "../models/deliveries.server";
import { STATE_LABELS, type DeliveryState } from "../domain/states";

/** Where a sent order stands, in the merchant's words, for the Send page's rows. */
export type SendProgress =
  | "created"
  | "rejected"
  | "needs_address"
  | "needs_review"
  | "needs_attention"
  | "not_sent"
  | "cancelled"
  | "in_progress";

export interface SendStatus {
  deliveryId: string;
  orderId: string;
  /** Nothing more will happen without the courier's progress or the merchant. */
  settled: boolean;
  progress: SendProgress;
  message: string;
  /** What the page words itself from: the delivery's state, courier number and reason. */
  state: DeliveryState;
  /** Shopify has confirmed the fulfillment. */
  fulfilled: boolean;
  courierOrderNumber: string | null;
  reason: string | null;
}

const AT_COURIER: readonly DeliveryState[] = [
  "created",
  "picked_up",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "failed",
  "returned",
];

export function sendStatusOf(
  row: Pick<
    DeliveryRow,
    "id" | "orderId" | "state" | "stateReason" | "fulfillmentId" | "courierOrderNumber"
  >,
): SendStatus {
  const state = row.state;
  const status = (progress: SendProgress, message: string, settled = true): SendStatus => ({
    deliveryId: row.id,
    orderId: row.orderId,
    settled,
    progress,
    message,
    state,
    fulfilled: row.fulfillmentId !== null,
    courierOrderNumber: row.courierOrderNumber,
    reason: row.stateReason,
  });
  const reason = row.stateReason ?? "no reason given";
  if (AT_COURIER.includes(state)) {
    const label = state === "created" ? "" : ` (${STATE_LABELS[state]})`;
    return status("created", `Created at the courier as ${row.courierOrderNumber ?? "?"}${label}`);
  }
  switch (state) {
    case "rejected":
      return status("rejected", `Rejected by the courier: ${reason}`);
    case "needs_address":
      return status("needs_address", `Address needs review: ${reason}`);
    case "needs_review":
      return status("needs_review", `Needs your decision: ${reason}`);
    case "needs_attention":
      // Stopped until the merchant acts (Shopify failing for too long, a fulfillment that never
      // came): nothing more happens on its own, so the page stops following it.
      return status("needs_attention", `Needs your attention: ${reason}`);
    case "skipped":
      return status("not_sent", `Not sent: ${reason}`);
    case "cancelled":
      return status("cancelled", `Cancelled: ${reason}`);
    case "pending":
      return row.fulfillmentId === null
        ? status("in_progress", "Waiting for Shopify to confirm the fulfillment", false)
        : status("in_progress", "Preparing the courier request", false);
    case "ready":
      return status("in_progress", "Waiting to go to the courier", false);
    case "creating":
      return status("in_progress", "Sending to the courier", false);
    case "unknown":
      return status("in_progress", "Checking with the courier whether it arrived", false);
    default:
      return status("in_progress", STATE_LABELS[state] ?? state, false);
  }
}

/** Where each of these deliveries of the shop stands (unknown ids are left out). */
export async function readSendStatuses(
  shop: string,
  deliveryIds: readonly string[],
): Promise<SendStatus[]> {
  if (deliveryIds.length === 0) return [];
  return (await findDeliveryProgress(shop, deliveryIds)).map(sendStatusOf);
}
