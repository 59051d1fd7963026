import { type AddressInput, type AddressMatch, type MatchOptions, matchAddress } from "./match";
import { type CourierIndex, type CourierResolution, resolveCourierIds } from "./resolve";

/** A Shopify Location's address (the pickup point), as the Admin API returns it. */
export interface ShopifyLocationAddress {
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  zip?: string | null;
  provinceCode?: string | null;
  countryCode?: string | null;
}

/** What the settings page proposes for a pickup location; the merchant confirms it. */
export interface PickupLocationProposal extends AddressMatch {
  /** The courier's IDs for the proposed area, when a courier index was given and an area was found. */
  courier: CourierResolution | null;
}

/**
 * Proposes governorate, area, parts and (with the courier's master data) the courier's IDs for a
 * Shopify Location, using the same matcher as orders. The merchant confirms the proposal on the
 * settings page, so it is returned even when it is not confident.
 */
export function proposePickupLocation(
  location: ShopifyLocationAddress,
  options: MatchOptions & { courierIndex?: CourierIndex } = {},
): PickupLocationProposal {
  const input: AddressInput = {
    address1: location?.address1,
    address2: location?.address2,
    city: location?.city,
    zip: location?.zip,
    provinceCode: location?.provinceCode,
    countryCode: location?.countryCode,
  };
  const match = matchAddress(input, options);
  const courier =
    match.area !== null && options.courierIndex !== undefined
      ? resolveCourierIds(match.area, options.courierIndex)
      : null;
  return { ...match, courier };
}
