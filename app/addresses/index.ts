export {
  AREAS,
  GOVERNORATES,
  GOVERNORATE_CODES,
  findArea,
  findGovernorate,
  governorateOf,
  governorateOfArea,
  parentOf,
  type GazetteerArea,
  type GazetteerGovernorate,
  type GovernorateCode,
} from "./gazetteer";
export { findAreaAsCourierWrites } from "./courier-spellings";
export { normalizeArabic, normalizeDigits, normalizeLatin } from "./normalize";
export { emptyParts, PART_NAMES, type AddressParts, type PartName } from "./parts";
export type { AddressDoubt, AddressDoubtKind } from "./doubt";
export { missingForCourier, type MissingParts } from "./deliverable";
export {
  CONFIDENT_AT,
  matchAddress,
  overrideKey,
  overrideKeyFor,
  type AddressInput,
  type AddressMatch,
  type AreaOverride,
  type MatchOptions,
  type OverrideKey,
} from "./match";
export {
  buildCourierIndex,
  gazetteerAreaFor,
  resolveCourierIds,
  type CourierArea,
  type CourierAreaPlace,
  type CourierIndex,
  type CourierMasterData,
  type CourierResolution,
} from "./resolve";
export {
  proposePickupLocation,
  type PickupLocationProposal,
  type ShopifyLocationAddress,
} from "./locations";
