import {
  type GazetteerArea,
  type GazetteerGovernorate,
  findArea,
  governorateOfArea,
} from "./gazetteer";
import { LATIN_ARTICLES, foldText, hasArabic, latinWordKey, normalizeArabic } from "./normalize";

/** The courier's master data for one environment, as its API returns it (names in Arabic). */
export interface CourierMasterData {
  governances: readonly { governanceId: number; governanceName: string }[];
  areas: readonly { areaId: number; governanceId: number; areaName: string }[];
}

export interface CourierArea {
  readonly areaId: number;
  readonly governanceId: number;
  readonly areaName: string;
}

/** Lookup tables over one master-data object; build with {@link buildCourierIndex}. */
export interface CourierIndex {
  readonly byName: ReadonlyMap<string, readonly CourierArea[]>;
  readonly governanceByName: ReadonlyMap<string, readonly number[]>;
  readonly governanceNames: ReadonlyMap<number, string>;
}

/** The courier's IDs for a gazetteer area, or why there are none. */
export type CourierResolution =
  | {
      readonly status: "resolved";
      readonly governanceId: number;
      readonly areaId: number;
      readonly courierAreaName: string;
      readonly reasons: readonly string[];
    }
  | { readonly status: "missing"; readonly reasons: readonly string[] }
  | {
      readonly status: "ambiguous";
      readonly candidates: readonly CourierArea[];
      readonly reasons: readonly string[];
    };

// Words the courier and the gazetteer add or drop around the same name: «ضاحية عبدالله السالم»,
// «مدينة جابر الأحمد», «محافظة حولي», "Governorate".
const GENERIC_WORDS = new Set([
  "ضاحيه",
  "مدينه",
  "منطقه",
  "محافظه",
  "governorate",
  "guvernurat",
  "area",
  "city",
]);

// Aliases that name a part or a neighbour of an area rather than the area itself; matching a
// courier row through them would be a guess (notes, section 1: folded sub-areas).
// prettier-ignore
const PART_WORDS = new Set([
  "جنوب", "شمال", "شرق", "غرب", "وسط", "شاليهات", "مزارع", "زراعيه", "جديده", "قديمه", "بحري",
]);
const SUB_AREA_ALIASES = new Set(
  ["عباسيه", "حساوي", "ام هيمان"].map((name) => normalizeArabic(name)),
);

// Spelling only: transliteration skeletons would make Naeem and Naayem one name.
function latinWords(name: string): string[] {
  const words = foldText(name).match(/[a-z0-9]+/g) ?? [];
  return words.filter((word) => !LATIN_ARTICLES.has(word)).map(latinWordKey);
}

function nameKeys(name: string): string[] {
  const words = hasArabic(name)
    ? normalizeArabic(name).split(" ").filter(Boolean)
    : latinWords(name);
  const full = words.join("");
  const core = words.filter((word) => !GENERIC_WORDS.has(word)).join("");
  return core !== "" && core !== full ? [full, core] : [full];
}

const indexes = new WeakMap<CourierMasterData, CourierIndex>();

/**
 * Indexes the courier's master data by normalized name. Built once per master-data object: a
 * second call with the same object returns the same index.
 */
export function buildCourierIndex(masterData: CourierMasterData): CourierIndex {
  const cached = indexes.get(masterData);
  if (cached !== undefined) return cached;
  const byName = new Map<string, CourierArea[]>();
  const governanceByName = new Map<string, number[]>();
  const governanceNames = new Map<number, string>();
  for (const governance of masterData?.governances ?? []) {
    if (typeof governance?.governanceName !== "string" || !Number.isFinite(governance.governanceId))
      continue;
    governanceNames.set(governance.governanceId, governance.governanceName);
    for (const key of nameKeys(governance.governanceName)) {
      const ids = governanceByName.get(key) ?? [];
      if (!ids.includes(governance.governanceId)) ids.push(governance.governanceId);
      governanceByName.set(key, ids);
    }
  }
  for (const area of masterData?.areas ?? []) {
    if (typeof area?.areaName !== "string" || !Number.isFinite(area.areaId)) continue;
    const row: CourierArea = {
      areaId: area.areaId,
      governanceId: area.governanceId,
      areaName: area.areaName,
    };
    for (const key of nameKeys(area.areaName)) {
      const rows = byName.get(key) ?? [];
      if (!rows.some((existing) => existing.areaId === row.areaId)) rows.push(row);
      byName.set(key, rows);
    }
  }
  const index: CourierIndex = { byName, governanceByName, governanceNames };
  if (masterData !== null && typeof masterData === "object") indexes.set(masterData, index);
  return index;
}

function lookup(index: CourierIndex, names: readonly string[]): CourierArea[] {
  const found: CourierArea[] = [];
  for (const name of names) {
    for (const key of nameKeys(name)) {
      for (const row of index.byName.get(key) ?? []) {
        if (!found.some((existing) => existing.areaId === row.areaId)) found.push(row);
      }
    }
  }
  return found;
}

function governanceIdsOf(index: CourierIndex, governorate: GazetteerGovernorate): Set<number> {
  const ids = new Set<number>();
  for (const name of [governorate.nameAr, governorate.nameEn, ...governorate.aliases]) {
    for (const key of nameKeys(name))
      for (const id of index.governanceByName.get(key) ?? []) ids.add(id);
  }
  return ids;
}

function spellingAliases(area: GazetteerArea): string[] {
  return area.aliases.filter((alias) => {
    if (!hasArabic(alias)) return false;
    const normalized = normalizeArabic(alias);
    if (SUB_AREA_ALIASES.has(normalized)) return false;
    return !normalized.split(" ").some((word) => PART_WORDS.has(word) || /\d/.test(word));
  });
}

/**
 * Maps a gazetteer area to the courier's governance and area IDs by normalized name: the Arabic
 * name first, then the Arabic spellings among the aliases, then the English names (for couriers
 * whose lists are in English). When the courier has no such area, or several rows fit and the
 * governorate does not single one out, it says so instead of guessing.
 */
export function resolveCourierIds(area: GazetteerArea, index: CourierIndex): CourierResolution {
  // Areas may come back from storage as plain copies; work from the gazetteer's own record.
  const known = typeof area?.nameEn === "string" ? findArea(area.nameEn) : undefined;
  if (known === undefined || index === undefined || index === null) {
    return { status: "missing", reasons: [`"${String(area?.nameEn)}" is not a gazetteer area`] };
  }
  return resolveKnown(known, index);
}

function resolveKnown(area: GazetteerArea, index: CourierIndex): CourierResolution {
  const governorate = governorateOfArea(area);
  const expectedGovernances = governanceIdsOf(index, governorate);
  const steps: [string, string[]][] = [
    ["Arabic name", [area.nameAr]],
    ["Arabic spelling", spellingAliases(area)],
    ["English name", [area.nameEn, ...area.aliases.filter((alias) => !hasArabic(alias))]],
  ];
  for (const [how, names] of steps) {
    let rows = lookup(index, names);
    if (rows.length === 0) continue;
    const reasons: string[] = [];
    if (rows.length > 1) {
      const inGovernorate = rows.filter((row) => expectedGovernances.has(row.governanceId));
      if (inGovernorate.length !== 1) {
        return {
          status: "ambiguous",
          candidates: rows,
          reasons: [
            `the courier lists ${rows.length} areas matching ${area.nameEn} by ${how}: ${rows.map((row) => row.areaName).join(", ")}`,
          ],
        };
      }
      reasons.push(
        `several courier areas match ${area.nameEn}; only one is in ${governorate.nameEn}`,
      );
      rows = inGovernorate;
    }
    const row = rows[0];
    if (row === undefined) continue;
    reasons.unshift(
      `courier area «${row.areaName}» (${row.areaId}) matches ${area.nameEn} by ${how}`,
    );
    if (expectedGovernances.size > 0 && !expectedGovernances.has(row.governanceId)) {
      const courierName = index.governanceNames.get(row.governanceId) ?? String(row.governanceId);
      reasons.push(
        `the courier files it under «${courierName}», not ${governorate.nameEn}; using the courier's governance`,
      );
    }
    return {
      status: "resolved",
      governanceId: row.governanceId,
      areaId: row.areaId,
      courierAreaName: row.areaName,
      reasons,
    };
  }
  return {
    status: "missing",
    reasons: [`the courier's area list has no ${area.nameEn} («${area.nameAr}»)`],
  };
}
