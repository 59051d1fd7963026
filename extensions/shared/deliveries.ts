import type { DeliveryView, OrderDeliveriesResponse, QuoteResponse } from "../../app/api-contract";

/** What the merchant reads and can press for one delivery, decided without any UI. */
export type Translate = (key: string, replacements?: Record<string, string | number>) => string;

export type BadgeTone = "success" | "info" | "warning" | "critical" | "neutral";

export interface DeliveryRow {
  id: string;
  state: string;
  tone: BadgeTone;
  courierOrderNumber: string | null;
  trackingUrl: string | null;
  cash: string;
  problem: string | null;
  buttons: ("fix_address" | "cancel" | "print_label")[];
}

export function deliveryRow(delivery: DeliveryView, t: Translate): DeliveryRow {
  const buttons: DeliveryRow["buttons"] = [];
  if (delivery.actions.fixAddress) buttons.push("fix_address");
  if (delivery.actions.printLabel) buttons.push("print_label");
  if (delivery.actions.cancel) buttons.push("cancel");
  return {
    id: delivery.id,
    state: t(`state.${delivery.state}`),
    // The app decides the tone, so the order page and the app's pages colour a state alike.
    tone: delivery.tone,
    courierOrderNumber: delivery.courierOrderNumber,
    trackingUrl: delivery.trackingUrl,
    cash: delivery.cashToCollect
      ? t("cash.collect", { amount: delivery.cashToCollect })
      : t("cash.paid"),
    problem: delivery.cancelRequested ? t("cancel.requested") : delivery.problem,
    buttons,
  };
}

/** The order page's action: fix the address, send with a quote, or nothing to do. */
export type SendActionModel =
  | { kind: "fix_address"; deliveryId: string; problem: string | null; path: string }
  | { kind: "send"; quote: QuoteResponse }
  | { kind: "nothing"; reason: string };

export function sendActionModel(
  order: OrderDeliveriesResponse,
  quote: QuoteResponse | null,
): SendActionModel {
  const waiting = order.deliveries.find((d) => d.actions.fixAddress);
  if (waiting) {
    return {
      kind: "fix_address",
      deliveryId: waiting.id,
      problem: waiting.problem,
      path: waiting.fixAddressPath ?? "/app/address-review",
    };
  }
  if (order.send.possible && quote) return { kind: "send", quote };
  return { kind: "nothing", reason: order.send.reason ?? "" };
}

/** Whether "Send to courier" on the order page can do anything (its should-render target). */
export function sendActionUseful(order: OrderDeliveriesResponse): boolean {
  return order.send.possible || order.deliveries.some((d) => d.actions.fixAddress);
}

/** Whether the order page's print action has a label to print. */
export function hasLabel(order: OrderDeliveriesResponse): boolean {
  return order.deliveries.some((d) => d.actions.printLabel);
}

/** A quote in the merchant's words: "2.500 KWD from Salmiya store (Salmiya) to Hawalli". */
export function quoteLines(quote: QuoteResponse, t: Translate): string[] {
  if (!quote.ok) return [quote.error];
  const price =
    quote.price === null
      ? t("quote.unknown")
      : t("quote.price", { price: quote.price.toFixed(3), currency: quote.currency ?? "KWD" });
  return [
    price,
    t("quote.route", { from: quote.basis.from, to: quote.basis.to }),
    t(quote.basis.weightKnown ? "quote.weight" : "quote.weightDefault", {
      weight: quote.basis.weightKg,
    }),
    t(quote.basis.cashOnDelivery ? "quote.cod" : "quote.prepaid", {
      value: quote.basis.value.toFixed(3),
    }),
  ];
}
