import { z } from "zod";

/**
 * The closed set of delivery states and the only moves between them. The automatic flow only
 * moves forward; the few moves back to `ready` are the merchant's explicit "try again".
 *
 *   pending ─► needs_address ─► ready ─► creating ─► created ─► picked_up ─► in_transit ─►
 *      │            ▲             ▲         │   ▲                    out_for_delivery ─► delivered
 *      ▼            │             │         ▼   │                              ├─► failed ─► returned
 *   skipped    (merchant fixes)   │      unknown ─► needs_review               └─► cancelled
 *                                                              (a failed attempt may go out again)
 *                                 └─ rejected / needs_review (merchant retries)
 *
 *   pending, ready, created ─► needs_attention: something only the merchant can change (an order
 *   not in KWD, Shopify failing for too long); "Try again" puts it back where it was.
 *   needs_address, rejected ─► pending: the shopper answered on their page (issue 26).
 */
export const DELIVERY_STATES = [
  "pending",
  "skipped",
  "needs_address",
  "ready",
  "creating",
  "unknown",
  "needs_review",
  "needs_attention",
  "rejected",
  "created",
  "picked_up",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "failed",
  "returned",
  "cancelled",
] as const;

export type DeliveryState = (typeof DELIVERY_STATES)[number];
export const deliveryState = z.enum(DELIVERY_STATES);

const MOVES: Record<DeliveryState, readonly DeliveryState[]> = {
  pending: ["skipped", "needs_address", "ready", "needs_attention", "cancelled"],
  skipped: [],
  // pending: the shopper answered on their page; the worker builds it again with the answer.
  needs_address: ["ready", "pending", "needs_attention", "cancelled"],
  ready: ["creating", "needs_address", "needs_attention", "cancelled"],
  // cancelled: a cancel asked for while it was being sent, once history shows it was not created;
  // needs_review: that cancel given up before history could tell (never sent again on its own).
  creating: ["created", "rejected", "unknown", "ready", "needs_review", "cancelled"],
  unknown: ["created", "ready", "needs_review", "cancelled"],
  needs_review: ["created", "ready", "needs_address", "cancelled"],
  // The merchant's "Try again": back to where it stopped (before or after the courier created it).
  needs_attention: ["pending", "created", "cancelled"],
  rejected: ["ready", "needs_address", "pending", "cancelled"],
  created: [
    "picked_up",
    "in_transit",
    "out_for_delivery",
    "delivered",
    "failed",
    "returned",
    "cancelled",
    "needs_attention",
  ],
  picked_up: ["in_transit", "out_for_delivery", "delivered", "failed", "returned", "cancelled"],
  in_transit: ["out_for_delivery", "delivered", "failed", "returned", "cancelled"],
  out_for_delivery: ["delivered", "failed", "returned", "cancelled"],
  delivered: [],
  // A failed attempt is not the end: the courier may go out again, or return the parcel.
  failed: ["in_transit", "out_for_delivery", "delivered", "returned", "cancelled"],
  returned: [],
  cancelled: [],
};

/**
 * A state read from the database, typed once where rows enter the app (the models): a value
 * outside the closed set is refused by name rather than carried on as a string.
 */
export function parseState(value: string): DeliveryState {
  const parsed = deliveryState.safeParse(value);
  if (!parsed.success) throw new Error(`Unknown delivery state "${value}" in the database.`);
  return parsed.data;
}

export function canMove(from: DeliveryState, to: DeliveryState): boolean {
  return MOVES[from].includes(to);
}

export const FINAL_STATES: readonly DeliveryState[] = [
  "skipped",
  "delivered",
  "returned",
  "cancelled",
];

/** States in which the merchant has something to do; listed first on the deliveries page. */
export const ATTENTION_STATES: readonly DeliveryState[] = [
  "needs_address",
  "needs_review",
  "needs_attention",
  "rejected",
  "failed",
  "returned",
];

/** States a worker picks up when they are due. */
export const WORK_STATES: readonly DeliveryState[] = [
  "pending",
  "ready",
  "creating",
  "unknown",
  "created",
];

/** States in which a delivery no longer collects anything for its order. */
export const NOT_COLLECTING_STATES: readonly DeliveryState[] = ["skipped", "cancelled", "returned"];

export function isFinal(state: DeliveryState): boolean {
  return FINAL_STATES.includes(state);
}

export const STATE_LABELS: Record<DeliveryState, string> = {
  pending: "Received",
  skipped: "Not for the courier",
  needs_address: "Address needs review",
  ready: "Ready to send",
  creating: "Sending",
  unknown: "Checking with the courier",
  needs_review: "Needs your decision",
  needs_attention: "Needs your attention",
  rejected: "Rejected by the courier",
  created: "Created at the courier",
  picked_up: "Picked up",
  in_transit: "In transit",
  out_for_delivery: "Out for delivery",
  delivered: "Delivered",
  failed: "Delivery failed",
  returned: "Returned",
  cancelled: "Cancelled",
};
