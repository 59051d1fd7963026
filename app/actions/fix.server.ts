import { z } from "zod";
import { missingForCourier, overrideKeyFor } from "../addresses";
import { rememberAreaSpelling } from "../models/area-overrides.server";
import { addDeliveryEvent, getDelivery, type DeliveryRow } from "../models/deliveries.server";
import { loadCourierDirectory } from "../services/courier-directory.server";
import type { AdminGraphql } from "../shopify/graphql";
import { contactPhoneField } from "../domain/contact-phone";
import { Unreadable } from "../domain/json-column";
import type { DeliveryState } from "../domain/states";
import { eventText } from "../domain/timeline-text";
import { kickDeliveryWorker } from "../pipeline/drain-loop.server";
import { historyDecides } from "./retry.server";
import { partsFrom, rebuildContext } from "./review.server";
import { rememberable } from "../domain/remember-area";
import { buildAndQueue } from "../pipeline/steps/prepare.server";
import { notice, type Notice } from "../domain/notices";
import { refusedWhenMoved } from "./merchant-action.server";

/**
 * "Fix and send again": a delivery the courier rejected, or that waits for its address or for the
 * merchant's decision, is corrected in place (area, address parts, the customer's phone) and sent
 * again through the same path as "Send again": the courier's history decides first where the
 * earlier outcome is unknown (ADR 0018), the request is rebuilt from the order for the corrected
 * place, and the state moves only through the one writer (buildAndQueue → transition).
 */

export const FIXABLE_STATES: readonly DeliveryState[] = [
  "rejected",
  "needs_address",
  "needs_review",
];

export function isFixable(state: DeliveryState): boolean {
  return FIXABLE_STATES.includes(state);
}

const PART_LIMIT = 100;
const part = z.string().trim().max(PART_LIMIT, "fix.errors.tooLong").default("");

/** The form, its messages catalog keys of the `delivery` namespace (ADR 0040). */
export const correctionForm = z.object({
  areaId: z.coerce
    .number({ error: "fix.errors.areaMissing" })
    .int("fix.errors.areaMissing")
    .positive("fix.errors.areaMissing"),
  block: part,
  street: part,
  avenue: part,
  house: part,
  building: part,
  floor: part,
  apartment: part,
  paci: z
    .string()
    .trim()
    .default("")
    .refine((value) => value === "" || /^\d{6,12}$/.test(value), "fix.errors.paci"),
  contactPhone: contactPhoneField,
  // A checked box is sent, an unchecked one is not.
  remember: z
    .string()
    .optional()
    .transform((value) => value !== undefined),
});

export const CORRECTION_FIELDS = [
  "areaId",
  "block",
  "street",
  "avenue",
  "house",
  "building",
  "floor",
  "apartment",
  "paci",
  "contactPhone",
  "remember",
] as const;
export type CorrectionField = (typeof CORRECTION_FIELDS)[number];
export type CorrectionValues = Record<CorrectionField, string>;

export type CorrectionOutcome =
  | { ok: true; remembered: boolean; message?: string }
  | {
      ok: false;
      /** A catalog key of `delivery` per field that needs fixing. */
      fieldErrors: Partial<Record<CorrectionField, string>>;
      /** For the whole form: a `delivery` catalog key, or a service's notice (ADR 0045). */
      error?: string | Notice;
      /** What was typed, so the form keeps it. */
      values: CorrectionValues;
    };

/** Whether the merchant's answer can be remembered for the spelling the customer typed. */
export type RememberChance =
  { possible: true; spelling: string } | { possible: false; why: "no_address" | "no_place_name" };

export function rememberChance(delivery: DeliveryRow): RememberChance {
  const match = delivery.addressMatch;
  if (!match || match instanceof Unreadable || !match.input) {
    return { possible: false, why: "no_address" };
  }
  const key = overrideKeyFor(match.input);
  if (key.key === null) return { possible: false, why: "no_place_name" };
  return { possible: true, spelling: key.key.slice(key.key.indexOf("|") + 1) };
}

const formValues = (form: Record<string, unknown>): CorrectionValues =>
  Object.fromEntries(
    CORRECTION_FIELDS.map((name) => {
      const value = form[name];
      // A checked box is sent (empty, as Polaris's is), an unchecked one is not.
      if (name === "remember") return [name, value === undefined ? "" : "on"];
      return [name, typeof value === "string" ? value : ""];
    }),
  ) as CorrectionValues;

/**
 * Corrects the delivery and sends it again. Where the earlier outcome is unknown, the courier's
 * history decides first: an order found there is linked and nothing is sent. Null when the shop
 * has no delivery of that id.
 */
export const correctAndResend = refusedWhenMoved(async function correctAndResend(
  shop: string,
  admin: AdminGraphql,
  deliveryId: string,
  form: Record<string, unknown>,
): Promise<CorrectionOutcome | null> {
  const delivery = await getDelivery(shop, deliveryId);
  if (!delivery) return null;
  const values = formValues(form);
  const refuse = (
    error: string | Notice | undefined,
    fieldErrors: Partial<Record<CorrectionField, string>> = {},
  ): CorrectionOutcome => ({ ok: false, error, fieldErrors, values });

  // The merchant supplies what the address lacks; nothing else fills it in (ADR 0052).
  const missing = missingForCourier(values);
  const missingErrors: Partial<Record<CorrectionField, string>> = {
    ...(missing && missing !== "street_or_house" ? { block: "fix.errors.blockMissing" } : {}),
    ...(missing && missing !== "block" ? { street: "fix.errors.streetOrHouseMissing" } : {}),
  };
  const parsed = correctionForm.safeParse(form);
  if (!parsed.success) {
    const fieldErrors: Partial<Record<CorrectionField, string>> = { ...missingErrors };
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (typeof field === "string" && (CORRECTION_FIELDS as readonly string[]).includes(field))
        fieldErrors[field as CorrectionField] ??= issue.message;
    }
    return refuse("fix.errors.form", fieldErrors);
  }
  const fix = parsed.data;
  if (missing) return refuse("fix.errors.form", missingErrors);
  if (!isFixable(delivery.state)) return refuse("fix.errors.notFixable");
  const directory = await loadCourierDirectory(shop, delivery.environment);
  if (!directory) return refuse(notice("connect_courier_first"));
  const area = directory.areas.find((a) => a.id === fix.areaId);
  if (!area) return refuse("fix.errors.form", { areaId: "fix.errors.areaUnknown" });

  // Unknown whether the courier created it: its history decides before anything is sent.
  if (delivery.state === "needs_review") {
    const decided = await historyDecides(delivery);
    if (decided && !decided.ok) return refuse(decided.error);
    if (decided?.ok) return { ok: true, remembered: false, message: "fix.foundInHistory" };
  }

  const context = await rebuildContext(shop, admin, delivery);
  if (!context.ok) return refuse(context.error);

  const previous = delivery.addressMatch instanceof Unreadable ? {} : (delivery.addressMatch ?? {});
  let remembered = false;
  if (fix.remember) {
    const typed =
      delivery.addressMatch instanceof Unreadable ? delivery.addressMatch : previous.input;
    const remember = rememberable(typed, fix.areaId, directory.index);
    if ("key" in remember) {
      await rememberAreaSpelling(shop, remember.key, {
        governorate: remember.governorate,
        area: remember.area,
      });
      remembered = true;
    }
  }
  await addDeliveryEvent(
    shop,
    delivery.id,
    "corrected",
    remembered
      ? "The merchant corrected the address and phone; the area is remembered for this spelling."
      : "The merchant corrected the address and phone.",
    new Date(),
    { text: eventText(remembered ? "address_corrected_remembered" : "address_corrected") },
  );
  const queued = await buildAndQueue(
    delivery,
    { owner: null },
    {
      order: context.fulfillment.order,
      settings: context.settings,
      pickup: context.pickup,
      destination: {
        governanceId: area.governanceId,
        areaId: area.id,
        parts: partsFrom(fix),
        contactPhone: fix.contactPhone,
      },
      matchRecord: { ...previous, fixedByMerchant: true, contactPhone: fix.contactPhone },
    },
  );
  if (queued?.state !== "ready") return refuse(notice("request_not_built"));
  kickDeliveryWorker();
  return { ok: true, remembered };
});
