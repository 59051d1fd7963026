import { z } from "zod";
import gazetteerJson from "./data/kuwait-areas.json";
import { normalizeArabic, normalizeLatin } from "./normalize";

/** Shopify's zone codes for Kuwait's six governorates. */
export const GOVERNORATE_CODES = ["KW-KU", "KW-HA", "KW-MU", "KW-AH", "KW-FA", "KW-JA"] as const;
export type GovernorateCode = (typeof GOVERNORATE_CODES)[number];

/** A governorate as the gazetteer lists it; nameEn is Shopify's zone name. */
export interface GazetteerGovernorate {
  readonly code: GovernorateCode;
  readonly nameEn: string;
  readonly nameAr: string;
  readonly aliases: readonly string[];
}

/** An area (district) as the gazetteer lists it. */
export interface GazetteerArea {
  readonly nameEn: string;
  readonly nameAr: string;
  readonly aliases: readonly string[];
  readonly governorateCode: GovernorateCode;
  /** Sources disagree on the governorate (Nahda, Qairawan, Kabd, Shadadiya). */
  readonly uncertain: boolean;
  readonly note: string | null;
  /**
   * The area this place is named after and usually folded into (Shuwaikh for the Shuwaikh health
   * area, Ardiya for Ardiya Stores): couriers list it apart, and a delivery there is asked about.
   */
  readonly partOf: string | null;
}

const AreaSchema = z.object({
  nameEn: z.string().min(1),
  nameAr: z.string().min(1),
  aliases: z.array(z.string()),
  uncertain: z.boolean().optional(),
  note: z.string().optional(),
  partOf: z.string().optional(),
});
const GazetteerSchema = z
  .array(
    z.object({
      code: z.enum(GOVERNORATE_CODES),
      nameEn: z.string().min(1),
      nameAr: z.string().min(1),
      aliases: z.array(z.string()),
      areas: z.array(AreaSchema).min(1),
    }),
  )
  .length(GOVERNORATE_CODES.length);

const parsed = GazetteerSchema.parse(gazetteerJson);

/** The six governorates, in the gazetteer's order. */
export const GOVERNORATES: readonly GazetteerGovernorate[] = parsed.map((governorate) =>
  Object.freeze({
    code: governorate.code,
    nameEn: governorate.nameEn,
    nameAr: governorate.nameAr,
    aliases: Object.freeze([...governorate.aliases]),
  }),
);

/** Every area of every governorate. */
export const AREAS: readonly GazetteerArea[] = parsed.flatMap((governorate) =>
  governorate.areas.map((area) =>
    Object.freeze({
      nameEn: area.nameEn,
      nameAr: area.nameAr,
      aliases: Object.freeze([...area.aliases]),
      governorateCode: governorate.code,
      uncertain: area.uncertain ?? false,
      note: area.note ?? null,
      partOf: area.partOf ?? null,
    }),
  ),
);

const governorateByCode = new Map<string, GazetteerGovernorate>(
  GOVERNORATES.map((governorate) => [governorate.code, governorate]),
);

function nameKey(name: string): string {
  return `${normalizeLatin(name)}|${normalizeArabic(name)}`;
}

const areaByName = new Map<string, GazetteerArea>();
for (const area of AREAS) {
  areaByName.set(nameKey(area.nameEn), area);
  areaByName.set(nameKey(area.nameAr), area);
}
const governorateByName = new Map<string, GazetteerGovernorate>();
for (const governorate of GOVERNORATES) {
  governorateByName.set(nameKey(governorate.nameEn), governorate);
  governorateByName.set(nameKey(governorate.nameAr), governorate);
  governorateByName.set(nameKey(governorate.code), governorate);
}

for (const area of AREAS) {
  if (area.partOf !== null && !AREAS.some((other) => other.nameEn === area.partOf)) {
    throw new Error(`gazetteer area ${area.nameEn} is part of an unknown area ${area.partOf}`);
  }
}

/** The area a sub-area is part of (Shuwaikh Residential for Shuwaikh Medical), or undefined. */
export function parentOf(area: GazetteerArea): GazetteerArea | undefined {
  return area.partOf === null ? undefined : AREAS.find((other) => other.nameEn === area.partOf);
}

/** The governorate with this Shopify zone code ("KW-HA"), or undefined. */
export function governorateOf(code: string): GazetteerGovernorate | undefined {
  return governorateByCode.get(code.trim().toUpperCase());
}

/** The governorate of an area. */
export function governorateOfArea(area: GazetteerArea): GazetteerGovernorate {
  const governorate = governorateByCode.get(area.governorateCode);
  if (governorate === undefined) throw new Error(`no governorate ${area.governorateCode}`);
  return governorate;
}

/** The area with this English or Arabic gazetteer name (spelling-insensitive), or undefined. */
export function findArea(name: string): GazetteerArea | undefined {
  return areaByName.get(nameKey(name));
}

/** {@link findArea}, for names the code itself lists: a missing one is a bug, thrown at load. */
export function requireArea(name: string): GazetteerArea {
  const area = findArea(name);
  if (area === undefined) throw new Error(`gazetteer has no area named ${name}`);
  return area;
}

/** The governorate with this code, English or Arabic gazetteer name, or undefined. */
export function findGovernorate(name: string): GazetteerGovernorate | undefined {
  return governorateByCode.get(name.trim().toUpperCase()) ?? governorateByName.get(nameKey(name));
}
