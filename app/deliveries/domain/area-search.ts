import { foldText, hasArabic, normalizeDigits, normalizeLatin } from "../../addresses/normalize";

/**
 * The area picker's search, the same on the server (the names an area goes by) and in the
 * browser (what the merchant types): case, accents, Arabic letter variants and vowel marks,
 * spaces, hyphens, apostrophes and the article (al-, el-, ال) do not matter, and a Latin name
 * is found by its consonants too, as shoppers write it («slmya», «7awalli», «mshrf»).
 */
export function foldForSearch(name: string): string {
  return normalizeDigits(foldText(name))
    .replace(/(^|\s)(al|el)[-\s]+/g, "$1")
    .replace(/(^|\s)ال/g, "$1")
    .replace(/[\s\-'`’.]+/g, "");
}

/** A Latin name's consonants after folding transliteration variants (q/g/k, kh/k, Arabizi). */
function consonants(text: string): string {
  return normalizeLatin(text).replace(/[\saeiou]/g, "");
}

/** The text an area is searched in: every name folded, and each Latin one's consonants. */
export function searchText(names: readonly string[]): string {
  const folded = names.map(foldForSearch);
  const skeletons = names.filter((name) => !hasArabic(name)).map((name) => `~${consonants(name)}`);
  return `${[...new Set(folded)].join(" ")}|${[...new Set(skeletons)].join(" ")}`;
}

/** Whether an area's search text holds what was typed. */
export function areaSearchMatches(search: string, typed: string): boolean {
  const [names = "", skeletons = ""] = search.split("|");
  const wanted = foldForSearch(typed);
  if (wanted === "" || names.includes(wanted)) return true;
  if (hasArabic(typed)) return false;
  const skeleton = consonants(typed);
  return skeleton.length >= 3 && skeletons.includes(`~${skeleton}`);
}
