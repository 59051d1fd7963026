import { z } from "zod";
import { recordDelivery } from "../models/deliveries.server";
import { getPickupLocation } from "../models/pickup-locations.server";
import { getShopSettings } from "../models/shop.server";
import { deliveryReference } from "./request";
import { attachToSentIntent } from "./send.server";

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
 * skipped one with the reason the merchant will read). Runs in the webhook request: milliseconds.
 */
export async function receiveFulfillment(
  shop: string,
  payload: FulfillmentWebhook,
): Promise<IntakeOutcome> {
  const settings = await getShopSettings(shop);
  if (!settings || settings.uninstalledAt)
    return { state: "ignored", reason: "shop not installed", duplicate: false };
  const orderId = `gid://shopify/Order/${payload.order_id}`;
  // A fulfillment the app made itself ("Send to courier") belongs to the row written before it.
  if (await attachToSentIntent(shop, orderId, payload.admin_graphql_api_id)) {
    return { state: "pending", duplicate: true };
  }
  const locationId = payload.location_id ? `gid://shopify/Location/${payload.location_id}` : null;
  const country = payload.destination?.country_code?.toUpperCase() ?? null;

  let reason: string | null = null;
  if (payload.status && !["success", "pending", "open"].includes(payload.status)) {
    reason = `The fulfillment is ${payload.status}.`;
  } else if (!settings.autoSend) {
    reason = "Automatic sending is off (Settings).";
  } else if (!settings.courierApiKeySealed) {
    reason = "No courier API key is stored (Settings).";
  } else if (country !== "KW") {
    reason = country
      ? `The destination is outside Kuwait (${country}).`
      : "The fulfillment has no destination address.";
  } else if (!locationId || !(await getPickupLocation(shop, locationId))) {
    reason = "The location it ships from has no confirmed pickup address (Pickup locations).";
  }

  const { delivery, created } = await recordDelivery({
    shop,
    orderId,
    orderName: payload.name?.replace(/\.\d+$/, "") ?? null,
    fulfillmentId: payload.admin_graphql_api_id,
    locationId,
    source: "webhook",
    state: reason ? "skipped" : "pending",
    stateReason: reason,
    environment: settings.courierEnvironment,
    reference: deliveryReference(shop, payload.admin_graphql_api_id),
  });
  return {
    state: delivery.state === "skipped" ? "skipped" : "pending",
    reason: reason ?? undefined,
    duplicate: !created,
  };
}
