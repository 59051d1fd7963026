import { doubtSentence } from "./address-doubt";
import type { StoredMatch } from "./address-match";
import type { Sentence } from "./timeline";

/**
 * How sure the app was of the area it placed an address in, and why, as catalog sentences of the
 * `delivery` namespace (ADR 0043). The matcher's own notes (`reasons`, an engineer's English) stay
 * in the page's technical details; what they say that a merchant needs is recognised here by the
 * few stable shapes the matcher writes them in.
 */
export type MatchLevel = "merchant" | "remembered" | "sure" | "unsure" | "none" | "unknown";

export interface MatchExplanation {
  level: MatchLevel;
  /** 0–100, when the matcher gave one. */
  percent: number | null;
  sentences: Sentence[];
}

// `area Salmiya («السالمية») from "slmya" in city (spelling variant)` (addresses/evidence.ts).
const AREA_FROM = /^area .+? from ".*" in (\w+) \((known spelling|spelling variant|\d+ typos?)/;

export function explainMatch(match: StoredMatch | null): MatchExplanation {
  if (!match) return { level: "unknown", percent: null, sentences: [] };
  const reasons = match.reasons ?? [];
  const percent = typeof match.confidence === "number" ? Math.round(match.confidence * 100) : null;
  const area = match.area ?? null;
  const sentences: Sentence[] = [];
  const remembered = reasons.some((r) => r.startsWith("remembered by the merchant"));
  let level: MatchLevel;
  if (match.fixedByMerchant) {
    level = "merchant";
    sentences.push({ key: "match.merchant", params: {} });
  } else if (remembered && area) {
    level = "remembered";
    sentences.push({ key: "match.remembered", params: { area } });
  } else if (!area) {
    level = "none";
    sentences.push({ key: "match.none", params: {} });
  } else if (match.confident) {
    level = "sure";
    sentences.push({ key: "match.sure", params: { area, percent: percent ?? 100 } });
  } else {
    level = "unsure";
    sentences.push({ key: "match.unsure", params: { area, percent: percent ?? 0 } });
  }
  // Why it is not sure, from the matcher's own data (issue 30): first, in the merchant's words.
  if (match.doubt && (level === "unsure" || level === "none"))
    sentences.push(doubtSentence(match.doubt));
  for (const reason of reasons) {
    const from = AREA_FROM.exec(reason);
    if (from && area && level !== "merchant") {
      const field = ["city", "address1", "address2", "zip"].includes(from[1]!) ? from[1]! : "other";
      sentences.push({ key: `match.foundIn.${field}`, params: { area } });
      if (from[2] !== "known spelling") sentences.push({ key: "match.variant", params: {} });
    } else if (/^province \S+ agrees/.test(reason) || /^governorate ".*" agrees/.test(reason)) {
      sentences.push({ key: "match.governorateAgrees", params: {} });
    } else if (/^province \S+ (\(.*\) )?disagrees/.test(reason)) {
      sentences.push({ key: "match.governorateDisagrees", params: {} });
    } else if (reason.startsWith("no province code")) {
      sentences.push({ key: "match.noGovernorate", params: {} });
    } else if (/is also an everyday word/.test(reason)) {
      sentences.push({ key: "match.everydayWord", params: {} });
    } else if (/the area is a guess/.test(reason)) {
      sentences.push({ key: "match.guess", params: {} });
    } else if (/^".*" could be /.test(reason)) {
      sentences.push({ key: "match.several", params: {} });
    } else if (reason.startsWith("the courier's area list has no")) {
      sentences.push({ key: "match.courierLacks", params: {} });
    }
  }
  // One sentence of each kind is enough.
  const seen = new Set<string>();
  return {
    level,
    percent,
    sentences: sentences.filter((s) => !seen.has(s.key) && seen.add(s.key)),
  };
}
