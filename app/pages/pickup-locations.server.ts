import { listAreaOverrides } from "../models/area-overrides.server";
import { getCourierAccount } from "../models/courier-account.server";
import { confirmPickupLocation, listPickupLocations } from "../models/pickup-locations.server";
import { loadCourierDirectory } from "../services/courier-directory.server";
import {
  parsePickupForm,
  proposeForLocation,
  type PickupFormValues,
} from "../services/pickup-mapping";
import type { AdminGraphql } from "../shopify/graphql";
import { fetchPickupCandidates } from "../shopify/locations";

/** Pickup locations: each Shopify location with its courier place, confirmed or proposed. */
export async function pickupLocationsPage(shop: string, admin: AdminGraphql) {
  const account = await getCourierAccount(shop);
  const directory = await loadCourierDirectory(shop, account.environment);
  if (!directory) return { connected: false as const, locations: [], governances: [], areas: [] };

  const [shopifyLocations, mappings, overrides] = await Promise.all([
    fetchPickupCandidates(admin),
    listPickupLocations(shop),
    listAreaOverrides(shop),
  ]);
  const locations = shopifyLocations.map((location) => {
    const mapping = mappings.find((m) => m.locationId === location.id);
    const proposal = proposeForLocation(location, directory, overrides);
    const address = location.address;
    return {
      id: location.id,
      name: location.name,
      // The street lines as written; the city and governorate are named in the page's language.
      addressLines: [address.address1, address.address2].filter((l): l is string => !!l),
      city: address.city,
      provinceCode: address.provinceCode,
      pin:
        typeof address.latitude === "number" && typeof address.longitude === "number"
          ? { latitude: address.latitude, longitude: address.longitude }
          : null,
      confirmedAt: mapping?.confirmedAt.toISOString() ?? null,
      values: mapping
        ? ({
            governanceId: mapping.governanceId,
            areaId: mapping.areaId,
            block: mapping.block,
            street: mapping.street,
            building: mapping.building,
            avenue: mapping.avenue,
            floor: mapping.floor,
            contactName: mapping.contactName,
            contactPhone: mapping.contactPhone,
          } satisfies PickupFormValues)
        : proposal.values,
      proposalReasons: mapping ? [] : proposal.reasons,
      proposalConfident: proposal.confident,
    };
  });
  return {
    connected: true as const,
    locations,
    governances: directory.governances,
    areas: directory.areas,
  };
}

/** Confirms one location's pickup address as the merchant corrected it. */
export async function savePickupLocation(shop: string, form: Record<string, FormDataEntryValue>) {
  const account = await getCourierAccount(shop);
  const directory = await loadCourierDirectory(shop, account.environment);
  if (!directory) {
    return Response.json(
      {
        ok: false,
        locationId: form.locationId,
        errors: { form: "Connect the courier in Settings first." },
      },
      { status: 400 },
    );
  }
  const result = parsePickupForm(form, directory);
  if (!result.ok) {
    return Response.json(
      { ok: false, locationId: form.locationId, errors: result.errors },
      { status: 400 },
    );
  }
  await confirmPickupLocation(shop, result.mapping);
  return Response.json({ ok: true, locationId: result.mapping.locationId, errors: {} });
}
