import {
  AREA_WORDS,
  FILLER_WORDS,
  GIVEN_NAMES,
  LANDMARK_WORDS,
  NEVER_FUZZY,
} from "./context-words";
import { directionOf } from "./directions";
import { kindOf } from "./evidence";
import { governorateOf } from "./gazetteer";
import { PART_CODE, type FieldAnalysis, type Mention } from "./mentions";
import type { FieldName, Token } from "./tokens";

/**
 * The key under which a merchant's answer is remembered, or why the address cannot be remembered.
 * Only place words go into it, in the order typed and in their own spelling, with the province
 * code: "Abdullah Al-Mubarak" and "Mubarak Al-Abdullah", Naeem and Naayem, Slmya in KW-HA and in
 * KW-AH all get different keys. An address that names only a governorate, a twin name (Hawalli)
 * or nothing but generic words, numbers and notes gets none: remembering it would decide every
 * order written that way.
 */
export type OverrideKey =
  | { readonly key: string; readonly refusal: null }
  | { readonly key: null; readonly refusal: string };

const MAX_KEY_LENGTH = 200;
// A field without parts that holds only a short phrase ("Slmya" in address2 or zip) is a place.
const MAX_BARE_FIELD_WORDS = 3;

interface PlaceWord {
  readonly text: string;
  // A governorate, a twin name or a direction word: not enough on its own.
  readonly weak: boolean;
}

function wordText(token: Token): string {
  return token.kind === "number" ? token.norm : token.key;
}

function isPlainWeak(mention: Mention): boolean {
  return mention.weak && !(mention.blockAfter || mention.areaWordBefore || mention.alone);
}

// Words of the gazetteer names found, except landmarks, street names and everyday words.
function mentionWords(
  analysis: FieldAnalysis,
  mentions: readonly Mention[],
  out: (PlaceWord | undefined)[],
): void {
  for (const mention of mentions) {
    if (mention.field !== analysis.field || mention.landmark || mention.inStreet) continue;
    if (isPlainWeak(mention)) continue;
    const kind = kindOf(mention);
    if (kind === "generic" || kind === "none") continue;
    // "Jahra farms" is a place, not the governorate: its kind of place makes it rememberable.
    const weak = (kind === "governorate" || kind === "twin") && mention.qualifierNear === null;
    for (let i = mention.from; i <= mention.to; i++) {
      const token = analysis.tokens[i];
      if (token === undefined || token.article || analysis.used[i]) continue;
      out[i] = { text: wordText(token), weak };
    }
  }
}

function isUnknownPlaceWord(analysis: FieldAnalysis, i: number): boolean {
  const token = analysis.tokens[i];
  return (
    token !== undefined &&
    token.kind === "word" &&
    !token.article &&
    analysis.used[i] === 0 &&
    analysis.mentioned[i] === 0 &&
    !FILLER_WORDS.has(token.key) &&
    !AREA_WORDS.has(token.key) &&
    !LANDMARK_WORDS.has(token.key) &&
    !NEVER_FUZZY.has(token.skel) &&
    !GIVEN_NAMES.has(token.skel)
  );
}

// Words the gazetteer does not know, where the area is usually written: anywhere in the city
// field; elsewhere right before a block ("Msayil blk 3"), after "area"/«منطقة», or as the whole of
// a short field without parts. Words after "near"/«قرب» describe a landmark and are left out, as
// are words elsewhere in a line, which are as often names and delivery notes as places.
function unknownWords(analysis: FieldAnalysis, out: (PlaceWord | undefined)[]): void {
  const { tokens, used } = analysis;
  const anyParts = used.some((code) => code !== 0 && code !== 9);
  let content = 0;
  tokens.forEach((token, i) => {
    if (!token.article && (token.kind === "word" || token.kind === "number") && used[i] !== 9)
      content++;
  });
  let inLandmark = false;
  let run: number[] = [];
  const close = (next: number): void => {
    if (run.length === 0) return;
    const first = run[0] ?? 0;
    let before = first - 1;
    while (before >= 0 && tokens[before]?.article) before--;
    let after = next;
    while (after < tokens.length && tokens[after]?.article) after++;
    const keep =
      analysis.field === "city" ||
      used[after] === PART_CODE.block ||
      AREA_WORDS.has(tokens[before]?.key ?? "") ||
      (!anyParts && content <= MAX_BARE_FIELD_WORDS);
    if (keep) {
      for (const i of run) {
        const token = tokens[i] as Token;
        // "West" alone says nothing; "West Msayil" does.
        out[i] = { text: wordText(token), weak: directionOf(token)?.form === "word" };
      }
    }
    run = [];
  };
  tokens.forEach((token, i) => {
    if (token.kind === "break" || token.kind === "alt" || used[i]) inLandmark = false;
    if (LANDMARK_WORDS.has(token.key)) inLandmark = true;
    if (token.article) return;
    if (!inLandmark && out[i] === undefined && isUnknownPlaceWord(analysis, i)) run.push(i);
    else close(i);
  });
  close(tokens.length);
}

// Runs of place words, one phrase per run: "jnoob alsurra", "abdullah mubarak".
function phrases(analysis: FieldAnalysis, mentions: readonly Mention[]): PlaceWord[][] {
  const words: (PlaceWord | undefined)[] = new Array(analysis.tokens.length);
  mentionWords(analysis, mentions, words);
  unknownWords(analysis, words);
  const out: PlaceWord[][] = [];
  let current: PlaceWord[] = [];
  analysis.tokens.forEach((token, i) => {
    const word = words[i];
    if (word !== undefined) current.push(word);
    else if (!token.article && current.length > 0) {
      out.push(current);
      current = [];
    }
  });
  if (current.length > 0) out.push(current);
  return out;
}

/** Builds the key from an analysed address (see {@link OverrideKey}). */
export function buildOverrideKey(
  analyses: ReadonlyMap<FieldName, FieldAnalysis>,
  mentions: readonly Mention[],
  provinceCode: string,
): OverrideKey {
  const seen = new Set<string>();
  const kept: string[] = [];
  let strong = false;
  for (const analysis of analyses.values()) {
    for (const phrase of phrases(analysis, mentions)) {
      const text = phrase.map((word) => word.text).join(" ");
      if (seen.has(text)) continue;
      seen.add(text);
      kept.push(text);
      strong ||= phrase.some((word) => !word.weak);
    }
  }
  if (kept.length === 0) {
    return {
      key: null,
      refusal:
        "the address has no place name to remember, only generic words (Kuwait), numbers, landmarks or notes",
    };
  }
  if (!strong) {
    return {
      key: null,
      refusal: `the address names only a governorate or a town with a governorate's name (${kept.join(", ")}); remembering it would decide every order written that way`,
    };
  }
  const province = governorateOf(provinceCode)?.code ?? "";
  return { key: `${province}|${kept.join(", ")}`.slice(0, MAX_KEY_LENGTH), refusal: null };
}
