import { z } from "zod";
import {
  runAdminOperation,
  ShopifyReplyError,
  userErrorsMessage,
  type AdminGraphql,
} from "./graphql";

/**
 * Starts the merchant's Flow workflows that begin with one of the app's triggers. The payload's
 * keys are the trigger extension's field keys (extensions/flow-trigger-*); Flow answers with
 * userErrors when one is missing or of the wrong type, which are thrown (ShopifyReplyError).
 */
export const FLOW_TRIGGER_RECEIVE = `#graphql
  mutation DeliveryFlowTrigger($handle: String, $payload: JSON) {
    flowTriggerReceive(handle: $handle, payload: $payload) {
      userErrors { field message }
    }
  }`;

const reply = z.object({
  flowTriggerReceive: z.object({
    userErrors: z.array(z.object({ field: z.array(z.string()).nullable(), message: z.string() })),
  }),
});

export async function sendFlowTrigger(
  admin: AdminGraphql,
  handle: string,
  payload: Record<string, unknown>,
): Promise<void> {
  const data = await runAdminOperation(admin, "DeliveryFlowTrigger", FLOW_TRIGGER_RECEIVE, reply, {
    handle,
    payload,
  });
  const errors = data.flowTriggerReceive.userErrors;
  if (errors.length > 0)
    throw new ShopifyReplyError(
      `Shopify Flow refused the "${handle}" trigger: ${userErrorsMessage(errors)}`,
      "DeliveryFlowTrigger",
    );
}
