import { editDistance } from "./edit-distance";
import {
  AREAS,
  GOVERNORATES,
  type GazetteerArea,
  type GazetteerGovernorate,
  governorateOfArea,
  requireArea,
} from "./gazetteer";
import { phraseKeys, phraseWords } from "./phrase-keys";

/*
 * Names the matcher must not take at face value: twins (an area named like its governorate, such
 * as Hawalli) and confusable areas, whose spellings differ by a letter or a word (notes, section 5).
 */

// An area named like its governorate (Hawalli, Ahmadi, Jahra): a bare mention may be either.
export const TWIN_GOVERNORATE = new Map<GazetteerArea, GazetteerGovernorate>();

const governorateKeys = new Map<GazetteerGovernorate, Set<string>>();
for (const governorate of GOVERNORATES) {
  const keys = new Set<string>();
  for (const name of [governorate.nameEn, governorate.nameAr, ...governorate.aliases])
    keys.add(phraseKeys(name).key);
  governorateKeys.set(governorate, keys);
}
for (const area of AREAS) {
  const governorate = governorateOfArea(area);
  if (governorateKeys.get(governorate)?.has(phraseKeys(area.nameEn).key))
    TWIN_GOVERNORATE.set(area, governorate);
}

// Areas whose names are easily taken for each other; each area maps to its partners.
export const CONFUSABLE = new Map<GazetteerArea, GazetteerArea[]>();
// prettier-ignore
const CONFUSABLE_GROUPS = [
  ["Riqqa", "Riggae"],
  ["Salmiya", "Salmi"],
  ["Qasr", "Qusour"],
  ["Naeem", "Naayem"],
  ["Surra", "Zahra", "Salam", "Hitteen", "Shuhada", "Siddiq"],
  ["Sulaibikhat", "Sulaibiya", "Nahda"],
  ["Abdullah Al-Salem", "Abdullah Al-Mubarak", "West Abdullah Al-Mubarak", "South Abdullah Al-Mubarak", "Mina Abdullah", "Saad Al-Abdullah"],
  ["Sabah Al-Salem", "Sabah Al-Nasser", "Sabah Al-Ahmad City", "Sabah Al-Ahmad Sea City", "Sabahiya", "South Sabahiya", "Ali Sabah Al-Salem"],
  ["Jaber Al-Ali", "Jaber Al-Ahmad"],
  ["Mubarak Al-Kabeer", "Mubarak Al-Abdullah", "Mubarakiya"],
  ["Kaifan", "Khaitan"],
  ["Doha", "Qairawan"],
];

for (const group of CONFUSABLE_GROUPS) {
  const areas = group.map(requireArea);
  for (const area of areas) {
    const partners = CONFUSABLE.get(area) ?? [];
    partners.push(...areas.filter((other) => other !== area && !partners.includes(other)));
    CONFUSABLE.set(area, partners);
  }
}

// A confusable partner in another governorate and its spellings, as skeleton words.
export interface PartnerSpelling {
  readonly partner: GazetteerArea;
  readonly words: readonly string[];
}
export const PARTNER_SPELLINGS = new Map<GazetteerArea, PartnerSpelling[]>();
for (const [area, partners] of CONFUSABLE) {
  const spellings: PartnerSpelling[] = [];
  for (const partner of partners) {
    if (partner.governorateCode === area.governorateCode) continue;
    for (const name of [partner.nameEn, partner.nameAr, ...partner.aliases]) {
      const words = phraseWords(name);
      if (words.length > 0) spellings.push({ partner, words });
    }
  }
  if (spellings.length > 0) PARTNER_SPELLINGS.set(area, spellings);
}

/**
 * Whether `typed` could be `spelling` with letters or words left out: a truncation ("Salmi" of
 * Salmiya), one letter missing («القصر» of «القصور») or a name missing a word ("Sabah Al Salem" of
 * Ali Sabah Al-Salem). Shoppers drop letters far more often than they add them.
 */
export function leftOutOf(typed: readonly string[], spelling: readonly string[]): boolean {
  const short = typed.join("");
  const long = spelling.join("");
  if (short.length >= long.length || short.length < 3) return false;
  if (long.startsWith(short)) return true;
  if (short.length + 1 === long.length && editDistance(short, long, 1) === 1) return true;
  if (typed.length >= spelling.length) return false;
  for (let start = 0; start + typed.length <= spelling.length; start++) {
    if (typed.every((word, i) => spelling[start + i] === word)) return true;
  }
  return false;
}
