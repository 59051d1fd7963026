import { z } from "zod";
import { proposePickupLocation, type AreaOverride } from "../addresses";
import { normalizeContactPhone } from "../courier";
import type { ShopifyLocation } from "../shopify/locations";
import type { CourierDirectory } from "./courier-directory.server";

/** What the pickup form shows for a location: the confirmed mapping, or the matcher's proposal. */
export interface PickupFormValues {
  governanceId: number | null;
  areaId: number | null;
  block: string;
  street: string;
  building: string;
  avenue: string;
  floor: string;
  contactName: string;
  contactPhone: string;
}

export function proposeForLocation(
  location: ShopifyLocation,
  directory: CourierDirectory,
  overrides: readonly AreaOverride[] = [],
): { values: PickupFormValues; reasons: string[]; confident: boolean } {
  const proposal = proposePickupLocation(location.address, {
    courierIndex: directory.index,
    overrides: [...overrides],
  });
  const resolved = proposal.courier?.status === "resolved" ? proposal.courier : null;
  return {
    values: {
      governanceId: resolved?.governanceId ?? null,
      areaId: resolved?.areaId ?? null,
      block: proposal.parts.block ?? "",
      street: proposal.parts.street ?? "",
      building: proposal.parts.building ?? proposal.parts.house ?? "",
      avenue: proposal.parts.avenue ?? "",
      floor: proposal.parts.floor ?? "",
      contactName: location.name,
      contactPhone: location.address.phone ?? "",
    },
    reasons: [...proposal.reasons, ...(proposal.courier?.reasons ?? [])],
    confident: proposal.confident && resolved !== null,
  };
}

const required = (label: string) => z.string().trim().min(1, `${label} is required.`);
const optional = z.string().trim().max(100).default("");

const pickupForm = z.object({
  locationId: z.string().regex(/^gid:\/\/shopify\/Location\/\d+$/, "Unknown location."),
  name: z.string().trim().min(1).max(200),
  governanceId: z.coerce.number({ error: "Choose the governance." }).int("Choose the governance."),
  areaId: z.coerce.number({ error: "Choose the area." }).int("Choose the area."),
  block: required("Block").max(20),
  street: required("Street").max(100),
  building: optional,
  avenue: optional,
  floor: optional,
  contactName: required("Contact name").max(100),
  contactPhone: required("Contact phone").max(30),
});

export type PickupFormResult =
  | {
      ok: true;
      mapping: z.infer<typeof pickupForm> & { latitude: null; longitude: null };
    }
  | { ok: false; errors: Record<string, string> };

/** Checks a submitted pickup form against the courier's own master data. */
export function parsePickupForm(
  form: Record<string, unknown>,
  directory: CourierDirectory,
): PickupFormResult {
  // Every problem is reported at once, so the merchant fixes the form in one go.
  const errors: Record<string, string> = {};
  const parsed = pickupForm.safeParse(form);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      errors[String(issue.path[0] ?? "form")] ??= issue.message;
    }
  }
  const rawPhone = typeof form.contactPhone === "string" ? form.contactPhone.trim() : "";
  const phone = normalizeContactPhone(rawPhone);
  if (rawPhone && !phone.ok) errors.contactPhone ??= phone.message;
  if (!parsed.success || !phone.ok) return { ok: false, errors };

  const mapping = parsed.data;
  if (!directory.governances.some((g) => g.id === mapping.governanceId)) {
    errors.governanceId = "Choose a governance from the courier's list.";
  }
  const area = directory.areas.find((a) => a.id === mapping.areaId);
  if (!area) errors.areaId = "Choose an area from the courier's list.";
  else if (area.governanceId !== mapping.governanceId) {
    errors.areaId = "That area is not in the chosen governance.";
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    mapping: { ...mapping, contactPhone: phone.contactPhone, latitude: null, longitude: null },
  };
}
