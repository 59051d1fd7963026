import {
  CARDINAL_OF,
  CONNECTORS,
  fold,
  KEYWORD_OF,
  LETTER_KEYWORDS,
  ORDINAL_OF,
  type Keyword,
  type PartName,
} from "./part-words";
import type { Token } from "./tokens";

export {
  emptyParts,
  isLatinPartWord,
  PART_NAMES,
  type AddressParts,
  type PartName,
} from "./part-words";

export function keywordForm(token: Token): string {
  return token.arabic ? token.key : token.norm;
}

export function keywordOf(token: Token): Keyword | undefined {
  if (token.kind !== "word") return undefined;
  return KEYWORD_OF.get(keywordForm(token));
}

function letterKeywordOf(token: Token): Keyword | undefined {
  if (token.kind !== "word") return undefined;
  return LETTER_KEYWORDS[token.norm];
}

function cardinalOf(token: Token | undefined): string | undefined {
  if (token === undefined || token.kind !== "word") return undefined;
  return CARDINAL_OF.get(keywordForm(token));
}

function ordinalOf(token: Token): string | undefined {
  if (token.kind === "number" && token.ordinal) return token.norm;
  if (token.kind !== "word") return undefined;
  return ORDINAL_OF.get(keywordForm(token));
}

export interface PartHit {
  readonly part: PartName;
  readonly value: string;
  readonly from: number;
  readonly to: number;
}

const MAX_PART_DIGITS = 5;
const PACI_PATTERN = /^\d{8}$/;

function isPartNumber(token: Token | undefined): token is Token & { kind: "number" } {
  return token !== undefined && token.kind === "number" && token.key.length <= MAX_PART_DIGITS;
}

function isPaciNumber(token: Token | undefined): token is Token & { kind: "number" } {
  return token !== undefined && token.kind === "number" && PACI_PATTERN.test(token.raw);
}

function skipConnectors(tokens: readonly Token[], start: number): number {
  let i = start;
  while (i < tokens.length && i < start + 2) {
    const token = tokens[i];
    if (token === undefined || token.kind !== "word" || !CONNECTORS.has(keywordForm(token))) break;
    i++;
  }
  return i;
}

function isBoundary(token: Token | undefined): boolean {
  return (
    token === undefined ||
    token.kind === "break" ||
    token.kind === "alt" ||
    keywordOf(token) !== undefined
  );
}

const PACI_GROUP = /^\d{4}$/;

// The PACI number at tokens[j]: 8 digits, or two groups of four ("1234 5678").
function paciValueAt(
  tokens: readonly Token[],
  j: number,
): { to: number; value: string } | undefined {
  const token = tokens[j];
  if (isPaciNumber(token)) return { to: j, value: token.key };
  const next = tokens[j + 1];
  if (
    token?.kind === "number" &&
    next?.kind === "number" &&
    PACI_GROUP.test(token.raw) &&
    PACI_GROUP.test(next.raw)
  )
    return { to: j + 1, value: token.key + next.key };
  return undefined;
}

// PACI labels: "PACI", "PACI no", "automated (address) number", «الرقم الآلي (للعنوان)», and
// "KuwaitFinder", PACI's finder, which one form prints beside it (notes, section 6).
function paciValueAfterLabel(
  tokens: readonly Token[],
  i: number,
): { to: number; value: string } | undefined {
  const token = tokens[i];
  if (token === undefined || token.kind !== "word") return undefined;
  let j: number;
  if (token.norm === "paci" || token.norm === "kuwaitfinder") {
    j = i + 1;
  } else if (token.norm === "kuwait" && tokens[i + 1]?.norm === "finder") {
    j = i + 2;
  } else if (token.norm === "automated") {
    j = i + 1;
    if (tokens[j]?.norm === "address") j++;
  } else if (token.arabic && token.key === "رقم" && tokens[i + 1]?.key === "الي") {
    j = i + 2;
    if (tokens[j]?.key === "عنوان") j++;
  } else {
    return undefined;
  }
  return paciValueAt(tokens, skipConnectors(tokens, j));
}

const TRIPLE_DIGITS = 3;

function isTripleNumber(token: Token | undefined): token is Token & { kind: "number" } {
  return (
    token !== undefined &&
    token.kind === "number" &&
    !token.ordinal &&
    token.key.length <= TRIPLE_DIGITS
  );
}

// Three short numbers in a row, joined by "/" or "-" (or spaces), with no keyword before or after
// them and no block, street or house found already: the block/street/house shorthand. Two
// numbers, or a fourth, are left alone: which is which is not certain.
function blockStreetHouseAt(
  tokens: readonly Token[],
  consumed: Uint8Array,
  i: number,
  hits: readonly PartHit[],
): { block: Token; street: Token; streetAt: number; house: Token; houseAt: number } | undefined {
  const block = tokens[i];
  if (!isTripleNumber(block)) return undefined;
  if (hits.some((hit) => hit.part === "block" || hit.part === "street" || hit.part === "house"))
    return undefined;
  const previous = tokens[i - 1];
  if (previous !== undefined && (previous.kind === "number" || previous.kind === "alt"))
    return undefined;
  const at: number[] = [i];
  let k = i;
  while (at.length < 3) {
    k += tokens[k + 1]?.kind === "alt" ? 2 : 1;
    if (!isTripleNumber(tokens[k]) || consumed[k]) return undefined;
    at.push(k);
  }
  const after = tokens[k + 1];
  if (after !== undefined && (after.kind === "number" || after.kind === "alt")) return undefined;
  if (
    after !== undefined &&
    (keywordOf(after) !== undefined || letterKeywordOf(after) !== undefined)
  )
    return undefined;
  const street = tokens[at[1] ?? -1];
  const house = tokens[at[2] ?? -1];
  if (street === undefined || house === undefined) return undefined;
  return { block, street, streetAt: at[1] ?? i, house, houseAt: at[2] ?? i };
}

export function extractNumberedParts(tokens: readonly Token[], consumed: Uint8Array): PartHit[] {
  const hits: PartHit[] = [];
  const take = (part: PartName, value: string, from: number, to: number): void => {
    hits.push({ part, value, from, to });
    consumed.fill(1, from, to + 1);
  };
  for (let i = 0; i < tokens.length; i++) {
    if (consumed[i]) continue;
    const token = tokens[i];
    if (token === undefined) continue;

    const paci = paciValueAfterLabel(tokens, i);
    if (paci !== undefined) {
      take("paci", paci.value, i, paci.to);
      i = paci.to;
      continue;
    }

    const letter = letterKeywordOf(token);
    if (letter !== undefined) {
      const next = tokens[i + 1];
      if (isPartNumber(next) && !next.ordinal) {
        take(letter, next.norm, i, i + 1);
        i++;
      }
      continue;
    }

    const keyword = keywordOf(token);
    if (keyword !== undefined) {
      const j = skipConnectors(tokens, i + 1);
      const value = tokens[j];
      const ordinal = value === undefined ? undefined : ordinalOf(value);
      const cardinal = cardinalOf(value);
      if (isPartNumber(value)) {
        take(keyword, value.norm, i, j);
        i = j;
      } else if (cardinal !== undefined) {
        take(keyword, cardinal, i, j);
        i = j;
      } else if ((keyword === "floor" || keyword === "block") && ordinal !== undefined) {
        take(keyword, ordinal, i, j);
        i = j;
      } else if (value?.kind === "alnum" && keyword !== "street" && keyword !== "avenue") {
        take(keyword, value.norm, i, j);
        i = j;
      } else if (
        (keyword === "apartment" || keyword === "building") &&
        value?.kind === "word" &&
        /^[a-h]$/.test(value.norm) &&
        isBoundary(tokens[j + 1])
      ) {
        take(keyword, value.norm.toUpperCase(), i, j);
        i = j;
      }
      continue;
    }

    // "10/5/12", "6-14-22": block, street and house, as Kuwaitis write them short.
    const triple = blockStreetHouseAt(tokens, consumed, i, hits);
    if (triple !== undefined) {
      take("block", triple.block.norm, i, i);
      take("street", triple.street.norm, triple.streetAt, triple.streetAt);
      take("house", triple.house.norm, triple.houseAt, triple.houseAt);
      consumed.fill(1, i, triple.houseAt + 1);
      i = triple.houseAt;
      continue;
    }

    // Number first: "3rd floor", "ground floor", «الطابق» after an ordinal.
    const ordinal = ordinalOf(token);
    const after = tokens[i + 1];
    if (after !== undefined && keywordOf(after) === "floor" && !isPartNumber(tokens[i + 2])) {
      if (ordinal !== undefined) take("floor", ordinal, i, i + 1);
      else if (isPartNumber(token)) take("floor", token.norm, i, i + 1);
      if (consumed[i]) i++;
    }
  }
  return hits;
}

const STREET_NAME_WORDS = 5;
const POSTFIX_STREET_KEYWORDS = new Set(["street", "st", "str", "road", "rd"]);
// prettier-ignore
const NOT_NAME_WORDS = new Set(
  ["near", "opposite", "opp", "behind", "beside", "next", "close", "front", "facing", "call", "please", "and",
    "قرب", "بالقرب", "جنب", "بجانب", "مقابل", "خلف", "وراء", "امام", "عند", "بجوار"].map(fold),
);

// A name right next to the keyword may be an area's name ("Mubarak Al-Kabeer Street" is in Kuwait
// City); beyond it, an area name ends the street name ("Salmiya Tunis St" is two things).
export function extractNamedStreets(
  tokens: readonly Token[],
  consumed: Uint8Array,
  mention: Uint8Array,
): PartHit[] {
  const hits: PartHit[] = [];
  const isNameWord = (k: number): boolean => {
    const token = tokens[k];
    return (
      token !== undefined &&
      !consumed[k] &&
      (token.kind === "word" || (mention[k] === 1 && token.kind === "number")) &&
      keywordOf(token) === undefined &&
      letterKeywordOf(token) === undefined &&
      !NOT_NAME_WORDS.has(keywordForm(token))
    );
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === undefined || consumed[i]) continue;
    if (keywordOf(token) !== "street" && token.norm !== "ش") continue;
    let end = i;
    const startsWithName = mention[i + 1] === 1;
    while (
      end - i < STREET_NAME_WORDS &&
      isNameWord(end + 1) &&
      (startsWithName ? mention[end + 1] === 1 : mention[end + 1] !== 1)
    ) {
      end++;
    }
    if (end > i) {
      hits.push({ part: "street", value: joinRaw(tokens, i + 1, end), from: i, to: end });
      consumed.fill(1, i, end + 1);
      i = end;
      continue;
    }
    if (token.arabic || !POSTFIX_STREET_KEYWORDS.has(token.norm)) continue;
    let start = i;
    const endsWithName = mention[i - 1] === 1;
    while (
      i - start < STREET_NAME_WORDS &&
      isNameWord(start - 1) &&
      (endsWithName ? mention[start - 1] === 1 : mention[start - 1] !== 1)
    ) {
      start--;
    }
    // "Al" alone before "Street" is not a name.
    while (start < i && tokens[start]?.article) start++;
    if (start < i) {
      hits.push({ part: "street", value: joinRaw(tokens, start, i - 1), from: start, to: i });
      consumed.fill(1, start, i + 1);
    }
  }
  return hits;
}

function joinRaw(tokens: readonly Token[], from: number, to: number): string {
  const words: string[] = [];
  for (let k = from; k <= to; k++) words.push(tokens[k]?.raw ?? "");
  return words.join(" ");
}
