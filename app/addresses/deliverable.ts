import type { AddressParts } from "./parts";

/**
 * What a courier needs below the area to find a Kuwaiti address, and an address lacks: the block,
 * and a street, house or building number (ADR 0052). An area alone is no address a driver can
 * find ("near the co-op, behind the mosque, Sabah Al-Salem"), and the courier refuses an empty
 * block. Null when nothing is missing.
 */
export type MissingParts = "block" | "street_or_house" | "block_and_street_or_house";

type Needed = Pick<AddressParts, "block" | "street" | "house" | "building">;

const given = (value: string | null | undefined): boolean =>
  typeof value === "string" && value.trim() !== "";

export function missingForCourier(parts: Partial<Needed>): MissingParts | null {
  const block = given(parts.block);
  const place = given(parts.street) || given(parts.house) || given(parts.building);
  if (block && place) return null;
  if (!block && !place) return "block_and_street_or_house";
  return block ? "street_or_house" : "block";
}
