import { foldText, normalizeDigits } from "../../addresses/normalize";

/**
 * A name folded for the area picker's search, the same on the server (the names an area goes by)
 * and in the browser (what the merchant types): case, accents, Arabic letter variants and
 * vowel marks, spaces, hyphens and apostrophes and the article (al-, el-, ال) do not matter.
 */
export function foldForSearch(name: string): string {
  return normalizeDigits(foldText(name))
    .replace(/(^|\s)(al|el)[-\s]+/g, "$1")
    .replace(/(^|\s)ال/g, "$1")
    .replace(/[\s\-'`’.]+/g, "");
}

/** Whether an area's folded names contain what was typed. */
export function areaSearchMatches(search: string, typed: string): boolean {
  const wanted = foldForSearch(typed);
  return wanted === "" || search.includes(wanted);
}
