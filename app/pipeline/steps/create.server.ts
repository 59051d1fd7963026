import {
  CourierAuthError,
  CourierCircuitOpenError,
  CourierSendExpiredError,
  CourierUnavailableError,
  CourierValidationError,
  isCourierError,
  type CreateOrderBody,
} from "../../courier";
import { courierUnavailableReason } from "../../models/courier-account.server";
import {
  addDeliveryEvent,
  renewSendingLease,
  type DeliveryRow,
} from "../../models/deliveries.server";
import {
  StaleDeliveryError,
  startCreating,
  type LateCourierOrder,
} from "../../models/delivery-state";
import { getShopSettings } from "../../models/shop.server";
import { circuitClosedAt } from "../../services/courier-breaker.server";
import { courierFailure, courierReply, type CourierAnswer } from "../../domain/courier-answers";
import { sendWindowMs } from "../../domain/courier-timing";
import { backoffMs, NO_COURIER_WAIT_MS } from "../../domain/lease-policy";
import { refreshPickupDate } from "../../domain/request";
import { bodyToSend, requestColumn } from "../../domain/stored-request";
import { settleLateOrder } from "../late-orders.server";
import {
  accountOf,
  courierOf,
  leaseMsOf,
  move,
  needsAttention,
  now,
  reload,
  stillWaiting,
  unknownOutcome,
  wait,
  waitForCircuit,
  type Actor,
  type Step,
  type WorkerDependencies,
} from "./shared.server";

/**
 * Sends a create for `fence.rows`, which this worker moved to `creating` (the first fence): the
 * client refuses to send once `fence.sendBy` has passed (ADR 0017). A worker held up past it checks
 * its hold on each row again (lease owner, generation, still `creating`) under a fresh lease and
 * sends only for the rows it still holds; the others were taken over, and are not sent by it.
 * Throws StaleDeliveryError when it holds none any more.
 */
export async function sendFenced<T>(
  fence: { sendBy: number; rows: DeliveryRow[] },
  deps: WorkerDependencies,
  send: (rows: DeliveryRow[], sendBy: number) => Promise<T>,
): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await send(fence.rows, fence.sendBy);
    } catch (error) {
      if (!(error instanceof CourierSendExpiredError) || tries >= 3) throw error;
    }
    fence.sendBy = performance.now() + sendWindowMs(leaseMsOf(deps));
    const expires = new Date(now(deps).getTime() + leaseMsOf(deps));
    const kept: DeliveryRow[] = [];
    for (const row of fence.rows) {
      if (await renewSendingLease(row.shop, row.id, deps.owner, row.leaseGeneration, expires))
        kept.push(row);
      else
        await addDeliveryEvent(
          row.shop,
          row.id,
          "not_sent",
          "A sending attempt that had stalled stopped before reaching the courier: the delivery had already been taken over.",
          now(deps),
        );
    }
    if (kept.length === 0) throw new StaleDeliveryError(fence.rows[0]!.id, "creating");
    fence.rows = kept;
  }
}

/**
 * The courier created the order: recorded on the row, unless this worker lost the row while the
 * create was out (held up past its lease): then the first order recorded is the delivery's, and
 * this one, if it is not, is cancelled at the courier (settleLateOrder).
 */
export async function recordCreated(
  sending: DeliveryRow,
  deps: WorkerDependencies,
  order: LateCourierOrder,
  message: string,
  data: CourierAnswer,
): Promise<DeliveryRow | null> {
  try {
    return await move(
      sending,
      deps,
      "created",
      { kind: "created", message, data },
      {
        courierOrderId: order.orderId,
        courierOrderNumber: order.orderNumber,
        courierStatus: order.status,
        unknownSince: null,
        lastError: null,
        nextAttemptAt: now(deps),
      },
    );
  } catch (error) {
    if (!(error instanceof StaleDeliveryError)) throw error;
    const client = await deps.courierFor(sending.shop, sending.environment);
    await settleLateOrder(sending, order, client, now(deps));
    return null;
  }
}

/**
 * ready → creating, durably and with the lease renewed past the call (startCreating): the intent
 * of a create, written before the courier is called. Returns the rows moved, as they are now.
 */
export async function markSending(
  items: { delivery: DeliveryRow; body: CreateOrderBody; message: string }[],
  deps: WorkerDependencies,
): Promise<DeliveryRow[]> {
  const at = now(deps);
  const moved = await startCreating(
    items.map(({ delivery, body, message }) => ({
      shop: delivery.shop,
      id: delivery.id,
      leaseGeneration: delivery.leaseGeneration,
      request: requestColumn.encode(body),
      message,
    })),
    deps.owner,
    at,
    new Date(at.getTime() + leaseMsOf(deps)),
  );
  const sent = items.filter((i) => moved.has(i.delivery.id));
  const rows = await Promise.all(sent.map((i) => reload(i.delivery)));
  // Moved under the generation this worker took them with, which they keep while it holds them.
  return rows.filter((row, i) => row.leaseGeneration === sent[i]!.delivery.leaseGeneration);
}

/**
 * The stored request as it goes out now: a pickup time that has passed (the delivery waited for
 * an address, a courier outage or "Send again") is moved to the preparation delay from now.
 */
export function requestToSend(
  delivery: DeliveryRow,
  stored: CreateOrderBody,
  settings: Awaited<ReturnType<typeof getShopSettings>>,
  deps: Actor,
): { body: CreateOrderBody; note: string } {
  const body = refreshPickupDate(
    stored,
    delivery.createdAt,
    now(deps),
    settings?.preparationMinutes ?? 0,
  );
  return {
    body,
    note:
      body === stored
        ? ""
        : ` Pickup time moved to ${body.pickupDate.replace("T", " ")} (Kuwait time): the one built earlier is no longer ahead.`,
  };
}

/**
 * ready: the intent is written (state creating, attempt counted) before the courier is called, and
 * the create leaves only while this worker still holds the row (the fence, ADR 0017).
 */
export const create: Step = async (delivery, deps) => {
  const client = await courierOf(delivery, deps);
  if (!client) {
    return wait(
      delivery,
      deps,
      NO_COURIER_WAIT_MS,
      await courierUnavailableReason(delivery.shop),
      "no_courier",
    );
  }
  if (!delivery.request) {
    // Not expected of a ready delivery: said as it is, not blamed on the key.
    return wait(delivery, deps, NO_COURIER_WAIT_MS, "The request to send was missing.");
  }
  // Stored but unreadable (or erased): only building it again helps, which the merchant asks.
  const stored = bodyToSend(delivery.request);
  if (!stored.ok) return needsAttention(delivery, deps, stored.reason);
  const closedUntil = await circuitClosedAt(accountOf(delivery), "create", now(deps));
  if (closedUntil) return waitForCircuit(delivery, deps, closedUntil);
  const outgoing = requestToSend(delivery, stored.body, await getShopSettings(delivery.shop), deps);
  // The send window starts before the move to creating is written: time lost writing it counts.
  const sendBy = performance.now() + sendWindowMs(leaseMsOf(deps));
  const [sending] = await markSending(
    [
      {
        delivery,
        body: outgoing.body,
        message: `Sending to the courier (attempt ${delivery.attempts + 1}).${outgoing.note}`,
      },
    ],
    deps,
  );
  if (!sending) {
    // Not moved: a cancellation was asked for meanwhile (carried out next), or the row is gone.
    const now = await reload(delivery);
    if (now.cancelRequestedAt && now.leaseOwner === deps.owner) return now;
    throw new StaleDeliveryError(delivery.id, "ready");
  }
  const body = outgoing.body;
  const fence = { sendBy, rows: [sending] };
  try {
    const result = await sendFenced(fence, deps, (_rows, by) =>
      client.createOrder(body, { sendBy: by }),
    );
    return recordCreated(
      sending,
      deps,
      { orderId: result.orderId, orderNumber: result.orderNumber, status: result.status },
      `Created at the courier as order ${result.orderNumber}.`,
      courierReply({
        orderId: result.orderId,
        orderNumber: result.orderNumber,
        status: result.status,
        createdAt: result.createdAt,
      }),
    );
  } catch (error) {
    if (!isCourierError(error)) throw error;
    if (error.outcome === "unknown") {
      return unknownOutcome(sending, deps, error.message, courierFailure(error));
    }
    if (error instanceof CourierValidationError) {
      return move(
        sending,
        deps,
        "rejected",
        { kind: "rejected", message: error.message, data: courierFailure(error) },
        {
          stateReason: error.message,
          lastError: error.message,
          unknownSince: null,
          nextAttemptAt: null,
          leaseOwner: null,
          leaseExpiresAt: null,
        },
      );
    }
    // Not sent, refused for the key, or rate limited: nothing exists at the courier; try later.
    const back = await move(
      sending,
      deps,
      "ready",
      { kind: "retry", message: error.message, data: courierFailure(error) },
      {
        lastError: error.message,
        unknownSince: null,
        ...stillWaiting(sending),
      },
    );
    if (error instanceof CourierCircuitOpenError) return waitForCircuit(back, deps, error.retryAt);
    const retryIn =
      error instanceof CourierAuthError
        ? 15 * 60_000
        : error instanceof CourierUnavailableError && error.retryAfterMs
          ? error.retryAfterMs
          : backoffMs(sending.attempts);
    return wait(
      back,
      deps,
      retryIn,
      undefined,
      error instanceof CourierAuthError ? "no_courier" : "courier_down",
    );
  }
};
