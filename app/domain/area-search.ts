import { foldText, hasArabic, normalizeDigits, normalizeLatin } from "../addresses/normalize";

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

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1)
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * How well an area matches what was typed, lower first: a name that starts with it, one that
 * contains it, then by how few letters separate it from the nearest name («slmya»: Salmiya
 * before Salam).
 */
export function areaSearchRank(search: string, typed: string): number {
  const wanted = foldForSearch(typed);
  const names = (search.split("|")[0] ?? "").split(" ");
  if (names.some((name) => name.startsWith(wanted))) return 0;
  if (names.some((name) => name.includes(wanted))) return 1;
  return 2 + Math.min(...names.map((name) => editDistance(wanted, name)));
}
