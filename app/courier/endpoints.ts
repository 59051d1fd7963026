/** The courier's operations, by the name the client gives them. */
export type CourierEndpoint =
  | "createOrder"
  | "createBulk"
  | "calculatePrice"
  | "history"
  | "getOrder"
  | "track"
  | "cancel"
  | "governances"
  | "areas"
  | "vehicleTypes"
  | "orderStatuses"
  | "exceptions"
  | "corporateOrdersReport";

export interface EndpointInfo {
  method: "GET" | "POST";
  /**
   * True when a repeated call could act twice (a second delivery, a second cancel). Such calls are
   * never retried by the client, and a reply lost after sending leaves their outcome unknown.
   */
  sideEffects: boolean;
  /** What the merchant is told when a call with side effects ended without a clear answer. */
  unknownOutcome?: string;
}

export const ENDPOINTS: Record<CourierEndpoint, EndpointInfo> = {
  createOrder: {
    method: "POST",
    sideEffects: true,
    unknownOutcome:
      "it is not known whether the courier created the order. Check the courier's order history before sending it again, or the parcel may be delivered twice.",
  },
  createBulk: {
    method: "POST",
    sideEffects: true,
    unknownOutcome:
      "it is not known which of the orders the courier created. Check the courier's order history before sending any of them again, or parcels may be delivered twice.",
  },
  cancel: {
    method: "POST",
    sideEffects: true,
    unknownOutcome:
      "it is not known whether the courier cancelled the order. Check the order's status before trying again.",
  },
  // A POST, but it only computes a price: safe to repeat.
  calculatePrice: { method: "POST", sideEffects: false },
  history: { method: "GET", sideEffects: false },
  getOrder: { method: "GET", sideEffects: false },
  track: { method: "GET", sideEffects: false },
  governances: { method: "GET", sideEffects: false },
  areas: { method: "GET", sideEffects: false },
  vehicleTypes: { method: "GET", sideEffects: false },
  orderStatuses: { method: "GET", sideEffects: false },
  exceptions: { method: "GET", sideEffects: false },
  corporateOrdersReport: { method: "GET", sideEffects: false },
};

/** Languages of the master-data path suffix. Only `ar` is in the courier's document. */
export type CourierLanguage = "ar" | "en";
