import type { DeliveryState } from "./states";

/** States whose parcel is at the courier and not yet delivered: its label is worth printing. */
export const LABEL_STATES: readonly DeliveryState[] = [
  "created",
  "picked_up",
  "in_transit",
  "out_for_delivery",
  "failed",
];

/**
 * Why a delivery has no label to print, in the merchant's terms: done with (`delivered`,
 * `returned`, `cancelled` — before or after the courier created it), never going to the courier
 * (`skipped`), held for something the merchant or the customer must do (`needs_address`,
 * `refused`, `needs_attention`), or on its way to the courier (`not_yet`).
 */
export type NoLabelReason =
  | "delivered"
  | "returned"
  | "cancelled"
  | "skipped"
  | "needs_address"
  | "refused"
  | "needs_attention"
  | "not_yet";

/** The order the page lists the reasons in: what the merchant can act on first. */
export const NO_LABEL_REASONS: readonly NoLabelReason[] = [
  "needs_address",
  "refused",
  "needs_attention",
  "not_yet",
  "skipped",
  "cancelled",
  "returned",
  "delivered",
];

/** Null when the delivery has a label to print; else why not. */
export function whyNoLabel(delivery: {
  state: DeliveryState;
  courierOrderNumber: string | null;
}): NoLabelReason | null {
  const { state } = delivery;
  if (delivery.courierOrderNumber !== null && LABEL_STATES.includes(state)) return null;
  switch (state) {
    case "delivered":
    case "returned":
    case "cancelled":
    case "skipped":
    case "needs_address":
    case "needs_attention":
      return state;
    case "rejected":
      return "refused";
    // The courier may or may not have it: the delivery's page says what to do.
    case "unknown":
    case "needs_review":
      return "needs_attention";
    default:
      // pending, ready, creating; or at the courier with no number yet.
      return "not_yet";
  }
}

/** The finished reasons: nothing left to print, nothing to do. */
export const FINISHED_REASONS: readonly NoLabelReason[] = ["delivered", "returned", "cancelled"];
