import { CourierCircuitOpenError, isCourierError } from "../../courier";
import { isNotAnswering } from "../../courier/circuit";
import { courierUnavailableReason } from "../../models/courier-account.server";
import { releaseLease } from "../../models/deliveries.server";
import { transition } from "../../models/delivery-state";
import { courierReply } from "../../domain/courier-answers";
import { lateCommitWaitMs, notCreatedBelievedAt } from "../../domain/courier-timing";
import {
  inWords,
  MAX_STEP_FAILURES,
  NO_COURIER_WAIT_MS,
  stepBackoffMs,
} from "../../domain/lease-policy";
import { searchHistory, type HistoryAnswer } from "../history.server";
import {
  courierNotAnswering,
  courierOf,
  courierTimeoutOf,
  move,
  now,
  renew,
  unknownOutcome,
  wait,
  type Step,
} from "./shared.server";

/** creating with a lapsed lease: the process stopped mid-call; the outcome is unknown. */
export const interrupted: Step = async (delivery, deps) =>
  unknownOutcome(delivery, deps, "The app stopped while the courier was being called.");

/**
 * unknown: the courier's history decides before anything is sent again (ADR 0018). Found, it is
 * created. Not found, it is believed only at a second look, late enough for a courier that records
 * orders after answering; then it is sent again, after a wait that grows with each send. A courier
 * that does not answer is waited for, however long (ADR 0019); only a history that answers without
 * being able to tell, ten times in a row, hands the delivery to the merchant.
 */
export const reconcile: Step = async (delivery, deps) => {
  const client = await courierOf(delivery, deps);
  if (!client)
    return wait(
      delivery,
      deps,
      NO_COURIER_WAIT_MS,
      await courierUnavailableReason(delivery.shop),
      "no_courier",
    );
  await renew(delivery, deps);
  let answer: HistoryAnswer;
  try {
    answer = await searchHistory(client, delivery.reference, delivery.createdAt);
  } catch (error) {
    if (!isCourierError(error)) throw error;
    if (error instanceof CourierCircuitOpenError || isNotAnswering(error))
      return courierNotAnswering(delivery, deps, error);
    answer = { outcome: "undetermined", reason: error.message, pages: 0 };
  }
  const at = now(deps);
  if (answer.outcome === "found") {
    const found = answer.order;
    return move(
      delivery,
      deps,
      "created",
      {
        kind: "reconciled",
        message: `Found at the courier as order ${found.orderNumber ?? found.orderId}: it had been created.`,
        data: courierReply({
          searched: delivery.reference,
          found: { orderId: found.orderId, orderNumber: found.orderNumber, status: found.status },
        }),
      },
      {
        courierOrderId: found.orderId,
        courierOrderNumber: found.orderNumber ?? found.orderId,
        courierStatus: found.status ?? null,
        unknownSince: null,
        notInHistorySince: null,
        lastError: null,
        nextAttemptAt: at,
      },
    );
  }
  if (answer.outcome === "absent") {
    const sentAt = delivery.unknownSince ?? delivery.updatedAt;
    const believedAt = notCreatedBelievedAt({
      sentAt,
      firstMissAt: delivery.notInHistorySince,
      now: at,
      lateCommitWaitMs: lateCommitWaitMs(courierTimeoutOf(deps)),
    });
    if (believedAt) {
      // Looked for again later: a courier may record an order some time after answering.
      await transition({
        shop: delivery.shop,
        id: delivery.id,
        from: "unknown",
        to: "unknown",
        leaseOwner: deps.owner,
        leaseGeneration: delivery.leaseGeneration,
        at,
        data: {
          notInHistorySince: delivery.notInHistorySince ?? at,
          nextAttemptAt: believedAt,
          leaseOwner: null,
          leaseExpiresAt: null,
        },
        event: {
          kind: "not_in_history",
          message: `Not in the courier's history yet; looked for again in ${inWords(believedAt.getTime() - at.getTime())} before anything is sent again, as a courier may record an order after answering.`,
          data: courierReply({ searched: delivery.reference, found: null, pages: answer.pages }),
        },
      });
      return null;
    }
    const waited = Math.round((at.getTime() - sentAt.getTime()) / 1000);
    await move(
      delivery,
      deps,
      "ready",
      {
        kind: "not_in_history",
        message: `Not in the courier's history at two looks, the last ${waited} s after it was sent: it was not created, so it is sent again.`,
        data: courierReply({ searched: delivery.reference, found: null, pages: answer.pages }),
      },
      {
        unknownSince: null,
        notInHistorySince: null,
        // Each send that ended without an answer waits longer before the next (ADR 0019), and
        // goes with the shop's other ready deliveries in one batch.
        nextAttemptAt: new Date(at.getTime() + stepBackoffMs(delivery.attempts)),
        leaseOwner: null,
        leaseExpiresAt: null,
      },
    );
    return null;
  }
  const failures = delivery.failures + 1;
  if (failures >= MAX_STEP_FAILURES) {
    return move(
      delivery,
      deps,
      "needs_review",
      {
        kind: "needs_review",
        message: `The courier's history could not tell whether the order exists after ${failures} tries (${answer.reason}). Check with the courier, then send again or mark it created.`,
        data: courierReply({ searched: delivery.reference, undetermined: answer.reason }),
      },
      {
        failures,
        stateReason: `Unknown whether the courier created it (reference ${delivery.reference}): its history could not tell. "Send again" looks in the courier's history first and sends only if the order is not there; if you found it at the courier, enter its number under "Mark created".`,
        lastError: answer.reason.slice(0, 500),
        nextAttemptAt: null,
        leaseOwner: null,
        leaseExpiresAt: null,
      },
    );
  }
  await releaseLease(delivery.shop, delivery.id, deps.owner, {
    failures,
    lastError:
      `The courier's history could not tell whether the order exists: ${answer.reason}`.slice(
        0,
        500,
      ),
    nextAttemptAt: new Date(at.getTime() + stepBackoffMs(failures)),
  });
  return null;
};
