import {
  AREAS,
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
  /** Every area row with the words of its name («شاليهات الخيران» → شاليهات, خيران). */
  readonly rows: readonly { readonly row: CourierArea; readonly words: readonly string[] }[];
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

// A courier row that adds one of these to an area's name is one part of it: «الخيران السكنية»
// beside «شاليهات الخيران» (notes, section 5: Khairan, Wafra, Sabah Al-Ahmad, Shuwaikh, Ardiya…).
const QUALIFIER_WORDS = new Set(["سكنيه", "residential"]);

// Spelling only: transliteration skeletons would make Naeem and Naayem one name.
function latinWords(name: string): string[] {
  const words = foldText(name).match(/[a-z0-9]+/g) ?? [];
  return words.filter((word) => !LATIN_ARTICLES.has(word)).map(latinWordKey);
}

function nameWords(name: string): string[] {
  return hasArabic(name) ? normalizeArabic(name).split(" ").filter(Boolean) : latinWords(name);
}

function nameKeys(name: string): string[] {
  const words = nameWords(name);
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
  const rows: { row: CourierArea; words: string[] }[] = [];
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
      const named = byName.get(key) ?? [];
      if (!named.some((existing) => existing.areaId === row.areaId)) named.push(row);
      byName.set(key, named);
    }
    rows.push({ row, words: nameWords(area.areaName).filter((word) => !GENERIC_WORDS.has(word)) });
  }
  const index: CourierIndex = { byName, governanceByName, governanceNames, rows };
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

const resolutions = new WeakMap<CourierIndex, Map<GazetteerArea, CourierResolution>>();

/**
 * Maps a gazetteer area to the courier's governance and area IDs by normalized name: the Arabic
 * name first, then the Arabic spellings among the aliases, then the English names (for couriers
 * whose lists are in English). When the courier has no such area, when several rows fit and the
 * governorate does not single one out, or when the courier splits the area into parts (Khairan
 * residential and chalets), it says so instead of guessing.
 */
export function resolveCourierIds(area: GazetteerArea, index: CourierIndex): CourierResolution {
  // Areas may come back from storage as plain copies; work from the gazetteer's own record.
  const known = typeof area?.nameEn === "string" ? findArea(area.nameEn) : undefined;
  if (known === undefined || index === undefined || index === null) {
    return { status: "missing", reasons: [`"${String(area?.nameEn)}" is not a gazetteer area`] };
  }
  let cache = resolutions.get(index);
  if (cache === undefined) {
    cache = new Map();
    resolutions.set(index, cache);
  }
  const cached = cache.get(known);
  if (cached !== undefined) return cached;
  const resolution = withSubAreas(known, index, resolveByName(known, index));
  cache.set(known, resolution);
  return resolution;
}

const claims = new WeakMap<CourierIndex, Map<number, GazetteerArea[]>>();

// Which gazetteer areas each courier row is found for by name alone.
function claimsOf(index: CourierIndex): Map<number, GazetteerArea[]> {
  const cached = claims.get(index);
  if (cached !== undefined) return cached;
  const byRow = new Map<number, GazetteerArea[]>();
  for (const area of AREAS) {
    const resolution = resolveByName(area, index);
    if (resolution.status !== "resolved") continue;
    const areas = byRow.get(resolution.areaId) ?? [];
    areas.push(area);
    byRow.set(resolution.areaId, areas);
  }
  claims.set(index, byRow);
  return byRow;
}

function containsRun(words: readonly string[], run: readonly string[]): boolean {
  if (run.length === 0 || run.length > words.length) return false;
  for (let start = 0; start + run.length <= words.length; start++) {
    if (run.every((word, i) => words[start + i] === word)) return true;
  }
  return false;
}

function coreWords(name: string): string[] {
  return nameWords(name).filter((word) => !GENERIC_WORDS.has(word) && !QUALIFIER_WORDS.has(word));
}

/**
 * Courier rows in the same governance whose names contain the area's core name and that are no
 * other gazetteer area's: «شاليهات الخيران» and «الخيران السكنية» for Khairan, «صباح الأحمد 3»
 * for Sabah Al-Ahmad City. When there are any, which one the customer means is a question.
 */
function withSubAreas(
  area: GazetteerArea,
  index: CourierIndex,
  resolution: CourierResolution,
): CourierResolution {
  if (resolution.status === "ambiguous") return resolution;
  const chosen =
    resolution.status === "resolved"
      ? index.rows.find(({ row }) => row.areaId === resolution.areaId)?.row
      : undefined;
  const governances =
    chosen !== undefined
      ? new Set([chosen.governanceId])
      : governanceIdsOf(index, governorateOfArea(area));
  const cores = [coreWords(area.nameAr), coreWords(area.nameEn)].filter((core) => core.length > 0);
  const claimed = claimsOf(index);
  const parts = index.rows
    .filter(({ row, words }) => {
      if (row.areaId === chosen?.areaId) return false;
      if (governances.size > 0 && !governances.has(row.governanceId)) return false;
      if ((claimed.get(row.areaId) ?? []).some((other) => other !== area)) return false;
      return cores.some((core) => containsRun(words, core));
    })
    .map(({ row }) => row);
  if (parts.length === 0) return resolution;
  const candidates = chosen === undefined ? parts : [chosen, ...parts];
  const names = candidates.map((row) => `«${row.areaName}»`).join(", ");
  return {
    status: "ambiguous",
    candidates,
    reasons: [
      `the courier splits ${area.nameEn} into ${candidates.length} areas (${names}): which one the customer means is not said`,
    ],
  };
}

function resolveByName(area: GazetteerArea, index: CourierIndex): CourierResolution {
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

/** The gazetteer area a courier row stands for, or why none does. */
export type CourierAreaPlace =
  | { readonly status: "found"; readonly area: GazetteerArea }
  | { readonly status: "none"; readonly reason: string };

/**
 * The gazetteer area whose resolution gives this courier row, found through the courier's own
 * index, so rows spelled the courier's way («جابريه», «عبدالله السالم») are found too. Used to
 * remember a merchant's answer: the matcher must reach the same row again from the area.
 */
export function gazetteerAreaFor(areaId: number, index: CourierIndex): CourierAreaPlace {
  const row = index?.rows.find((candidate) => candidate.row.areaId === areaId)?.row;
  if (row === undefined) {
    return { status: "none", reason: `the courier's area list has no area ${String(areaId)}` };
  }
  const found: GazetteerArea[] = [];
  const splitting: GazetteerArea[] = [];
  for (const area of AREAS) {
    const resolution = resolveCourierIds(area, index);
    if (resolution.status === "resolved" && resolution.areaId === areaId) found.push(area);
    else if (
      resolution.status === "ambiguous" &&
      resolution.candidates.some((candidate) => candidate.areaId === areaId)
    )
      splitting.push(area);
  }
  const [only] = found;
  if (found.length === 1 && only !== undefined) return { status: "found", area: only };
  const names = (areas: readonly GazetteerArea[]) => areas.map((area) => area.nameEn).join(", ");
  if (found.length > 1) {
    return {
      status: "none",
      reason: `the courier's «${row.areaName}» stands for several areas (${names(found)})`,
    };
  }
  if (splitting.length > 0) {
    return {
      status: "none",
      reason: `the courier's «${row.areaName}» is one of several courier areas for ${names(splitting)}, so a remembered ${names(splitting)} would still be asked about`,
    };
  }
  return {
    status: "none",
    reason: `no area of the gazetteer matches the courier's «${row.areaName}»`,
  };
}
