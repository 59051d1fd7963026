import { ATTENTION_STATES, STATE_LABELS, type DeliveryState } from "./states";
import { type FlowPayload } from "./records-columns";
import { displayKwd, formatKwd, kwdToFils, type Fils } from "./kwd";
import { formatKuwaitDateTime } from "../courier/format";
import type { AskQuestion, AskReason } from "./shopper-ask";

/**
 * Shopify Flow triggers the app fires (extensions/flow-trigger-*), and what each one carries. A
 * trigger's payload keys are its extension's field keys; an order reference goes as `order_id`,
 * the order's numeric id (Flow then loads the order itself). Pure.
 */
export const FLOW_TRIGGERS = [
  "delivery-needs-attention",
  "delivery-delivered",
  "delivery-failed-or-returned",
  "cash-collected",
  "settlement-received",
  "shopper-asked-address",
  "shopper-asked-cash",
] as const;
export type FlowTrigger = (typeof FLOW_TRIGGERS)[number];
export type DeliveryFlowTrigger = Exclude<
  FlowTrigger,
  "settlement-received" | "shopper-asked-address" | "shopper-asked-cash"
>;

export interface DeliveryForFlow {
  id: string;
  orderId: string;
  orderName: string | null;
  courierOrderNumber: string | null;
  cashToCollect: string | null;
  stateReason: string | null;
  trackingUrl: string | null;
}

/** The triggers a delivery's move from `from` to `to` fires, in order; none for a stay. */
export function triggersForMove(
  from: DeliveryState,
  to: DeliveryState,
  delivery: Pick<DeliveryForFlow, "cashToCollect">,
): DeliveryFlowTrigger[] {
  if (from === to) return [];
  if (to === "delivered")
    return delivery.cashToCollect
      ? ["delivery-delivered", "cash-collected"]
      : ["delivery-delivered"];
  if (to === "failed" || to === "returned") {
    // A parcel that failed and then came back is one story for Flow: returned after failed fires
    // once more (its state changed), as the merchant may act on either.
    return ["delivery-failed-or-returned"];
  }
  if (ATTENTION_STATES.includes(to) && !ATTENTION_STATES.includes(from))
    return ["delivery-needs-attention"];
  return [];
}

/** Shopify's numeric id from a gid ("gid://shopify/Order/123" → 123). */
export function numericId(gid: string): number | null {
  const match = /\/(\d+)$/.exec(gid);
  return match ? Number(match[1]) : null;
}

export type { FlowPayload };

export function deliveryTriggerPayload(
  trigger: DeliveryFlowTrigger,
  delivery: DeliveryForFlow,
  state: DeliveryState,
): FlowPayload {
  const cash: Fils | null = delivery.cashToCollect ? kwdToFils(delivery.cashToCollect) : null;
  const base: FlowPayload = {
    order_id: numericId(delivery.orderId),
    "Delivery status": STATE_LABELS[state],
    "Courier order number": delivery.courierOrderNumber ?? "",
    "Tracking link": delivery.trackingUrl ?? "",
  };
  if (trigger === "cash-collected")
    return { ...base, "Amount collected in KWD": cash === null ? "0.000" : formatKwd(cash) };
  return {
    ...base,
    Reason: delivery.stateReason ?? "",
    "Cash to collect in KWD": cash === null ? "" : formatKwd(cash),
  };
}

export function settlementReceivedPayload(input: {
  settlementId: string;
  reference: string | null;
  receivedOn: string;
  lines: number;
  total: Fils;
  expected: Fils;
  differences: number;
}): FlowPayload {
  return {
    "Statement reference": input.reference ?? "",
    "Received on": input.receivedOn,
    "Orders on the statement": input.lines,
    "Amount paid in KWD": formatKwd(input.total),
    "Amount expected in KWD": formatKwd(input.expected),
    Differences: input.differences,
    Summary: `${input.lines} orders, ${displayKwd(input.total)} paid, ${input.differences} differences`,
  };
}

/**
 * The one trigger an ask fires when the shopper is asked (issue 27): the address one when the
 * address is in question (the page asks about cash on the same visit), else the cash one. One per
 * ask, so a merchant with both workflows sends the customer one message.
 */
export function shopperAskedTrigger(
  questions: readonly AskQuestion[],
): "shopper-asked-address" | "shopper-asked-cash" | null {
  if (questions.includes("address")) return "shopper-asked-address";
  if (questions.includes("cash")) return "shopper-asked-cash";
  return null;
}

/** Why the customer is asked, in the merchant's workflow (English, as the Flow fields are). */
const REASON_WORDS: Record<AskReason, string> = {
  area_not_recognised: "the area was not recognised",
  area_not_sure: "the area is not certain",
  area_not_at_courier: "the courier does not deliver to the area as written",
  block: "the block number is missing",
  street_or_house: "the street, house or building number is missing",
  block_and_street_or_house: "the block and the street, house or building number are missing",
  cash_confirmation: "cash on delivery is to be confirmed",
  courier_failed_attempt: "the courier could not deliver the parcel",
  courier_exception: "the courier reported a problem with the delivery",
  courier_address_problem: "the courier could not find the address",
};

export function shopperAskedPayload(ask: {
  orderId: string;
  link: string;
  language: "ar" | "en";
  reasons: readonly AskReason[];
  answerBy: Date;
}): FlowPayload {
  const why = ask.reasons.map((reason) => REASON_WORDS[reason]).join("; ");
  return {
    order_id: numericId(ask.orderId),
    "Customer page link": ask.link,
    "Customer language": ask.language,
    "Why asked": why.charAt(0).toUpperCase() + why.slice(1),
    // Kuwait's time, as the customer's page says it.
    "Answer by": formatKuwaitDateTime(ask.answerBy).slice(0, 16).replace("T", " "),
  };
}
