import {
  CourierAuthError,
  CourierCircuitOpenError,
  CourierUnavailableError,
  CourierValidationError,
  isCourierError,
  type CreateOrderBody,
} from "../../courier";
import { courierUnavailableReason } from "../../models/courier-account.server";
import type { DeliveryRow } from "../../models/deliveries.server";
import { StaleDeliveryError } from "../../models/delivery-state";
import { getShopSettings } from "../../models/shop.server";
import { circuitClosedAt } from "../../services/courier-breaker.server";
import { courierFailure, courierReply } from "../../domain/courier-answers";
import { sendWindowMs } from "../../domain/courier-timing";
import { backoffMs, NO_COURIER_WAIT_MS } from "../../domain/lease-policy";
import {
  accountOf,
  courierOf,
  leaseMsOf,
  lostIsNull,
  move,
  now,
  reload,
  stillWaiting,
  unknownOutcome,
  wait,
  waitForCircuit,
  type WorkerDependencies,
} from "./shared.server";
import { markSending, recordCreated, requestToSend, sendFenced } from "./create.server";

/** A ready delivery and the body its stored request reads as. */
export interface ReadyToSend {
  delivery: DeliveryRow;
  body: CreateOrderBody;
}

/**
 * Creates a batch of ready deliveries with one create-bulk call. Each item's fate is its own:
 * created, rejected (with the courier's message) or unknown (reconciled through history like a
 * single create). A batch the courier refuses as a whole is sent one by one, so each delivery gets
 * its own answer.
 */
export async function createBulk(
  ready: ReadyToSend[],
  deps: WorkerDependencies,
  processDelivery: (delivery: DeliveryRow, deps: WorkerDependencies) => Promise<void>,
): Promise<void> {
  const batch = ready.map((r) => r.delivery);
  const first = batch[0]!;
  const client = await courierOf(first, deps);
  if (!client) {
    const reason = await courierUnavailableReason(first.shop);
    await Promise.all(batch.map((d) => wait(d, deps, NO_COURIER_WAIT_MS, reason, "no_courier")));
    return;
  }
  const closedUntil = await circuitClosedAt(accountOf(first), "create", now(deps));
  if (closedUntil) {
    await Promise.all(batch.map((d) => waitForCircuit(d, deps, closedUntil)));
    return;
  }
  const settings = await getShopSettings(first.shop);
  const fence = {
    sendBy: performance.now() + sendWindowMs(leaseMsOf(deps)),
    rows: [] as DeliveryRow[],
  };
  const outgoing = ready.map(({ delivery, body }) => ({
    delivery,
    ...requestToSend(delivery, body, settings, deps),
  }));
  fence.rows = await markSending(
    outgoing.map(({ delivery, body, note }) => ({
      delivery,
      body,
      message: `Sending to the courier in a batch of ${batch.length} (attempt ${delivery.attempts + 1}).${note}`,
    })),
    deps,
  );
  // Those not moved had a cancellation asked for meanwhile: it is carried out instead.
  const held = batch.filter((d) => !fence.rows.some((s) => s.id === d.id));
  await Promise.all(
    held.map(async (d) => {
      const row = await reload(d);
      if (row.leaseOwner === deps.owner && row.leaseGeneration === d.leaseGeneration)
        await processDelivery(row, deps);
    }),
  );
  if (fence.rows.length === 0) return;
  const bodies = new Map(outgoing.map((o) => [o.delivery.id, o.body]));
  let after: (DeliveryRow | null)[];
  try {
    const result = await sendFenced(fence, deps, (rows, sendBy) =>
      client.createBulk(
        rows.map((row) => bodies.get(row.id)!),
        { sendBy },
      ),
    );
    after = await Promise.all(
      fence.rows.map(async (delivery, index) => {
        const item = result.items[index];
        if (item?.outcome === "created") {
          return recordCreated(
            delivery,
            deps,
            {
              orderId: item.orderId,
              orderNumber: item.orderNumber ?? item.orderId,
              status: item.status ?? null,
            },
            `Created at the courier as order ${item.orderNumber ?? item.orderId} (batch).`,
            courierReply({
              orderId: item.orderId,
              orderNumber: item.orderNumber,
              status: item.status,
              createdAt: item.createdAt,
            }),
          );
        }
        if (item?.outcome === "rejected") {
          return lostIsNull(
            move(
              delivery,
              deps,
              "rejected",
              {
                kind: "rejected",
                message: item.message,
                data: courierReply({ message: item.message }),
              },
              {
                stateReason: item.message,
                lastError: item.message,
                unknownSince: null,
                nextAttemptAt: null,
                leaseOwner: null,
                leaseExpiresAt: null,
              },
            ),
          );
        }
        const message = item?.message ?? "The courier did not say what became of this order.";
        return lostIsNull(unknownOutcome(delivery, deps, message, courierReply({ message })));
      }),
    );
  } catch (error) {
    // Every row was lost before anything was sent: their new holders carry on.
    if (error instanceof StaleDeliveryError) return;
    if (!isCourierError(error)) throw error;
    const sending = fence.rows;
    if (error.outcome === "unknown") {
      await Promise.all(
        sending.map((d) =>
          lostIsNull(unknownOutcome(d, deps, error.message, courierFailure(error))),
        ),
      );
      return;
    }
    const backToReady = await Promise.all(
      sending.map((d) =>
        move(
          d,
          deps,
          "ready",
          { kind: "retry", message: error.message, data: courierFailure(error) },
          { lastError: error.message, unknownSince: null, ...stillWaiting(d) },
        ),
      ),
    );
    if (error instanceof CourierValidationError) {
      // Refused as a whole: one by one, so the bad order is named and the others go out.
      for (const delivery of backToReady) await processDelivery(delivery, deps);
      return;
    }
    if (error instanceof CourierCircuitOpenError) {
      await Promise.all(backToReady.map((d) => waitForCircuit(d, deps, error.retryAt)));
      return;
    }
    const retryIn =
      error instanceof CourierUnavailableError && error.retryAfterMs
        ? error.retryAfterMs
        : backoffMs(first.attempts + 1);
    const kind = error instanceof CourierAuthError ? "no_courier" : "courier_down";
    await Promise.all(backToReady.map((d) => wait(d, deps, retryIn, undefined, kind)));
    return;
  }
  // Created ones go on to put tracking on Shopify; the rest have released their lease.
  await Promise.all(
    after.filter((d): d is DeliveryRow => d !== null).map((d) => processDelivery(d, deps)),
  );
}
