import type {
  DeliveryView,
  OrderDeliveriesResponse,
  QuoteResponse,
} from "../../../app/api-contract";

/** Answers of the app's API (docs/api-contract.md) as the extensions' render tests give them. */

export const DELIVERY_ID = "cldelivery0000000000001";
export const TRACKING_URL = "https://courier-app.example.com/tracking/0123456789abcdef";

/** A delivery the courier has created: number, tracking link, cash to collect. */
export function deliveryView(overrides: Partial<DeliveryView> = {}): DeliveryView {
  return {
    id: DELIVERY_ID,
    state: "created",
    stateLabel: "Created at the courier",
    tone: "info",
    problem: null,
    courierOrderNumber: "KW0088123",
    trackingUrl: TRACKING_URL,
    cashToCollect: "12.500 KWD",
    cancelRequested: false,
    actions: { cancel: true, fixAddress: false, printLabel: true },
    fixAddressPath: null,
    ...overrides,
  };
}

/** A delivery that waits for the merchant to fix its address. */
export function waitingForAddress(overrides: Partial<DeliveryView> = {}): DeliveryView {
  return deliveryView({
    id: "clwaiting00000000000001",
    state: "needs_address",
    stateLabel: "Address needs review",
    tone: "critical",
    problem: "The area could not be recognised: the city says Hawally, and no block is given.",
    courierOrderNumber: null,
    trackingUrl: null,
    cashToCollect: null,
    actions: { cancel: true, fixAddress: true, printLabel: false },
    fixAddressPath: "/app/address-review",
    ...overrides,
  });
}

export function orderAnswer(
  deliveries: DeliveryView[],
  send: OrderDeliveriesResponse["send"] = {
    possible: false,
    reason: "Sent to the courier already.",
  },
): OrderDeliveriesResponse {
  return { orderId: "gid://shopify/Order/7001", orderName: "#1042", deliveries, send };
}

export const QUOTE: QuoteResponse = {
  ok: true,
  price: 2.5,
  currency: "KWD",
  basis: {
    weightKg: 1.25,
    weightKnown: true,
    value: 12.5,
    cashOnDelivery: true,
    from: "Salmiya store (Salmiya)",
    to: "Hawalli (Hawalli)",
  },
};
