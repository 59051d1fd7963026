import { z } from "zod";
import { missingForCourier, PART_NAMES, type AddressParts, type PartName } from "../addresses";
import { rememberAreaSpelling } from "../models/area-overrides.server";
import { getDelivery } from "../models/deliveries.server";
import { getPickupLocation } from "../models/pickup-locations.server";
import { getShopSettings } from "../models/shop.server";
import { loadCourierDirectory } from "../services/courier-directory.server";
import { fetchDeliveryFulfillment } from "../shopify/fulfillments";
import type { AdminGraphql } from "../shopify/graphql";
import { kickDeliveryWorker } from "../pipeline/drain-loop.server";
import { Unreadable } from "../domain/json-column";
import { notice, type Notice } from "../domain/notices";
import { buildAndQueue } from "../pipeline/steps/prepare.server";
import { refusedWhenMoved } from "./merchant-action.server";
import { rememberable } from "../domain/remember-area";

/**
 * The address review: the merchant places an address by hand, and the request is built afresh
 * for that place. "Send again" (retry.server.ts) rebuilds a request the same way.
 */

const text = z.string().trim().max(100).default("");
export const addressFix = z.object({
  deliveryId: z.string().min(1),
  governanceId: z.coerce.number({ error: "choose_governorate" }).int("choose_governorate"),
  areaId: z.coerce.number({ error: "choose_area" }).int("choose_area"),
  block: text,
  street: text,
  avenue: text,
  house: text,
  building: text,
  floor: text,
  apartment: text,
  // A checked box is sent (Polaris sends an empty value), an unchecked one is not.
  remember: z
    .string()
    .optional()
    .transform((value) => value !== undefined),
});

/** What rebuilding a request needs from Shopify and the shop, or why it cannot be rebuilt. */
export async function rebuildContext(
  shop: string,
  admin: AdminGraphql,
  delivery: { fulfillmentId: string | null; locationId: string | null },
) {
  const fulfillment = delivery.fulfillmentId
    ? await fetchDeliveryFulfillment(admin, delivery.fulfillmentId)
    : null;
  if (!fulfillment) return { ok: false, error: notice("shopify_fulfillment_gone") } as const;
  const [settings, pickup] = await Promise.all([
    getShopSettings(shop),
    getPickupLocation(shop, fulfillment.locationId ?? delivery.locationId ?? ""),
  ]);
  if (!settings || !pickup) {
    return { ok: false, error: notice("confirm_pickup_first") } as const;
  }
  return { ok: true, fulfillment, settings, pickup } as const;
}

/** Address parts from a form or a stored record: empty text is no part. */
export function partsFrom(
  source: Partial<Record<PartName, string | null | undefined>>,
): AddressParts {
  return Object.fromEntries(
    PART_NAMES.map((name) => [name, source[name] || null]),
  ) as unknown as AddressParts;
}

/** `notRemembered` says why "Remember this spelling" was asked for and could not be done. */
export type FixOutcome =
  { ok: true; notRemembered?: Notice; message?: Notice } | { ok: false; error: Notice };

export const fixDeliveryAddress = refusedWhenMoved(async function fixDeliveryAddress(
  shop: string,
  admin: AdminGraphql,
  form: Record<string, unknown>,
): Promise<FixOutcome> {
  const parsed = addressFix.safeParse(form);
  if (!parsed.success) {
    // The schema's messages are notice codes; anything else reads as a form that was not read.
    const code = parsed.error.issues[0]?.message;
    return {
      ok: false,
      error: notice(
        code === "choose_governorate" || code === "choose_area" ? code : "invalid_form",
      ),
    };
  }
  const fix = parsed.data;
  // The merchant supplies what the address lacks; nothing else fills it in (ADR 0052).
  const missing = missingForCourier(fix);
  if (missing) return { ok: false, error: notice(`address_missing_${missing}`) };
  const delivery = await getDelivery(shop, fix.deliveryId);
  if (!delivery || delivery.state !== "needs_address") {
    return { ok: false, error: notice("no_longer_waiting_address") };
  }
  const directory = await loadCourierDirectory(shop, delivery.environment);
  const area = directory?.areas.find((a) => a.id === fix.areaId);
  if (!directory || !area || area.governanceId !== fix.governanceId) {
    return { ok: false, error: notice("choose_area_of_governorate") };
  }
  const context = await rebuildContext(shop, admin, delivery);
  if (!context.ok) return { ok: false, error: context.error };

  // An unreadable record is replaced by the merchant's answer.
  const previous = delivery.addressMatch instanceof Unreadable ? {} : (delivery.addressMatch ?? {});
  let notRemembered: Notice | undefined;
  if (fix.remember) {
    const typed =
      delivery.addressMatch instanceof Unreadable ? delivery.addressMatch : previous.input;
    const remember = rememberable(typed, fix.areaId, directory.index);
    if ("why" in remember) notRemembered = remember.why;
    else {
      await rememberAreaSpelling(shop, remember.key, {
        governorate: remember.governorate,
        area: remember.area,
      });
    }
  }
  const queued = await buildAndQueue(
    delivery,
    { owner: null },
    {
      order: context.fulfillment.order,
      settings: context.settings,
      pickup: context.pickup,
      destination: {
        governanceId: fix.governanceId,
        areaId: fix.areaId,
        parts: partsFrom(fix),
        contactPhone: previous.contactPhone ?? null,
      },
      matchRecord: { ...previous, fixedByMerchant: true },
    },
  );
  if (queued?.state !== "ready") return { ok: false, error: notice("request_not_built") };
  kickDeliveryWorker();
  return notRemembered === undefined ? { ok: true } : { ok: true, notRemembered };
});
