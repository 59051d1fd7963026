import { AREA_INDEX, containsName, type Entry, type Target } from "./area-index";
import { GIVEN_NAMES, LANDMARK_WORDS, NEVER_FUZZY } from "./context-words";
import { deletions, editBudget, editDistance } from "./edit-distance";
import type { GazetteerArea } from "./gazetteer";
import {
  type Candidate,
  type FieldAnalysis,
  type Mention,
  areaTargets,
  makeMention,
  pickCandidates,
  segments,
} from "./mentions";
import type { Token } from "./tokens";

/*
 * The typo search: names within a bounded edit distance of a gazetteer name, looked up through
 * the deletion index, and names found as written that are only part of a longer mistyped name.
 */

const MIN_FUZZY = 4;
const MIN_SHORTER_QUERY = { latin: 5, arabic: 4 } as const;
const MAX_FUZZY = 24;
const MAX_FUZZY_WORDS = 4;
const MAX_FUZZY_QUERIES = 40;

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
