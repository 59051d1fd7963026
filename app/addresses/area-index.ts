import { TWIN_GOVERNORATE } from "./confusables";
import { ARABIC_DIRECTION, DIRECTION_PHRASES } from "./directions";
import { deletions, editBudget, editDistance } from "./edit-distance";
import {
  AREAS,
  GOVERNORATES,
  type GazetteerArea,
  type GazetteerGovernorate,
  parentOf,
  requireArea,
} from "./gazetteer";
import { phraseKeys } from "./phrase-keys";
import { type Qualifier, qualifierOf } from "./qualifiers";
import { tokenize } from "./tokens";

/*
 * The gazetteer's names as lookup tables: every name, alias and glued spelling by exact key and by
 * transliteration skeleton, a deletion index for the typo search, and what a direction word or a
 * kind of place next to each area's name names.
 */

export type Target =
  | { readonly kind: "area"; readonly area: GazetteerArea }
  | { readonly kind: "governorate"; readonly governorate: GazetteerGovernorate }
  | {
      readonly kind: "umbrella";
      readonly name: string;
      readonly areas: readonly GazetteerArea[];
      readonly governorate: GazetteerGovernorate;
    }
  | { readonly kind: "generic"; readonly name: string };

export interface Entry {
  readonly targets: readonly Target[];
  // An everyday word too (السلام, الظهر, Salwa): weak evidence inside free text.
  readonly weak: boolean;
}

// Names that are also everyday words; a match inside free text is weak unless the context
// (a block right after it, the whole field) says it is the area.
// prettier-ignore
const WEAK_NAMES = [
  "السلام", "سلام", "الري", "الشعب", "القصر", "الواحة", "العيون", "شرق", "الشرق", "الصديق", "الروضة",
  "النزهة", "الفردوس", "المطار", "الظهر", "هدية", "الصبية", "النعيم", "النسيم", "الرحاب", "بيان",
  "مشرف", "الدوحة", "البدع", "الزور", "الشهداء", "الوزارات", "Salam", "Salaam", "Al Salam", "Rai",
  "Al Rai", "Ray", "Al Ray", "Shark", "Airport", "Airport Area", "Seville", "Cordoba", "Andalusia",
  "Free Zone", "Central Area", "Doha", "Salwa", "Zahra", "Hadiya", "Rehab", "Bayan", "Naeem",
  "Naseem", "Taima", "Ministries Zone",
];

// Kuwait as a country, or Kuwait City typed generically into the city field.
// prettier-ignore
const GENERIC_NAMES = [
  "Kuwait", "State of Kuwait", "KWT", "الكويت", "دولة الكويت", "Kuwait City", "Al Kuwait City",
  "Madinat Al Kuwait", "مدينة الكويت", "Al Kuwayt",
];

// "South Surra" is a district group in Hawalli, not one area (see the notes, section 1).
// prettier-ignore
const SOUTH_SURRA = ["South Surra", "South Sura", "South Al Surra", "Janoub Surra", "Janub Al Surra", "جنوب السرة", "جنوب سرة"];
const SOUTH_SURRA_AREAS = ["Zahra", "Salam", "Hitteen", "Shuhada", "Siddiq"];

// Spellings that fit two areas equally (notes, section 5): "Rigga" is Riqqa or Riggae.
const AMBIGUOUS_NAMES: readonly (readonly [string, readonly string[]])[] = [
  ["Rigga", ["Riqqa", "Riggae"]],
  ["Al Rigga", ["Riqqa", "Riggae"]],
  ["Rigge", ["Riqqa", "Riggae"]],
];

// Bare zone codes ("HA", "KU") are noise in free text; "KW-HA" is kept.
const DROPPED_GOVERNORATE_ALIAS = /^[A-Z]{2}$/;

// Words that mark one part of a twin name as the town, not the governorate.
// prettier-ignore
const TOWN_QUALIFIERS = new Set(
  ["city", "old", "east", "west", "north", "south", "middle", "wasat", "مدينة", "القديمة", "شرق", "غرب", "شمال", "جنوب", "وسط"].map(
    (word) => phraseKeys(word).key,
  ),
);

// Words a name carries besides the place: "Ardiya Craft Area", «منطقة الشويخ الصحية».
const NAME_FILLERS = new Set(
  ["area", "zone", "region", "district", "city", "منطقة", "مدينة"].map(
    (word) => tokenize(word)[0]?.skel ?? word,
  ),
);

export interface AreaIndex {
  readonly exact: ReadonlyMap<string, Entry>;
  readonly skeleton: ReadonlyMap<string, Entry>;
  // Symmetric-deletion index for typo search (variant → skeleton keys).
  readonly deletions: ReadonlyMap<string, readonly string[]>;
  readonly sortedSkeletons: readonly string[];
  readonly nameParts: ReadonlySet<string>;
  readonly wordAreas: ReadonlyMap<string, ReadonlySet<GazetteerArea>>;
  readonly maxWords: number;
  // Per area and direction phrase ("west", "north west"): what "West <name>" names, when the
  // gazetteer knows it (West Mishref is Mubarak Al-Abdullah; South Surra is an umbrella).
  readonly directional: ReadonlyMap<GazetteerArea, ReadonlyMap<string, readonly Target[]>>;
  // Per area and kind of place: what "<name> farms" names, read from the gazetteer's own names
  // (Sulaibiya farms is Sulaibiya Agricultural, Wafra farms is Wafra, Ahmadi port is Mina
  // Al-Ahmadi). A kind the gazetteer does not list for the area ("Jahra farms") has no entry.
  readonly qualified: ReadonlyMap<GazetteerArea, ReadonlyMap<Qualifier, readonly GazetteerArea[]>>;
  // Per area, the skeletons of all its names.
  readonly nameSkeletons: ReadonlyMap<GazetteerArea, readonly string[]>;
}

function sameTarget(a: Target, b: Target): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "area":
      return a.area === (b as typeof a).area;
    case "governorate":
      return a.governorate === (b as typeof a).governorate;
    case "umbrella":
    case "generic":
      return a.name === (b as typeof a).name;
  }
}

function buildIndex(): AreaIndex {
  const exact = new Map<string, { targets: Target[]; weak: boolean }>();
  const skeleton = new Map<string, { targets: Target[]; weak: boolean }>();
  const weakKeys = new Set(WEAK_NAMES.map((name) => phraseKeys(name).key));
  // Compared as typed-in keys, so «مدينه الكويت» (an alias of Kuwait City) is generic as well.
  const genericKeys = new Set(GENERIC_NAMES.map((name) => phraseKeys(name).key));
  const isGeneric = (name: string): boolean => genericKeys.has(phraseKeys(name).key);
  const singleWords = new Map<string, Set<string>>();
  const innerWordAreas = new Map<string, Set<string>>();
  const wordAreas = new Map<string, Set<GazetteerArea>>();
  let maxWords = 1;

  // Skeletons of names as written, as opposed to their glued forms only.
  const writtenSkeletons = new Set<string>();
  const addKeys = (name: string, target: Target, glued = false): { key: string; words: number } => {
    const { key, skel, words } = phraseKeys(name);
    if (key === "" || words > 5) return { key: "", words };
    if (!glued) writtenSkeletons.add(skel);
    for (const [map, k] of [
      [exact, key],
      [skeleton, skel],
    ] as const) {
      const entry = map.get(k) ?? { targets: [], weak: false };
      if (!entry.targets.some((existing) => sameTarget(existing, target)))
        entry.targets.push(target);
      entry.weak ||= weakKeys.has(key);
      map.set(k, entry);
    }
    return { key, words };
  };

  const add = (name: string, target: Target, owner = ""): void => {
    const { key, words } = addKeys(name, target);
    if (key === "") return;
    maxWords = Math.max(maxWords, words);
    const all = tokenize(name);
    // Typed without spaces: "SabahAlSalem", "sabahsalem", «صباحالسالم». One word is read with a
    // single skeleton, which differs from the words' skeletons joined, so it needs its own key.
    if (words > 1 && all.every((token) => token.kind === "word")) {
      addKeys(all.map((token) => token.raw).join(""), target, true);
      if (all.some((token) => token.article)) {
        addKeys(
          all
            .filter((token) => !token.article)
            .map((token) => token.raw)
            .join(""),
          target,
          true,
        );
      }
    }
    const tokens = all.filter((token) => token.kind === "word" && !token.article);
    if (target.kind === "area") {
      for (const token of tokens) {
        const areas = wordAreas.get(token.skel) ?? new Set<GazetteerArea>();
        areas.add(target.area);
        wordAreas.set(token.skel, areas);
      }
    }
    if (tokens.length === 1) {
      const owners = singleWords.get(tokens[0]?.skel ?? "") ?? new Set<string>();
      owners.add(owner);
      singleWords.set(tokens[0]?.skel ?? "", owners);
    } else {
      for (const token of tokens) {
        const owners = innerWordAreas.get(token.skel) ?? new Set<string>();
        owners.add(owner);
        innerWordAreas.set(token.skel, owners);
      }
    }
  };

  for (const governorate of GOVERNORATES) {
    for (const name of [governorate.nameEn, governorate.nameAr, ...governorate.aliases]) {
      if (DROPPED_GOVERNORATE_ALIAS.test(name) || isGeneric(name)) continue;
      add(name, { kind: "governorate", governorate }, governorate.code);
    }
  }
  for (const area of AREAS) {
    const twin = TWIN_GOVERNORATE.get(area);
    for (const name of [area.nameEn, area.nameAr, ...area.aliases]) {
      if (isGeneric(name)) continue;
      add(name, { kind: "area", area }, area.nameEn);
      // A twin's unqualified spellings ("7wly", "Hwalli") name the governorate as much as the town.
      if (twin !== undefined) {
        const qualified = tokenize(name).some((token) => TOWN_QUALIFIERS.has(token.key));
        if (!qualified) add(name, { kind: "governorate", governorate: twin }, area.nameEn);
      }
    }
  }
  const hawalli = GOVERNORATES.find((governorate) => governorate.code === "KW-HA");
  if (hawalli === undefined) throw new Error("gazetteer lacks KW-HA");
  const southSurra: Target = {
    kind: "umbrella",
    name: "South Surra",
    areas: SOUTH_SURRA_AREAS.map(requireArea),
    governorate: hawalli,
  };
  for (const name of SOUTH_SURRA) add(name, southSurra);
  for (const name of GENERIC_NAMES) add(name, { kind: "generic", name: "Kuwait" });
  for (const [name, areas] of AMBIGUOUS_NAMES) {
    for (const area of areas) add(name, { kind: "area", area: requireArea(area) });
  }

  const deletionIndex = new Map<string, string[]>();
  for (const key of skeleton.keys()) {
    if (key.length < 4) continue;
    // A glued form is long; one typo in it is enough to look for, and keeps the index small.
    const budget = writtenSkeletons.has(key) ? editBudget(key.length) : 1;
    for (const variant of deletions(key, budget)) {
      const keys = deletionIndex.get(variant);
      if (keys === undefined) deletionIndex.set(variant, [key]);
      else keys.push(key);
    }
  }
  // Shared by several names (Sabah, Salem, Abdullah, South): on its own it names none of them.
  // Unless it spells the one-word name of one of those: "Jeleeb" (West Jeleeb, Jeleeb Al-Shuyoukh) is Jleeb.
  const spellsOwnName = (word: string, owners: Set<string>): boolean => {
    for (const [single, singleOwners] of singleWords) {
      if (![...singleOwners].some((owner) => owners.has(owner))) continue;
      if (editDistance(word, single, 1) <= 1) return true;
    }
    return false;
  };
  const nameParts = new Set(
    [...innerWordAreas]
      .filter(([word, owners]) => owners.size > 1 && !spellsOwnName(word, owners))
      .map(([word]) => word),
  );
  const directional = new Map<GazetteerArea, Map<string, Target[]>>();
  for (const area of AREAS) {
    for (const directions of DIRECTION_PHRASES) {
      const phrase = directions.join(" ");
      const arabic = directions.map((direction) => ARABIC_DIRECTION[direction]).join(" ");
      const targets: Target[] = [];
      for (const name of [area.nameEn, area.nameAr, ...area.aliases]) {
        const words = /[\u0600-\u06ff]/.test(name) ? arabic : phrase;
        const entry = skeleton.get(phraseKeys(`${words} ${name}`).skel);
        for (const target of entry?.targets ?? []) {
          if (target.kind !== "area" && target.kind !== "umbrella") continue;
          if (!targets.some((existing) => sameTarget(existing, target))) targets.push(target);
        }
      }
      if (targets.length === 0) continue;
      const byPhrase = directional.get(area) ?? new Map<string, Target[]>();
      byPhrase.set(phrase, targets);
      directional.set(area, byPhrase);
    }
  }
  const qualified = new Map<GazetteerArea, Map<Qualifier, GazetteerArea[]>>();
  for (const area of AREAS) {
    for (const name of [area.nameEn, area.nameAr, ...area.aliases]) {
      const tokens = tokenize(name);
      if (tokens.some((token) => token.kind !== "word")) continue;
      const words = tokens.filter((token) => !token.article && !NAME_FILLERS.has(token.skel));
      words.forEach((word, j) => {
        const qualifier = qualifierOf(word);
        if (qualifier === undefined || words.length < 2) return;
        // Exact keys: skeletons would make "Naayim Industrial" a part of Naeem too.
        const rest = words.filter((_, k) => k !== j).map((token) => token.key);
        for (const target of exact.get(rest.join(""))?.targets ?? []) {
          if (target.kind !== "area") continue;
          const byQualifier = qualified.get(target.area) ?? new Map<Qualifier, GazetteerArea[]>();
          const places = byQualifier.get(qualifier) ?? [];
          if (!places.includes(area)) places.push(area);
          byQualifier.set(qualifier, places);
          qualified.set(target.area, byQualifier);
        }
      });
    }
  }
  const nameSkeletons = new Map<GazetteerArea, string[]>();
  for (const area of AREAS) {
    const skeletons = [area.nameEn, area.nameAr, ...area.aliases].map(
      (name) => phraseKeys(name).skel,
    );
    nameSkeletons.set(
      area,
      [...new Set(skeletons)].filter((skel) => skel !== ""),
    );
  }
  return {
    exact,
    skeleton,
    deletions: deletionIndex,
    sortedSkeletons: [...skeleton.keys()].sort(),
    nameParts,
    wordAreas,
    maxWords,
    directional,
    qualified,
    nameSkeletons,
  };
}

export const AREA_INDEX: AreaIndex = buildIndex();

// Whole → the places named as a part of it: Ardiya → Ardiya Industrial and Ardiya Stores (from
// the names), Shuwaikh Residential → Shuwaikh Medical (from the gazetteer's partOf).
const partsOf = new Map<GazetteerArea, Set<GazetteerArea>>();
function addPart(whole: GazetteerArea, part: GazetteerArea): void {
  if (whole === part) return;
  const parts = partsOf.get(whole) ?? new Set<GazetteerArea>();
  parts.add(part);
  partsOf.set(whole, parts);
}
for (const [whole, byQualifier] of AREA_INDEX.qualified) {
  for (const places of byQualifier.values()) for (const place of places) addPart(whole, place);
}
for (const area of AREAS) {
  const parent = parentOf(area);
  if (parent !== undefined) addPart(parent, area);
}

/**
 * Whether some name of `longer` contains some name of `shorter`: West Abu Fatira contains Abu
 * Fatira, North West Sulaibikhat contains Sulaibikhat, Wafra Farms does not contain Jahra.
 */
export function containsName(longer: GazetteerArea, shorter: GazetteerArea): boolean {
  const inner = AREA_INDEX.nameSkeletons.get(shorter) ?? [];
  return (AREA_INDEX.nameSkeletons.get(longer) ?? []).some((outer) =>
    inner.some((name) => name.length >= 3 && outer !== name && outer.includes(name)),
  );
}

/** Whether `part` names a part of `whole`: Ardiya Industrial of Ardiya, the Shuwaikh health area of Shuwaikh. */
export function isPartOf(part: GazetteerArea, whole: GazetteerArea): boolean {
  return partsOf.get(whole)?.has(part) ?? false;
}
