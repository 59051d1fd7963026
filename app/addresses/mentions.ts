import { AREA_INDEX, type Entry, type Target } from "./area-index";
import {
  AREA_WORDS,
  FILLER_WORDS,
  GREETINGS,
  HONORIFICS,
  LANDMARK_GLUE,
  LANDMARK_WORDS,
  PLACE_NOUNS,
  PLACE_NOUNS_BEFORE,
  PERSON_AFTER,
  PERSON_VERB_SUBJECTS,
  PERSON_VERBS,
  PERSON_WORDS,
  REGIONAL_PLACE_NOUNS,
} from "./context-words";
import type { GazetteerArea } from "./gazetteer";
import { type PartHit, type PartName, extractNamedStreets, extractNumberedParts } from "./parts";
import { type FieldName, type Token, tokenize } from "./tokens";

/*
 * Finding the names in an address: each field is tokenized, its numbered parts are taken out,
 * then gazetteer names are looked up as n-grams (exact key, then transliteration skeleton) and,
 * only when no area name was found anywhere, by bounded edit distance (fuzzy-mentions.ts). A name
 * with a direction or a kind of place beside it is re-read in name-phrases.ts.
 */

// How far back from a name "near"/«مقابل» still opens the phrase it is in:
// "next to the Sheikh Jaber Al Ahmad mosque".
const LANDMARK_REACH = 6;

export const PART_CODE: Record<PartName, number> = {
  block: 1,
  street: 2,
  avenue: 3,
  house: 4,
  building: 5,
  floor: 6,
  apartment: 7,
  paci: 8,
};

export interface FieldAnalysis {
  readonly field: FieldName;
  readonly tokens: readonly Token[];
  // Per token: 0 free, else the PART_CODE that used it (9: noise such as a greeting).
  readonly used: Uint8Array;
  readonly mentioned: Uint8Array;
  readonly numbered: PartHit[];
  named: PartHit[];
}

export type Via = "exact" | "skeleton" | "fuzzy";

export interface Mention {
  readonly field: FieldName;
  readonly from: number;
  readonly to: number;
  readonly targets: readonly Target[];
  readonly weak: boolean;
  readonly via: Via;
  readonly distance: number;
  readonly length: number;
  readonly text: string;
  readonly blockAfter: boolean;
  readonly areaWordBefore: boolean;
  // As a landmark: after "near"/«قرب» in the same phrase, or a person's name after "Sheikh".
  readonly landmark: boolean;
  // Followed by a kind of place ("Adan hospital"): that place, which may be in another area.
  readonly namesPlace: boolean;
  // Followed by a place that serves a region ("Adan hospital", "Fahaheel expressway"): only that
  // place, which is often in another area.
  readonly namesRegionalPlace: boolean;
  // A person's name ("this is Rawda", «معك سلوى»), not a place.
  readonly person: boolean;
  readonly alternative: boolean;
  alone: boolean;
  inStreet: boolean;
  // A direction word next to the name that names no part of it ("North Salmiya").
  directionNear: string | null;
  // A one-letter abbreviation read as a direction ("S Doha" as South Doha): a guess.
  directionLetter: string | null;
  // A kind of place next to the name that the gazetteer does not list for the area ("Jahra
  // farms", "Rai warehouses"): some part of it, perhaps one the courier lists apart.
  qualifierNear: string | null;
}

export function analyzeField(field: FieldName, text: string): FieldAnalysis {
  const tokens = tokenize(text);
  const used = new Uint8Array(tokens.length);
  markGreetings(tokens, used);
  const numbered = extractNumberedParts(tokens, used);
  for (const hit of numbered) used.fill(PART_CODE[hit.part], hit.from, hit.to + 1);
  return { field, tokens, used, mentioned: new Uint8Array(tokens.length), numbered, named: [] };
}

function markGreetings(tokens: readonly Token[], used: Uint8Array): void {
  for (let i = 0; i + 1 < tokens.length; i++) {
    const first = tokens[i]?.key;
    const second = tokens[i + 1]?.key;
    if (first === undefined || second === undefined) continue;
    for (const [greeting, replies] of GREETINGS) {
      if (first === greeting && replies.includes(second)) used.fill(9, i, i + 2);
    }
  }
}

export function segments(analysis: FieldAnalysis): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  analysis.tokens.forEach((token, i) => {
    const free = analysis.used[i] === 0 && (token.kind === "word" || token.kind === "number");
    if (free && token.article) return; // articles glue names together: "Sabah Al Salem"
    if (free) current.push(i);
    else if (current.length > 0) {
      out.push(current);
      current = [];
    }
  });
  if (current.length > 0) out.push(current);
  return out;
}

function previousWord(
  tokens: readonly Token[],
  from: number,
  skip: ReadonlySet<string>,
): Token | undefined {
  for (let i = from - 1, looked = 0; i >= 0 && looked < 3; i--) {
    const token = tokens[i];
    if (token === undefined || token.kind === "break" || token.kind === "alt") return undefined;
    if (token.article || skip.has(token.key)) {
      looked++;
      continue;
    }
    return token;
  }
  return undefined;
}

// Whether "near"/«مقابل» opens the phrase that tokens[from] is in: no break or address part in
// between.
function inLandmarkPhrase(analysis: FieldAnalysis, from: number): boolean {
  const { tokens, used } = analysis;
  for (let i = from - 1, seen = 0; i >= 0 && seen < LANDMARK_REACH; i--) {
    const token = tokens[i];
    if (token === undefined || token.kind === "break" || token.kind === "alt" || used[i])
      return false;
    if (LANDMARK_WORDS.has(token.key)) return true;
    if (!token.article) seen++;
  }
  return false;
}

export function nextWord(tokens: readonly Token[], to: number): Token | undefined {
  let next = to + 1;
  while (tokens[next]?.article) next++;
  const token = tokens[next];
  return token?.kind === "word" ? token : undefined;
}

function regionalPlaceAfter(tokens: readonly Token[], to: number): boolean {
  const first = nextWord(tokens, to);
  if (first === undefined) return false;
  if (REGIONAL_PLACE_NOUNS.has(first.key)) return true;
  const second = nextWord(tokens, tokens.indexOf(first));
  return second !== undefined && REGIONAL_PLACE_NOUNS.has(second.key);
}

function personBefore(tokens: readonly Token[], from: number): boolean {
  const before = previousWord(tokens, from, NO_WORDS);
  if (before === undefined) return false;
  if (PERSON_WORDS.has(before.key)) return true;
  if (!PERSON_VERBS.has(before.key)) return false;
  const subject = previousWord(tokens, tokens.indexOf(before), NO_WORDS);
  return subject !== undefined && PERSON_VERB_SUBJECTS.has(subject.key);
}

function personAfter(tokens: readonly Token[], to: number): boolean {
  const next = tokens[to + 1];
  return next?.kind === "word" && PERSON_AFTER.has(next.key);
}

const NO_WORDS: ReadonlySet<string> = new Set();

export function makeMention(
  analysis: FieldAnalysis,
  from: number,
  to: number,
  entry: Entry,
  via: Via,
  distance: number,
  length: number,
): Mention {
  const { tokens, used } = analysis;
  let next = to + 1;
  while (next < tokens.length && (tokens[next]?.article || tokens[next]?.kind === "break")) next++;
  const before = previousWord(tokens, from, LANDMARK_GLUE);
  const words: string[] = [];
  for (let i = from; i <= to; i++) words.push(tokens[i]?.raw ?? "");
  return {
    field: analysis.field,
    from,
    to,
    targets: entry.targets,
    weak: entry.weak,
    via,
    distance,
    length,
    text: words.join(" "),
    blockAfter: used[next] === PART_CODE.block,
    areaWordBefore: before !== undefined && AREA_WORDS.has(before.key),
    landmark:
      (before !== undefined && LANDMARK_WORDS.has(before.key)) ||
      (used[next] !== PART_CODE.block &&
        ((before !== undefined &&
          (HONORIFICS.has(before.key) || PLACE_NOUNS_BEFORE.has(before.key))) ||
          inLandmarkPhrase(analysis, from))),
    namesPlace: PLACE_NOUNS.has(nextWord(tokens, to)?.key ?? ""),
    namesRegionalPlace: regionalPlaceAfter(tokens, to),
    person: personBefore(tokens, from) || personAfter(tokens, to),
    alternative: tokens[to + 1]?.kind === "alt" || tokens[from - 1]?.kind === "alt",
    alone: false,
    inStreet: false,
    directionNear: null,
    directionLetter: null,
    qualifierNear: null,
  };
}

export interface Candidate {
  readonly from: number;
  readonly to: number;
  readonly words: number;
  readonly entry: Entry;
  readonly via: Via;
  readonly distance: number;
  readonly length: number;
}

export function pickCandidates(
  analysis: FieldAnalysis,
  candidates: Candidate[],
  out: Mention[],
): void {
  candidates.sort(
    (a, b) =>
      a.distance - b.distance ||
      b.words - a.words ||
      (a.via === b.via ? 0 : a.via === "exact" ? -1 : 1) ||
      a.from - b.from,
  );
  for (const candidate of candidates) {
    let free = true;
    for (let i = candidate.from; i <= candidate.to && free; i++)
      if (analysis.mentioned[i]) free = false;
    if (!free) continue;
    analysis.mentioned.fill(1, candidate.from, candidate.to + 1);
    const { from, to, entry, via, distance, length } = candidate;
    out.push(makeMention(analysis, from, to, entry, via, distance, length));
  }
}

export function exactMentions(analysis: FieldAnalysis, out: Mention[]): void {
  const candidates: Candidate[] = [];
  for (const segment of segments(analysis)) {
    for (let s = 0; s < segment.length; s++) {
      let key = "";
      let skel = "";
      for (let n = 1; n <= AREA_INDEX.maxWords && s + n <= segment.length; n++) {
        const index = segment[s + n - 1] ?? 0;
        const token = analysis.tokens[index];
        if (token === undefined) break;
        key += token.key;
        skel += token.skel;
        const from = segment[s] ?? 0;
        const exact = AREA_INDEX.exact.get(key);
        if (exact !== undefined) {
          candidates.push({
            from,
            to: index,
            words: n,
            entry: exact,
            via: "exact",
            distance: 0,
            length: key.length,
          });
          continue;
        }
        const loose = AREA_INDEX.skeleton.get(skel);
        if (loose !== undefined) {
          candidates.push({
            from,
            to: index,
            words: n,
            entry: loose,
            via: "skeleton",
            distance: 0,
            length: skel.length,
          });
        }
      }
    }
  }
  pickCandidates(analysis, candidates, out);
}

export function areaTargets(targets: readonly Target[]): GazetteerArea[] {
  const areas: GazetteerArea[] = [];
  for (const target of targets) {
    if (target.kind === "area" && !areas.includes(target.area)) areas.push(target.area);
  }
  return areas;
}

export function markAlone(analysis: FieldAnalysis, mentions: readonly Mention[]): void {
  const { tokens, used, mentioned } = analysis;
  let others = 0;
  tokens.forEach((token, i) => {
    if (
      token.kind !== "word" ||
      token.article ||
      used[i] ||
      mentioned[i] ||
      FILLER_WORDS.has(token.key)
    )
      return;
    others++;
  });
  for (const mention of mentions)
    if (mention.field === analysis.field) mention.alone = others === 0;
}

export function streetNames(analysis: FieldAnalysis, mentions: readonly Mention[]): void {
  analysis.named = extractNamedStreets(analysis.tokens, analysis.used, analysis.mentioned);
  for (const hit of analysis.named) {
    analysis.used.fill(PART_CODE.street, hit.from, hit.to + 1);
    for (const mention of mentions) {
      if (mention.field === analysis.field && mention.from >= hit.from && mention.to <= hit.to)
        mention.inStreet = true;
    }
  }
}
