import { z } from "zod";
import { commitIntake, type IntakeShop } from "../models/delivery-intake.server";
import { deliveryReference } from "../domain/request";

/** The fields of Shopify's fulfillments/create webhook the app reads (REST shape). */
export const fulfillmentWebhook = z.object({
  id: z.union([z.number(), z.string()]).transform(String),
  admin_graphql_api_id: z.string().regex(/^gid:\/\/shopify\/Fulfillment\/\d+$/),
  order_id: z.union([z.number(), z.string()]).transform(String),
  location_id: z
    .union([z.number(), z.string()])
    .nullish()
    .transform((v) => (v == null ? null : String(v))),
  name: z.string().nullish(),
  status: z.string().nullish(),
  destination: z.object({ country_code: z.string().nullish() }).nullish(),
});

export type FulfillmentWebhook = z.infer<typeof fulfillmentWebhook>;

export type IntakeOutcome = {
  state: "pending" | "skipped" | "ignored";
  reason?: string;
  duplicate: boolean;
};

/**
 * fulfillments/create: decides from the webhook and the shop's own settings — no Shopify or
 * courier call — whether the fulfillment goes to the courier, and records it either way (a
 * skipped one with the reason the merchant will read). Runs in the webhook request: the settings
 * are read and the row written in one transaction shared with the other webhooks arriving at the
 * same moment (group commit), and this resolves once that transaction is on disk.
 */
export async function receiveFulfillment(
  shop: string,
  payload: FulfillmentWebhook,
  /** "recovered": the check found it without its webhook (ADR 0013); decided by the same rules. */
  source: "webhook" | "recovered" = "webhook",
): Promise<IntakeOutcome> {
  const fulfillmentId = payload.admin_graphql_api_id;
  const locationId = payload.location_id ? `gid://shopify/Location/${payload.location_id}` : null;
  const result = await commitIntake({
    shop,
    orderId: `gid://shopify/Order/${payload.order_id}`,
    fulfillmentId,
    locationId,
    decide: (settings) => {
      const reason = skipReason(payload, settings);
      return {
        orderName: payload.name?.replace(/\.\d+$/, "") ?? null,
        source,
        state: reason ? "skipped" : "pending",
        stateReason: reason,
        environment: settings.courierEnvironment,
        reference: deliveryReference(shop, fulfillmentId),
      };
    },
  });
  switch (result.kind) {
    case "ignored":
      return { state: "ignored", reason: "shop not installed", duplicate: false };
    case "attached":
      return { state: "pending", duplicate: true };
    case "recorded":
      return {
        state: result.state === "skipped" ? "skipped" : "pending",
        reason: result.stateReason ?? undefined,
        duplicate: !result.created,
      };
  }
}

/** Why a fulfillment does not go to the courier, in the merchant's words; null when it does. */
export function skipReason(payload: FulfillmentWebhook, shop: IntakeShop): string | null {
  const country = payload.destination?.country_code?.toUpperCase() ?? null;
  if (payload.status && !["success", "pending", "open"].includes(payload.status)) {
    return `The fulfillment is ${payload.status}.`;
  }
  if (!shop.autoSend) return "Automatic sending is off (Settings).";
  if (!shop.hasCourierKey) return "No courier API key is stored (Settings).";
  if (country !== "KW") {
    return country
      ? `The destination is outside Kuwait (${country}).`
      : "The fulfillment has no destination address.";
  }
  if (!payload.location_id || !shop.pickupConfirmed) {
    return "The location it ships from has no confirmed pickup address (Pickup locations).";
  }
  return null;
}
