import { missingForCourier } from "../addresses";
import {
  isFixable,
  rememberChance,
  type CorrectionField,
  type CorrectionValues,
} from "../actions/fix.server";
import { areaChoices } from "../domain/area-choices";
import { Unreadable } from "../domain/json-column";
import { refusedFields, type RefusedField } from "../domain/timeline";
import { getDelivery } from "../models/deliveries.server";
import { loadCourierDirectory } from "../services/courier-directory.server";

/** What the fix page shows and starts from; null when the shop has no such delivery. */
export async function correctionPage(shop: string, deliveryId: string) {
  const delivery = await getDelivery(shop, deliveryId);
  if (!delivery) return null;
  const directory = await loadCourierDirectory(shop, delivery.environment);
  const match =
    delivery.addressMatch instanceof Unreadable ? null : (delivery.addressMatch ?? null);
  const sent =
    delivery.request instanceof Unreadable || !delivery.request || delivery.request.erased
      ? null
      : delivery.request.body.deliveryAddress;
  const parts = match?.parts ?? {};
  const values: CorrectionValues = {
    areaId: String(match?.courier?.areaId ?? sent?.areaId ?? ""),
    block: parts.block ?? sent?.block ?? "",
    street: parts.street ?? sent?.street ?? "",
    avenue: parts.avenue ?? sent?.avenue ?? "",
    house: parts.house ?? sent?.house ?? "",
    building: parts.building ?? sent?.building ?? "",
    floor: parts.floor ?? sent?.floor ?? "",
    apartment: parts.apartment ?? "",
    paci: parts.paci ?? "",
    contactPhone: match?.contactPhone ?? sent?.contactPhone ?? "",
    remember: "on",
  };
  const input = match?.input;
  return {
    id: delivery.id,
    orderName: delivery.orderName,
    state: delivery.state,
    fixable: isFixable(delivery.state),
    unknownOutcome: delivery.state === "needs_review",
    typed: input
      ? [input.address1, input.address2, input.city].filter(Boolean).join(", ") || null
      : null,
    customer: sent?.contactName ?? null,
    areas: directory ? areaChoices(directory) : [],
    governorates: directory?.governances ?? [],
    remember: rememberChance(delivery),
    values,
    // What the courier needs and the address lacks, said before the merchant sends.
    missing: missingForCourier(values),
    // The fields the courier's last refusal named, marked on the form with what it asks for.
    refused: refusedOnForm(delivery.events),
  };
}

const FORM_FIELD: Partial<Record<RefusedField, CorrectionField>> = {
  block: "block",
  street: "street",
  avenue: "avenue",
  house: "house",
  building: "building",
  floor: "floor",
  apartment: "apartment",
  paci: "paci",
  area: "areaId",
  phone: "contactPhone",
};

/** The form's fields the latest refusal named, each with the sentence saying what it asks. */
function refusedOnForm(
  events: { kind: string; data: Parameters<typeof refusedFields>[0] }[],
): Partial<Record<CorrectionField, string>> {
  const last = [...events].reverse().find((e) => e.kind === "rejected");
  const marked: Partial<Record<CorrectionField, string>> = {};
  for (const field of last ? refusedFields(last.data) : []) {
    const on = FORM_FIELD[field];
    if (on) marked[on] = `refused.${field}`;
  }
  return marked;
}
