import {
  gazetteerAreaFor,
  overrideKeyFor,
  type AddressInput,
  type CourierIndex,
} from "../addresses";
import { Unreadable } from "./json-column";
import { notice, type Notice } from "./notices";

/**
 * The key and gazetteer area to remember for the merchant's answer, or why it cannot be. The key
 * is computed afresh from what the customer typed, so it is the one the matcher builds today.
 */
export function rememberable(
  typed: AddressInput | Unreadable | undefined,
  courierAreaId: number,
  index: CourierIndex,
): { key: string; governorate: string; area: string } | { why: Notice; detail?: string } {
  if (typed instanceof Unreadable) return { why: notice("not_remembered_unreadable") };
  if (!typed) return { why: notice("not_remembered_not_stored") };
  const key = overrideKeyFor(typed);
  if (key.key === null) return { why: notice("not_remembered_no_place_name"), detail: key.refusal };
  const place = gazetteerAreaFor(courierAreaId, index);
  if (place.status !== "found")
    return { why: notice("not_remembered_no_gazetteer_area"), detail: place.reason };
  return { key: key.key, governorate: place.area.governorateCode, area: place.area.nameEn };
}
