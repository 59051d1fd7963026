import { AREAS, resolveCourierIds } from "../addresses";
import { searchText } from "./area-search";

/** The courier's areas as a pure list (what services/courier-directory loads). */
export interface CourierAreaDirectory {
  governances: { id: number; name: string }[];
  areas: { id: number; governanceId: number; name: string }[];
  index: Parameters<typeof resolveCourierIds>[1];
}

/** One courier area as the picker offers it. */
export interface AreaChoice {
  id: number;
  governanceId: number;
  /** The courier's name and the gazetteer's English and Arabic names (null: not in it). */
  courierName: string;
  en: string | null;
  ar: string | null;
  /** The courier's name of its governorate. */
  governorate: string;
  /** Every name it goes by (courier's, English, Arabic, transliterations), folded for search. */
  search: string;
  /** A merchant's answer naming this area can be remembered (one gazetteer area stands for it). */
  rememberable: boolean;
}

/** The courier's areas with the gazetteer's names and aliases, for the searchable picker. */
export function areaChoices(directory: CourierAreaDirectory): AreaChoice[] {
  const byArea = new Map<number, (typeof AREAS)[number][]>();
  const candidates = new Map<number, (typeof AREAS)[number][]>();
  for (const area of AREAS) {
    const resolution = resolveCourierIds(area, directory.index);
    if (resolution.status === "resolved") {
      byArea.set(resolution.areaId, [...(byArea.get(resolution.areaId) ?? []), area]);
    } else if (resolution.status === "ambiguous") {
      for (const candidate of resolution.candidates)
        candidates.set(candidate.areaId, [...(candidates.get(candidate.areaId) ?? []), area]);
    }
  }
  const governorates = new Map(directory.governances.map((g) => [g.id, g.name]));
  return directory.areas.map((row) => {
    const found = byArea.get(row.id) ?? [];
    const named = found.length > 0 ? found : (candidates.get(row.id) ?? []);
    const [only] = found;
    const names = [row.name, ...named.flatMap((a) => [a.nameEn, a.nameAr, ...a.aliases])];
    return {
      id: row.id,
      governanceId: row.governanceId,
      courierName: row.name,
      en: only?.nameEn ?? null,
      ar: only?.nameAr ?? null,
      governorate: governorates.get(row.governanceId) ?? "",
      search: searchText(names),
      rememberable: found.length === 1,
    };
  });
}
