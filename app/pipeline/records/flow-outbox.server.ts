import { Unreadable } from "../../domain/json-column";
import {
  claimDueFlowEvents,
  markFlowEventFailed,
  markFlowEventSent,
} from "../../models/flow-events.server";
import { isShopActive } from "../../models/shop.server";
import { sendFlowTrigger } from "../../shopify/flow";
import { shopifyFailureKind } from "../../shopify/fulfillment-events";
import type { AdminGraphql } from "../../shopify/graphql";

/**
 * Sends the Flow triggers owed (the FlowEvent outbox) with flowTriggerReceive. A trigger Shopify
 * could not take for now (throttled, unavailable) waits longer each time; one it refused is tried
 * a few times (a workflow's trigger may be turned on later) and then kept with its error.
 */
export interface FlowOutboxDependencies {
  adminFor: (shop: string) => Promise<AdminGraphql>;
}

const MAX_REFUSED = 5;
const HOLD_MS = 60_000;

export function flowRetryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
}

export async function sendDueFlowEvents(
  deps: FlowOutboxDependencies,
  now = new Date(),
  limit = 50,
): Promise<number> {
  const due = await claimDueFlowEvents(now, limit, HOLD_MS);
  let sent = 0;
  for (const event of due) {
    const attempts = event.attempts + 1;
    try {
      if (!(await isShopActive(event.shop))) {
        await markFlowEventFailed(event.id, attempts, "The shop uninstalled the app.", null);
        continue;
      }
      if (event.payload instanceof Unreadable) {
        await markFlowEventFailed(
          event.id,
          attempts,
          `The trigger's stored fields do not read (${event.payload.problem}).`,
          null,
        );
        continue;
      }
      const admin = await deps.adminFor(event.shop);
      await sendFlowTrigger(admin, event.trigger, event.payload);
      await markFlowEventSent(event.id, new Date());
      sent += 1;
    } catch (error) {
      const message = error instanceof Error ? error.message : "unknown error";
      const kind = shopifyFailureKind(error);
      const giveUp = kind !== "throttled" && kind !== "unavailable" && attempts >= MAX_REFUSED;
      await markFlowEventFailed(
        event.id,
        attempts,
        message,
        giveUp ? null : new Date(now.getTime() + flowRetryDelayMs(attempts)),
      );
    }
  }
  return sent;
}
