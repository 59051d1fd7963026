import { AREA_INDEX, type Target } from "./area-index";
import { LANDMARK_GLUE, PLACE_NOUNS } from "./context-words";
import { type Direction, type DirectionForm, directionOf, directionPhrase } from "./directions";
import type { GazetteerArea } from "./gazetteer";
import {
  type FieldAnalysis,
  type Mention,
  type Via,
  areaTargets,
  makeMention,
  nextWord,
} from "./mentions";
import { qualifierOf } from "./qualifiers";
import type { Token } from "./tokens";

/*
 * An area name with a word beside it that changes what it names: a direction ("West Mishref") or
 * a kind of place ("Sulaibiya farms"). The mention is re-read as the place the whole phrase names.
 */

const MAX_DIRECTION_WORDS = 2;

// The direction words next to a name, in reading order: before tokens[start] (step -1) or from
// it on (step 1); stops at a break, a part or a word that is not a direction.
function directionWordsNear(
  analysis: FieldAnalysis,
  start: number,
  step: 1 | -1,
): { indexes: number[]; directions: Direction[]; forms: DirectionForm[] } {
  const indexes: number[] = [];
  const directions: Direction[] = [];
  const forms: DirectionForm[] = [];
  for (
    let i = start;
    i >= 0 && i < analysis.tokens.length && indexes.length < MAX_DIRECTION_WORDS;
    i += step
  ) {
    const token = analysis.tokens[i];
    if (token === undefined || analysis.used[i]) break;
    if (token.article) continue;
    const found = directionOf(token);
    // "Salmiya e" or "Surra s" is noise more often than a direction.
    if (found === undefined || (step === 1 && found.form === "letter")) break;
    const at = step === 1 ? indexes.length : 0;
    indexes.splice(at, 0, i);
    directions.splice(at, 0, found.direction);
    forms.splice(at, 0, found.form);
  }
  return { indexes, directions, forms };
}

/**
 * "Gharb Mishref", "Jnoob Alsurra", «شمال غرب الصليبيخات», "Mishref West": a direction word next
 * to an area name can name another area (West Mishref is Mubarak Al-Abdullah) or a district group (South Surra).
 * Such a mention is re-read as the place the whole phrase names; a direction word that names no
 * part of the area is kept on the mention so that the decision does not send it.
 */
export function applyDirections(analysis: FieldAnalysis, mentions: Mention[]): void {
  for (let m = 0; m < mentions.length; m++) {
    const mention = mentions[m];
    if (mention === undefined || mention.field !== analysis.field) continue;
    const areas = areaTargets(mention.targets);
    if (areas.length === 0) continue;
    let near = directionWordsNear(analysis, mention.from - 1, -1);
    if (near.indexes.length === 0) near = directionWordsNear(analysis, mention.to + 1, 1);
    const phrase = directionPhrase(near.directions);
    const first = Math.min(mention.from, near.indexes[0] ?? mention.from);
    const last = Math.max(mention.to, near.indexes[near.indexes.length - 1] ?? mention.to);
    if (phrase === undefined) continue;
    const targets: Target[] = [];
    for (const area of areas) {
      for (const target of AREA_INDEX.directional.get(area)?.get(phrase) ?? []) {
        if (!targets.includes(target)) targets.push(target);
      }
    }
    const written = near.indexes.map((i) => analysis.tokens[i]?.raw ?? "").join(" ");
    if (targets.length === 0) {
      if (near.forms.every((form) => form === "word")) mention.directionNear = written;
      continue;
    }
    // The direction word may itself have been read as a name (Sharq, «شرق»): it is not one here.
    for (let other = mentions.length - 1; other >= 0; other--) {
      const taken = mentions[other];
      if (
        taken !== undefined &&
        other !== m &&
        taken.field === analysis.field &&
        taken.from >= first &&
        taken.to <= last
      ) {
        mentions.splice(other, 1);
        if (other < m) m--;
      }
    }
    analysis.mentioned.fill(1, first, last + 1);
    const typos = near.forms.filter((form) => form !== "word").length;
    const via: Via = mention.via === "fuzzy" || typos > 0 ? "fuzzy" : "skeleton";
    const length = mention.length + phrase.length;
    const read = makeMention(
      analysis,
      first,
      last,
      { targets, weak: false },
      via,
      mention.distance + typos,
      length,
    );
    const changesArea = targets.some((t) => t.kind === "area" && !areas.includes(t.area));
    if (near.forms.includes("letter") && changesArea) read.directionLetter = written;
    mentions[m] = read;
  }
}

// The qualifier word next to a mention, if any: right after the name ("Sulaibiya farms") unless
// it begins a landmark ("Salmiya health center"), or right before it («مخازن العارضية», "port of
// Ahmadi").
function qualifierNear(
  analysis: FieldAnalysis,
  mention: Mention,
): { index: number; token: Token } | undefined {
  const { tokens, used, mentioned } = analysis;
  const free = (i: number): boolean => used[i] === 0 && mentioned[i] === 0;
  let after = mention.to + 1;
  while (tokens[after]?.article) after++;
  const next = tokens[after];
  if (next !== undefined && free(after) && qualifierOf(next) !== undefined) {
    if (!PLACE_NOUNS.has(nextWord(tokens, after)?.key ?? "")) return { index: after, token: next };
  }
  let before = mention.from - 1;
  while (tokens[before]?.article || LANDMARK_GLUE.has(tokens[before]?.key ?? "")) before--;
  const previous = tokens[before];
  if (previous !== undefined && free(before) && qualifierOf(previous) !== undefined)
    return { index: before, token: previous };
  return undefined;
}

/**
 * "Sulaibiya farms", «مخازن العارضية», "Ahmadi port": a kind of place next to an area name names
 * the place the gazetteer lists for it (Sulaibiya Agricultural, Ardiya Stores, Mina Al-Ahmadi),
 * or, when it lists none ("Jahra farms"), some part of the area that the decision will ask about.
 * Either way the word becomes part of the mention, so that a merchant's answer is remembered for
 * the whole phrase.
 */
export function applyQualifiers(analysis: FieldAnalysis, mentions: Mention[]): void {
  for (let m = 0; m < mentions.length; m++) {
    const mention = mentions[m];
    if (mention === undefined || mention.field !== analysis.field) continue;
    const areas = areaTargets(mention.targets);
    if (areas.length === 0) continue;
    const near = qualifierNear(analysis, mention);
    if (near === undefined) continue;
    const qualifier = qualifierOf(near.token);
    if (qualifier === undefined) continue;
    const places: GazetteerArea[] = [];
    for (const area of areas) {
      for (const place of AREA_INDEX.qualified.get(area)?.get(qualifier) ?? []) {
        if (!places.includes(place)) places.push(place);
      }
    }
    const from = Math.min(mention.from, near.index);
    const to = Math.max(mention.to, near.index);
    analysis.mentioned.fill(1, from, to + 1);
    const named = places.some((place) => !areas.includes(place));
    const targets: Target[] = named
      ? places.map((area) => ({ kind: "area", area }))
      : [...mention.targets];
    const read = makeMention(
      analysis,
      from,
      to,
      { targets, weak: named ? false : mention.weak },
      mention.via,
      mention.distance,
      mention.length + near.token.skel.length,
    );
    read.directionNear = mention.directionNear;
    read.directionLetter = mention.directionLetter;
    if (places.length === 0) read.qualifierNear = near.token.raw;
    mentions[m] = read;
  }
}
