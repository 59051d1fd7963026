import { AREA_INDEX, containsName, type Entry, type Target } from "./area-index";
import { type Direction, type DirectionForm, directionOf, directionPhrase } from "./directions";
import { deletions, editBudget, editDistance } from "./edit-distance";
import type { GazetteerArea } from "./gazetteer";
import { type PartHit, type PartName, extractNamedStreets, extractNumberedParts } from "./parts";
import { qualifierOf } from "./qualifiers";
import { type FieldName, type Token, tokenize } from "./tokens";

/*
 * Finding the names in an address: each field is tokenized, its numbered parts are taken out,
 * then gazetteer names are looked up as n-grams (exact key, then transliteration skeleton) and,
 * only when no area name was found anywhere, by bounded edit distance.
 */

// prettier-ignore
export const LANDMARK_WORDS = new Set(
  [
    "near", "nearby", "opposite", "opp", "behind", "beside", "besides", "next", "close", "front", "facing",
    "قرب", "بالقرب", "جنب", "بجنب", "بجانب", "جانب", "مقابل", "خلف", "وراء", "ورا", "امام", "عند", "بجوار", "جوار",
  ].map((word) => tokenize(word)[0]?.key ?? word),
);
const LANDMARK_GLUE = new Set(["to", "of", "the", "from", "by", "من", "الي", "ل"]);
// Titles before a person's name: "Sheikh Jaber Al Ahmad" is a man (his mosque, his school), not
// the area named after him.
// prettier-ignore
const HONORIFICS = new Set(
  ["sheikh", "shaikh", "shaykh", "sheik", "shiekh", "imam", "prince", "amir", "emir", "الشيخ", "شيخ", "الامام", "الامير"].map(
    (word) => tokenize(word)[0]?.key ?? word,
  ),
);
// Kinds of place written after their name: "Adan hospital", "Qurain co-op". Such a name names
// that place, which may be in another area.
// prettier-ignore
const PLACE_NOUNS = new Set(
  [
    "mosque", "masjid", "hospital", "clinic", "school", "co", "coop", "cooperative", "society", "club",
    "center", "centre", "mall", "market", "park", "station", "police", "bank", "hotel", "university",
    "college", "office", "church", "garden",
  ].map((word) => tokenize(word)[0]?.key ?? word),
);
// Kinds of place written before their name, as Arabic does: «مسجد جابر الأحمد», "masjid …".
// prettier-ignore
const PLACE_NOUNS_BEFORE = new Set(
  [
    "masjid", "jamiya", "jamia", "madrasa", "mustashfa", "markaz",
    "مسجد", "جامع", "مستشفى", "مستوصف", "مدرسة", "جمعية", "مركز", "نادي", "مجمع", "مخفر", "جامعة",
    "كلية", "حديقة", "بنك", "فندق",
  ].map((word) => tokenize(word)[0]?.key ?? word),
);
// How far back from a name "near"/«مقابل» still opens the phrase it is in:
// "next to the Sheikh Jaber Al Ahmad mosque".
const LANDMARK_REACH = 6;
// prettier-ignore
export const AREA_WORDS = new Set(
  ["area", "district", "mantiqa", "mantaqa", "منطقة", "ضاحية", "بمنطقة", "في", "in"].map(
    (word) => tokenize(word)[0]?.key ?? word,
  ),
);
// Words that say nothing about the area; ignored when deciding whether a name fills its field.
// prettier-ignore
export const FILLER_WORDS = new Set(
  ["kuwait", "kwt", "state", "country", "governorate", "area", "region", "district", "city", "الكويت", "دولة", "منطقة", "محافظة"].map(
    (word) => tokenize(word)[0]?.key ?? word,
  ),
);
// Common words that a typo search must never turn into an area.
// prettier-ignore
export const NEVER_FUZZY = new Set(
  [
    "street", "house", "building", "floor", "flat", "apartment", "block", "avenue", "near", "opposite", "behind",
    "mosque", "masjid", "school", "hospital", "clinic", "market", "coop", "cooperative", "jamiya", "jamia",
    "mall", "tower", "center", "centre", "complex", "please", "call", "before", "after", "delivery", "deliver",
    "arrive", "arriving", "door", "gate", "bell", "ring", "green", "white", "black", "brown", "second", "third",
    "first", "ground", "office", "shop", "store", "farm", "chalet", "villa", "garden", "park", "road", "kuwait",
    "dahiya", "dahiyat", "dhahiya", "governorate", "avenues",
    "مسجد", "مدرسة", "مستشفى", "جمعية", "الجمعية", "سوق", "مجمع", "برج", "الرجاء", "الاتصال", "التوصيل",
    "الوصول", "قبل", "بعد", "باب", "الجرس", "ضاحية", "منطقة", "محافظة", "مقابل", "بجانب", "خلف",
  ].map((word) => tokenize(word)[0]?.skel ?? word),
);

// Given names that many area names share (Sabah Al-Ahmad, Jaber Al-Ahmad, Fahad Al-Ahmad): on
// its own a typo search must not turn one into an area, but inside a longer mistyped name
// ("Sbah al ahmad", "Abdula Almubark") it is one of its words.
// prettier-ignore
export const GIVEN_NAMES = new Set(
  [
    "sultan", "salem", "salim", "ahmad", "ahmed", "abdullah", "mubarak", "jaber", "khalid", "fahad",
    "nasser", "hamad", "mohammed", "mohammad", "yousef",
  ].map((word) => tokenize(word)[0]?.skel ?? word),
);

const GREETINGS: readonly (readonly [string, readonly string[]])[] = [
  ["سلام", ["عليكم", "عليكم،"]],
  ["salam", ["alaikum", "alaykum", "aleikum", "alikum", "alaikom", "3alaykum"]],
  ["salaam", ["alaikum", "alaykum", "aleikum"]],
  ["assalamu", ["alaikum", "alaykum", "aleikum"]],
  ["asalam", ["alaikum", "alaykum", "aleikum"]],
].map(([first, seconds]) => [
  tokenize(first as string)[0]?.key ?? "",
  (seconds as string[]).map((word) => tokenize(word)[0]?.key ?? word),
]);

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

function segments(analysis: FieldAnalysis): number[][] {
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

function nextWord(tokens: readonly Token[], to: number): Token | undefined {
  let next = to + 1;
  while (tokens[next]?.article) next++;
  const token = tokens[next];
  return token?.kind === "word" ? token : undefined;
}

function makeMention(
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
    alternative: tokens[to + 1]?.kind === "alt" || tokens[from - 1]?.kind === "alt",
    alone: false,
    inStreet: false,
    directionNear: null,
    directionLetter: null,
    qualifierNear: null,
  };
}

interface Candidate {
  readonly from: number;
  readonly to: number;
  readonly words: number;
  readonly entry: Entry;
  readonly via: Via;
  readonly distance: number;
  readonly length: number;
}

function pickCandidates(analysis: FieldAnalysis, candidates: Candidate[], out: Mention[]): void {
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

const MIN_FUZZY = 4;
const MIN_SHORTER_QUERY = { latin: 5, arabic: 4 } as const;
const MAX_FUZZY = 24;
const MAX_FUZZY_WORDS = 4;
const MAX_FUZZY_QUERIES = 40;

export function areaTargets(targets: readonly Target[]): GazetteerArea[] {
  const areas: GazetteerArea[] = [];
  for (const target of targets) {
    if (target.kind === "area" && !areas.includes(target.area)) areas.push(target.area);
  }
  return areas;
}

function areasByPrefix(prefix: string): GazetteerArea[] {
  const keys = AREA_INDEX.sortedSkeletons;
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((keys[mid] ?? "") < prefix) low = mid + 1;
    else high = mid;
  }
  const areas: GazetteerArea[] = [];
  for (let i = low; i < keys.length && (keys[i] ?? "").startsWith(prefix); i++) {
    const entry = AREA_INDEX.skeleton.get(keys[i] ?? "");
    for (const area of areaTargets(entry?.targets ?? []))
      if (!areas.includes(area)) areas.push(area);
    if (areas.length > 3) break;
  }
  return areas;
}

function fuzzyMentions(analysis: FieldAnalysis, out: Mention[], budget: { queries: number }): void {
  const candidates: Candidate[] = [];
  const { tokens } = analysis;
  for (const segment of segments(analysis)) {
    for (let s = 0; s < segment.length; s++) {
      let skel = "";
      for (let n = 1; n <= MAX_FUZZY_WORDS && s + n <= segment.length; n++) {
        const index = segment[s + n - 1] ?? 0;
        const token = tokens[index];
        if (
          token === undefined ||
          token.kind !== "word" ||
          analysis.mentioned[index] ||
          NEVER_FUZZY.has(token.skel)
        )
          break;
        skel += token.skel;
        if (n === 1 && (AREA_INDEX.nameParts.has(token.skel) || GIVEN_NAMES.has(token.skel)))
          continue;
        if (skel.length < MIN_FUZZY || skel.length > MAX_FUZZY) continue;
        if (budget.queries-- <= 0) return pickCandidates(analysis, candidates, out);
        const found = fuzzyLookup(skel);
        if (found !== undefined) {
          const from = segment[s] ?? 0;
          const { entry, distance } = found;
          candidates.push({
            from,
            to: index,
            words: n,
            entry,
            via: "fuzzy",
            distance,
            length: skel.length,
          });
        }
      }
    }
  }
  pickCandidates(analysis, candidates, out);
}

export function findFuzzyMentions(analyses: Iterable<FieldAnalysis>, out: Mention[]): void {
  const budget = { queries: MAX_FUZZY_QUERIES };
  for (const analysis of analyses) fuzzyMentions(analysis, out, budget);
}

function script(text: string): "latin" | "arabic" {
  return /[\u0600-\u06ff]/.test(text) ? "arabic" : "latin";
}

function fuzzyLookup(query: string): { entry: Entry; distance: number } | undefined {
  const seen = new Set<string>();
  let best = Number.POSITIVE_INFINITY;
  let bestKeys: string[] = [];
  for (const variant of deletions(query, editBudget(query.length))) {
    for (const key of AREA_INDEX.deletions.get(variant) ?? []) {
      if (seen.has(key)) continue;
      seen.add(key);
      if (Math.min(key.length, query.length) < MIN_FUZZY) continue;
      // A short word with a letter missing is as likely another word ("Nora" and Nugra).
      if (query.length < key.length && query.length < MIN_SHORTER_QUERY[script(query)]) continue;
      const allowed = editBudget(Math.max(key.length, query.length));
      const distance = editDistance(query, key, allowed);
      if (distance > allowed || distance === 0) continue;
      if (distance < best) {
        best = distance;
        bestKeys = [key];
      } else if (distance === best) {
        bestKeys.push(key);
      }
    }
  }
  if (bestKeys.length === 0) return undefined;
  let targets: Target[] = [];
  let weak = false;
  for (const key of bestKeys) {
    const entry = AREA_INDEX.skeleton.get(key);
    if (entry === undefined) continue;
    weak ||= entry.weak;
    for (const target of entry.targets) if (!targets.includes(target)) targets.push(target);
  }
  // Among equally close names, prefer areas whose names really use the typed word ("Jeleeb").
  const users = AREA_INDEX.wordAreas.get(query);
  if (users !== undefined && targets.some((t) => t.kind === "area" && users.has(t.area))) {
    targets = targets.filter((t) => t.kind !== "area" || users.has(t.area));
  }
  // A truncated name ("Sulaibi") fits every area it begins.
  if (query.length >= 5) {
    for (const area of areasByPrefix(query)) {
      if (!targets.some((target) => target.kind === "area" && target.area === area))
        targets.push({ kind: "area", area });
    }
  }
  return { entry: { targets, weak }, distance: best };
}

const MAX_EXTENSION = 2;

function freeWordsBeside(analysis: FieldAnalysis, start: number, step: 1 | -1): number[] {
  const found: number[] = [];
  for (
    let i = start;
    i >= 0 && i < analysis.tokens.length && found.length < MAX_EXTENSION;
    i += step
  ) {
    const token = analysis.tokens[i];
    if (token === undefined || analysis.used[i] || analysis.mentioned[i]) break;
    if (token.article) continue;
    // A number may close a longer name ("Shuwaikh Industrial 2"), never open one.
    const closingNumber = token.kind === "number" && found.length > 0 && step === 1;
    const plainWord =
      token.kind === "word" &&
      !NEVER_FUZZY.has(token.skel) &&
      !GIVEN_NAMES.has(token.skel) &&
      !LANDMARK_WORDS.has(token.key);
    if (!closingNumber && !plainWord) break;
    found.push(i);
  }
  return found;
}

function skeletonBetween(tokens: readonly Token[], from: number, to: number): string {
  let key = "";
  for (let i = from; i <= to; i++) {
    const token = tokens[i];
    if (token !== undefined && !token.article) key += token.skel;
  }
  return key;
}

// In "Shuwaikh Indutrial", «غب مشرف» or "Wost Abu Fatira" the exact name found is only part of
// a longer, mistyped name of another area: re-read each area name with the words beside it.
export function extendMentions(analysis: FieldAnalysis, mentions: Mention[]): void {
  mentions.forEach((mention, m) => {
    if (mention.field !== analysis.field) return;
    const areas = areaTargets(mention.targets);
    if (areas.length === 0) return;
    const before = freeWordsBeside(analysis, mention.from - 1, -1);
    const after = freeWordsBeside(analysis, mention.to + 1, 1);
    let best:
      { from: number; to: number; entry: Entry; distance: number; length: number } | undefined;
    for (let k = 0; k <= before.length; k++) {
      for (let j = 0; j <= after.length; j++) {
        if (k + j === 0) continue;
        const from = k === 0 ? mention.from : (before[k - 1] ?? mention.from);
        const to = j === 0 ? mention.to : (after[j - 1] ?? mention.to);
        const query = skeletonBetween(analysis.tokens, from, to);
        if (query.length > MAX_FUZZY) continue;
        const exact = AREA_INDEX.skeleton.get(query);
        const found = exact !== undefined ? { entry: exact, distance: 0 } : fuzzyLookup(query);
        if (found === undefined) continue;
        // A district group ("Janub Surra" → South Surra) is a longer name too.
        const longer = areaTargets(found.entry.targets);
        const umbrella = found.entry.targets.some((target) => target.kind === "umbrella");
        if ((longer.length === 0 && !umbrella) || longer.some((area) => areas.includes(area)))
          continue;
        // The longer name contains the name found ("Midan Hwalli" is Maidan Hawalli); "Jahra
        // farms" is not Wafra Farms with two typos.
        if (!umbrella && !longer.some((area) => areas.some((own) => containsName(area, own))))
          continue;
        if (
          best === undefined ||
          found.distance < best.distance ||
          (found.distance === best.distance && to - from > best.to - best.from)
        ) {
          best = { from, to, entry: found.entry, distance: found.distance, length: query.length };
        }
      }
    }
    if (best === undefined) return;
    analysis.mentioned.fill(1, best.from, best.to + 1);
    const via = best.distance === 0 ? "skeleton" : "fuzzy";
    mentions[m] = makeMention(
      analysis,
      best.from,
      best.to,
      best.entry,
      via,
      best.distance,
      best.length,
    );
  });
}

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
