import type { DeliveryView } from "../api-contract";
import { ATTENTION_STATES, isFinal, STATE_LABELS, type DeliveryState } from "../domain/states";
import { stateTone } from "../components/delivery-state";
import { LABEL_STATES } from "../domain/label-availability";
import { filsFromKwdText, formatFils } from "../labels/money";
import type { DeliveryRow } from "../models/deliveries.server";

export type ViewedDelivery = Pick<
  DeliveryRow,
  | "id"
  | "state"
  | "stateReason"
  | "courierOrderId"
  | "courierOrderNumber"
  | "trackingUrl"
  | "cashToCollect"
  | "cancelRequestedAt"
>;

/** The app's tone of a state in the admin extensions' five badge tones. */
function badgeTone(state: DeliveryState): DeliveryView["tone"] {
  const tone = stateTone(state);
  return tone === undefined ? "neutral" : tone === "attention" ? "warning" : tone;
}

/** A delivery as the order page's block shows it, with the buttons that can do something. */
export function deliveryView(row: ViewedDelivery): DeliveryView {
  const state = row.state;
  const fils = row.cashToCollect ? filsFromKwdText(row.cashToCollect) : null;
  const courierOrderNumber = row.courierOrderNumber ?? row.courierOrderId;
  return {
    id: row.id,
    state,
    stateLabel: STATE_LABELS[state] ?? state,
    tone: badgeTone(state),
    problem: ATTENTION_STATES.includes(state) ? (row.stateReason ?? null) : null,
    courierOrderNumber,
    trackingUrl: row.trackingUrl,
    cashToCollect: fils !== null && fils > 0 ? formatFils(fils) : null,
    cancelRequested: row.cancelRequestedAt !== null,
    actions: {
      cancel: !isFinal(state) && row.cancelRequestedAt === null,
      fixAddress: state === "needs_address",
      printLabel: courierOrderNumber !== null && LABEL_STATES.includes(state),
    },
    fixAddressPath: state === "needs_address" ? "/app/address-review" : null,
  };
}
