import { createHash } from "node:crypto";
import {
  STATUS_BY_CODE,
  VEHICLE_TYPES,
  type SandboxArea,
  type SandboxGovernance,
  type StatusCode,
} from "./master-data";
import { kuwaitLocal, type WireOrder } from "./validation";

/**
 * How a sandbox order's delivery goes, chosen by a marker in its notes so tests and the demo can
 * exercise the unhappy paths: `[sandbox:fail-once]`, `[sandbox:return]`, `[sandbox:address-problem]`.
 */
export type DeliveryScenario = "normal" | "fail_once" | "return" | "address_problem";

/** Why a delivery attempt fails: the exception the courier raises for it. */
export type FailureKind = "no_answer" | "address_problem";

/** What decides an order's next status. */
type Course = Pick<SandboxOrder, "status" | "scenario" | "failedAttempts" | "nextFailure">;

export interface StatusChange {
  status: StatusCode;
  at: number;
  note?: string;
}

export interface SandboxOrder {
  orderId: string;
  orderNumber: string;
  /** Which API key's customer owns it (a fingerprint, never the key). */
  customer: string;
  status: StatusCode;
  createdAt: number;
  updatedAt: number;
  history: StatusChange[];
  request: WireOrder;
  price: number;
  scenario: DeliveryScenario;
  failedAttempts: number;
  /**
   * Set by `advance` steering an order to a failure (the demo's "make it fail" and "courier
   * exception"): its next time out for delivery fails so, whatever its scenario says.
   */
  nextFailure?: FailureKind;
  cancelReason?: string;
  /**
   * Recorded late (the `commitLate` fault): until this time the order is in no read — history,
   * get, track, cancel, report — as if the courier's back end had not written it yet.
   */
  visibleAt?: number;
}

/** Whether an order has been recorded by `now` (see `SandboxOrder.visibleAt`). */
export function isRecorded(order: SandboxOrder, now: number): boolean {
  return order.visibleAt === undefined || order.visibleAt <= now;
}

export interface SandboxException {
  exceptionId: number;
  orderId: string;
  orderNumber: string;
  customer: string;
  type: "delivery_failed" | "address_problem";
  description: string;
  descriptionAr: string;
  createdAt: number;
}

/**
 * Statuses from which a cancel is accepted: before the driver has the parcel, and after a failed
 * attempt, when the parcel waits at the depot for the next one (cancelled then, it goes back to
 * the sender; the app sends the order again with the customer's answer, issue 27).
 */
export const CANCELLABLE: ReadonlySet<StatusCode> = new Set([
  "pending",
  "accepted",
  "assigned",
  "delivery_failed",
]);

/** The way forward, in order: a status before another on it is never reached after it. */
const ORDER_PATH: readonly StatusCode[] = [
  "pending",
  "accepted",
  "assigned",
  "picked_up",
  "in_transit",
  "out_for_delivery",
  "delivery_failed",
  "delivered",
  "returned",
];

const FORWARD: Partial<Record<StatusCode, StatusCode>> = {
  pending: "accepted",
  accepted: "assigned",
  assigned: "picked_up",
  picked_up: "in_transit",
  in_transit: "out_for_delivery",
};

function scenarioOf(notes: string): DeliveryScenario {
  if (notes.includes("[sandbox:return]")) return "return";
  if (notes.includes("[sandbox:address-problem]")) return "address_problem";
  if (notes.includes("[sandbox:fail-once]")) return "fail_once";
  return "normal";
}

/**
 * Kuwaiti dinar to fils (three decimals), half away from zero, on the decimal digits the number
 * prints as: 0.5005 is 0.50049999... in binary, and `Math.round(value * 1000)` made it 0.500.
 */
export function round3(value: number): number {
  const abs = Math.abs(value);
  // Past 2^53 fils there is nothing after the point to round.
  if (!Number.isFinite(value) || abs >= 2 ** 53 / 1000) return value;
  const [digits = "0", exponent = "0"] = String(abs).split("e");
  const fils = Math.round(Number(`${digits}e${Number(exponent) + 3}`));
  const rounded = Number(`${fils}e-3`);
  return rounded === 0 ? 0 : Math.sign(value) * rounded;
}

export interface PriceBreakdown {
  base: number;
  weightSurcharge: number;
  remoteSurcharge: number;
  vehicleFactor: number;
  price: number;
}

/**
 * The sandbox's tariff, in Kuwaiti dinar: 1.250 within a governance, 1.750 across; 0.250 per
 * started kilogram above 5 kg; 1.000 more when either end is a remote area; times the vehicle's
 * factor.
 */
export function priceOf(
  pickup: SandboxArea,
  delivery: SandboxArea,
  weightKg: number,
  vehicleTypeId?: number,
): PriceBreakdown {
  const base = pickup.governanceId === delivery.governanceId ? 1.25 : 1.75;
  const weightSurcharge = 0.25 * Math.ceil(Math.max(0, weightKg - 5));
  const remoteSurcharge = pickup.remote || delivery.remote ? 1 : 0;
  const vehicleFactor =
    VEHICLE_TYPES.find((v) => v.vehicleTypeId === vehicleTypeId)?.priceFactor ?? 1;
  return {
    base,
    weightSurcharge: round3(weightSurcharge),
    remoteSurcharge,
    vehicleFactor,
    price: round3((base + weightSurcharge + remoteSurcharge) * vehicleFactor),
  };
}

export function findArea(governances: SandboxGovernance[], governanceId: number, areaId: number) {
  return governances
    .find((g) => g.governanceId === governanceId)
    ?.areas.find((a) => a.areaId === areaId);
}

/** Orders, their progress and the exceptions they raise. In memory; gone when the sandbox stops. */
export class OrderBook {
  readonly orders = new Map<string, SandboxOrder>();
  readonly exceptions: SandboxException[] = [];
  private sequence = 0;

  constructor(
    private readonly governances: SandboxGovernance[],
    private readonly seed: string,
    private readonly onChange: (order: SandboxOrder, previous: StatusCode) => void,
  ) {}

  create(request: WireOrder, customer: string, now: number, visibleAt?: number): SandboxOrder {
    this.sequence += 1;
    // Deterministic per seed and sequence, and shaped like the GUIDs a .NET courier would use.
    const hex = createHash("sha256").update(`${this.seed}:${this.sequence}`).digest("hex");
    const orderId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    const pickup = findArea(
      this.governances,
      request.pickupAddress.governanceId,
      request.pickupAddress.areaId,
    );
    const delivery = findArea(
      this.governances,
      request.deliveryAddress.governanceId,
      request.deliveryAddress.areaId,
    );
    const price =
      pickup && delivery ? priceOf(pickup, delivery, request.packageDetails.weight).price : 0;
    const order: SandboxOrder = {
      orderId,
      orderNumber: `KW${String(100000 + this.sequence)}`,
      customer,
      status: "pending",
      createdAt: now,
      updatedAt: now,
      history: [{ status: "pending", at: now }],
      request,
      price,
      scenario: scenarioOf(`${request.notes} ${request.deliveryAddress.notes}`),
      failedAttempts: 0,
      ...(visibleAt !== undefined ? { visibleAt } : {}),
    };
    this.orders.set(orderId, order);
    return order;
  }

  /** The status an order would move to next, or null when it is finished. */
  nextStatus(order: Course): StatusCode | null {
    const forward = FORWARD[order.status];
    if (forward) return forward;
    if (order.status === "out_for_delivery") {
      const failsNow =
        order.nextFailure !== undefined ||
        (order.scenario === "fail_once" && order.failedAttempts === 0) ||
        (order.scenario === "address_problem" && order.failedAttempts === 0) ||
        (order.scenario === "return" && order.failedAttempts < 2);
      return failsNow ? "delivery_failed" : "delivered";
    }
    if (order.status === "delivery_failed") {
      return order.scenario === "return" && order.failedAttempts >= 2
        ? "returned"
        : "out_for_delivery";
    }
    return null;
  }

  /**
   * How `order` can reach `to` by the courier's own moves: the course to give it (the order's own
   * when that gets there), or why it cannot, in words. Nothing is changed.
   */
  courseTo(
    order: SandboxOrder,
    to: StatusCode,
    failure: FailureKind = "no_answer",
  ): { ok: true; course: Course } | { ok: false; why: string } {
    const name = (status: StatusCode) => STATUS_BY_CODE.get(status)?.nameEn.toLowerCase() ?? status;
    const is = `Order ${order.orderNumber} is ${name(order.status)}`;
    if (order.status === to) return { ok: true, course: { ...order } };
    if (to === "cancelled") {
      return CANCELLABLE.has(order.status)
        ? { ok: true, course: { ...order } }
        : {
            ok: false,
            why: `${is}: the courier cancels an order only before pickup or after a failed attempt.`,
          };
    }
    if (STATUS_BY_CODE.get(order.status)?.terminal) {
      return { ok: false, why: `${is}, a final status: it moves no further.` };
    }
    const courses: Course[] = [
      { ...order },
      ...(to === "delivery_failed" ? [{ ...order, nextFailure: failure }] : []),
      ...(to === "returned" ? [{ ...order, scenario: "return" as const }] : []),
      ...(to === "delivered"
        ? [{ ...order, scenario: "normal" as const, nextFailure: undefined }]
        : []),
    ];
    for (const course of courses) {
      const walk = { ...course };
      for (let steps = 0; steps < 20; steps += 1) {
        const next = this.nextStatus(walk);
        if (!next) break;
        if (next === "delivery_failed") {
          walk.failedAttempts += 1;
          walk.nextFailure = undefined;
        }
        walk.status = next;
        if (next === to) return { ok: true, course };
      }
    }
    const passed = ORDER_PATH.indexOf(order.status) > ORDER_PATH.indexOf(to);
    return {
      ok: false,
      why: passed
        ? `${is}: it has passed ${name(to)} and the courier does not move an order back.`
        : `${is}: the courier never moves it to ${name(to)}.`,
    };
  }

  /** Moves the order one step; returns the new status, or null when it had finished. */
  advance(order: SandboxOrder, now: number): StatusCode | null {
    const next = this.nextStatus(order);
    if (!next) return null;
    if (next === "delivery_failed") {
      order.failedAttempts += 1;
      const addressProblem =
        order.nextFailure === "address_problem" ||
        (order.nextFailure === undefined && order.scenario === "address_problem");
      delete order.nextFailure;
      this.exceptions.push({
        exceptionId: this.exceptions.length + 1,
        orderId: order.orderId,
        orderNumber: order.orderNumber,
        customer: order.customer,
        type: addressProblem ? "address_problem" : "delivery_failed",
        description: addressProblem
          ? "The driver could not find the address; call the customer to confirm block and house."
          : `Delivery attempt ${order.failedAttempts} failed: the customer did not answer.`,
        descriptionAr: addressProblem ? "تعذر العثور على العنوان" : "لم يرد العميل على الاتصال",
        createdAt: now,
      });
    }
    this.setStatus(order, next, now);
    return next;
  }

  setStatus(order: SandboxOrder, status: StatusCode, now: number, note?: string): void {
    const previous = order.status;
    order.status = status;
    order.updatedAt = now;
    order.history.push(note ? { status, at: now, note } : { status, at: now });
    this.onChange(order, previous);
  }

  /** A cancel as the courier would judge it. */
  cancel(
    order: SandboxOrder,
    now: number,
    reason?: string,
  ): { ok: true } | { ok: false; message: string } {
    if (order.status === "cancelled")
      return { ok: false, message: `Order ${order.orderNumber} is already cancelled.` };
    if (!CANCELLABLE.has(order.status)) {
      const name = STATUS_BY_CODE.get(order.status)?.nameEn.toLowerCase() ?? order.status;
      return {
        ok: false,
        message: `Order ${order.orderNumber} can no longer be cancelled: it is ${name}. Orders can be cancelled until the driver picks them up.`,
      };
    }
    if (reason) order.cancelReason = reason;
    this.setStatus(order, "cancelled", now, reason);
    return { ok: true };
  }

  /** An order as `GET /api/orders/{orderId}` shows it. */
  view(order: SandboxOrder): Record<string, unknown> {
    return {
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      status: order.status,
      statusName: STATUS_BY_CODE.get(order.status)?.nameAr,
      createdAt: kuwaitLocal(order.createdAt),
      updatedAt: kuwaitLocal(order.updatedAt),
      pickupDate: order.request.pickupDate,
      paymentMethod: order.request.paymentMethod,
      pickupAddress: order.request.pickupAddress,
      deliveryAddress: order.request.deliveryAddress,
      packageDetails: order.request.packageDetails,
      notes: order.request.notes,
      deliveryFee: order.price,
      currency: "KWD",
      ...(order.cancelReason ? { cancelReason: order.cancelReason } : {}),
    };
  }

  tracking(order: SandboxOrder): Record<string, unknown> {
    return {
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      status: order.status,
      statusName: STATUS_BY_CODE.get(order.status)?.nameAr,
      history: order.history.map((h) => ({
        status: h.status,
        statusName: STATUS_BY_CODE.get(h.status)?.nameAr,
        at: kuwaitLocal(h.at),
        ...(h.note ? { note: h.note } : {}),
      })),
    };
  }
}
