import { ATTENTION_STATES, type DeliveryState } from "../domain/states";

export type StateTone = "critical" | "warning" | "success" | "info" | "attention" | undefined;

/**
 * The badge tone of a state, the same on the list, the delivery's page and the dashboard: red
 * where the merchant must act, green once delivered, blue while under way, grey when it ended
 * without a delivery.
 */
export function stateTone(state: DeliveryState): StateTone {
  if (state === "returned") return "warning";
  if (ATTENTION_STATES.includes(state)) return "critical";
  if (state === "delivered") return "success";
  if (state === "skipped" || state === "cancelled") return undefined;
  return "info";
}
