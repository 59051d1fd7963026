import { z } from "zod";
import { isShopifyThrottled } from "./fulfillment-events";
import { runAdminOperation, type AdminGraphql } from "./graphql";

/**
 * The Admin operations "Send to courier" needs beyond orders.ts: what became of a fulfillment
 * order after Shopify's answer to fulfillmentCreate was lost, and waiting out Shopify's throttle.
 */

const FULFILLMENT_ORDER_OUTCOME = `#graphql
  query SendFulfillmentOrderOutcome($id: ID!) {
    fulfillmentOrder(id: $id) {
      status
      fulfillments(first: 5, reverse: true) { nodes { id status } }
    }
  }`;

const outcomeReply = z.object({
  fulfillmentOrder: z
    .object({
      status: z.string(),
      fulfillments: z.object({
        nodes: z.array(z.object({ id: z.string(), status: z.string() })),
      }),
    })
    .nullable(),
});

export type FulfillmentOrderOutcome =
  /** Still open: Shopify did not fulfil it. */
  | { kind: "open" }
  /** Fulfilled: the newest live fulfillment drawn from it. */
  | { kind: "fulfilled"; fulfillmentId: string }
  /** Neither (closed without a live fulfillment, cancelled, on hold, gone). */
  | { kind: "other"; status: string | null };

/**
 * What became of a fulfillment order, asked after fulfillmentCreate failed without a clear
 * answer: the fulfillment order, not the lost reply, says whether Shopify fulfilled it.
 */
export async function readFulfillmentOrderOutcome(
  admin: AdminGraphql,
  fulfillmentOrderId: string,
): Promise<FulfillmentOrderOutcome> {
  const data = await runAdminOperation(
    admin,
    "SendFulfillmentOrderOutcome",
    FULFILLMENT_ORDER_OUTCOME,
    outcomeReply,
    { id: fulfillmentOrderId },
  );
  const fo = data.fulfillmentOrder;
  if (!fo) return { kind: "other", status: null };
  const live = fo.fulfillments.nodes.find((f) => f.status !== "CANCELLED");
  if (live && fo.status !== "OPEN") return { kind: "fulfilled", fulfillmentId: live.id };
  if (fo.status === "OPEN") return { kind: "open" };
  return { kind: "other", status: fo.status };
}

/**
 * Runs a Shopify call, waiting and trying again while Shopify says it is throttled (a THROTTLED
 * reply or a 429: nothing was done). The bucket refills 100 points a second, so a second is
 * enough for a 10-point mutation and a few seconds for a page of orders.
 */
export async function whenShopifyAllows<T>(
  call: () => Promise<T>,
  { tries = 6, waitMs = 1_000 }: { tries?: number; waitMs?: number } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= tries || !isShopifyThrottled(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, waitMs * Math.min(attempt, 3)));
    }
  }
}
