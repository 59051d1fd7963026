import {
  LATIN_ARTICLES,
  arabicSkeleton,
  deArabizi,
  foldText,
  hasArabic,
  latinSkeleton,
  latinWordKey,
  normalizeDigits,
  stripArabicArticle,
} from "./normalize";
import { isLatinPartWord } from "./part-words";

export type FieldName = "city" | "address2" | "address1" | "zip";

// number: digits with an optional letter suffix ("9B"); alnum: a letter glued to digits that is
// not an abbreviation ("A3", "N4"); break: comma, newline, U+2060 (Shopify's extended fields);
// alt: "or" or "/" between alternatives.
export type TokenKind = "word" | "number" | "alnum" | "break" | "alt";

export interface Token {
  readonly raw: string;
  readonly norm: string;
  readonly kind: TokenKind;
  readonly arabic: boolean;
  readonly ordinal: boolean;
  // "al", «ال» on their own: glue inside a name, not a word of it.
  readonly article: boolean;
  readonly key: string;
  readonly skel: string;
}

// Real addresses are far shorter; this bounds the work on garbage.
const MAX_FIELD_LENGTH = 400;
const MAX_TOKENS = 120;

const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
const PIECES = /[\p{L}\p{M}\p{N}'`´‘’ʻʼʾʿ]+|[,،;؛|\n\r\u2060]|\//gu;
const HAS_DIGIT = /\d/;
const ARABIC_RUNS =
  /[\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufeff]+|[^\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufeff]+/g;
const DIGIT_RUNS = /\d+|\D+/g;

// Letters that shoppers glue to a number as an abbreviation: b4 (block), h21 (house), s3, j2, m9, q1.
const ABBREVIATION_LETTERS = new Set(["b", "h", "s", "j", "m", "q"]);
// Arabic letters used as a house or flat suffix: «منزل ٩ب» is house 9B.
const ARABIC_SUFFIX: Record<string, string> = { ا: "A", أ: "A", ب: "B", ج: "C", د: "D" };
// Arabizi keywords that end in a digit and must not be split into a word and a number; they are
// kept as written, which is how the part keywords list them.
const ARABIZI_WHOLE = new Set([
  "share3",
  "shar3",
  "shari3",
  "sha2a",
  "sh2a",
  "shi2a",
  "qit3a",
  "qet3a",
]);

const ALT_WORDS = new Set(["or", "او"]);

// A word that ends in a vowel and an Arabizi digit ("saba7", "mi6la3", "tayma2"). After a
// consonant the digit is more often a number glued to the word ("Mishref5", "block3").
const ARABIZI_ENDING = /^([a-z]*[a-z][aeiou])[235679]$/;
// One Arabizi digit before the last letter: "sa3d", "ga9r". A part keyword before it ("apt3b",
// "st3a") is a part number with a letter suffix.
const ARABIZI_INSIDE = /^([a-z]{2,})[235679][a-z]$/;

// "Flat 1-A", "House 9-B", "Flat A-1": the hyphen joins a letter to its number. Only a to f, and
// not "4-h 5", where the letter opens the next part.
const HYPHEN_SUFFIX = /(?<![\p{L}\p{N}])(\d{1,5})-([a-f])(?![\p{L}\p{N}])/giu;
const HYPHEN_PREFIX = /(?<![\p{L}\p{N}])([a-f])-(\d{1,5})(?![\p{L}\p{N}])/giu;

const BREAK: Token = {
  raw: ",",
  norm: ",",
  kind: "break",
  arabic: false,
  ordinal: false,
  article: false,
  key: "",
  skel: "",
};
const ALT: Token = { ...BREAK, raw: "/", norm: "/", kind: "alt" };

// Words repeat across addresses (block, street, area names); their folding is cached.
const wordCache = new Map<string, Token>();
const WORD_CACHE_LIMIT = 50_000;

function wordToken(raw: string, arabizi = false): Token {
  const cached = wordCache.get(raw);
  if (cached !== undefined && !arabizi) return cached;
  const folded = foldText(raw);
  const norm = arabizi ? deArabizi(folded) : folded;
  const arabic = hasArabic(norm);
  let token: Token;
  if (ALT_WORDS.has(norm)) {
    token = { ...ALT, raw };
  } else if (arabic) {
    const key = stripArabicArticle(norm);
    token = {
      raw,
      norm,
      kind: "word",
      arabic,
      ordinal: false,
      article: norm === "ال",
      key,
      skel: arabicSkeleton(key),
    };
  } else {
    const key = latinWordKey(norm);
    token = {
      raw,
      norm,
      kind: "word",
      arabic,
      ordinal: false,
      article: LATIN_ARTICLES.has(norm),
      key,
      skel: latinSkeleton(key),
    };
  }
  if (!arabizi) {
    if (wordCache.size >= WORD_CACHE_LIMIT) wordCache.clear();
    wordCache.set(raw, token);
  }
  return token;
}

function numberToken(raw: string, digits: string, suffix = "", ordinal = false): Token {
  const value = (digits.replace(/^0+(?=\d)/, "") + suffix).toUpperCase();
  return {
    raw,
    norm: value,
    kind: "number",
    arabic: false,
    ordinal,
    article: false,
    key: digits,
    skel: digits,
  };
}

function alnumToken(raw: string): Token {
  const norm = raw.toUpperCase();
  return {
    raw,
    norm,
    kind: "alnum",
    arabic: false,
    ordinal: false,
    article: false,
    key: "",
    skel: "",
  };
}

function pushLatinWithDigits(run: string, out: Token[]): void {
  const lower = run.toLowerCase();
  let m: RegExpExecArray | null;
  if (/^\d+$/.test(lower)) {
    out.push(numberToken(run, lower));
  } else if ((m = /^(\d+)(st|nd|rd|th)$/.exec(lower))) {
    out.push(numberToken(run, m[1] ?? "", "", true));
  } else if ((m = /^(\d+)([a-z])$/.exec(lower))) {
    out.push(numberToken(run, m[1] ?? "", m[2] ?? ""));
  } else if (ARABIZI_WHOLE.has(lower)) {
    out.push(wordToken(run));
  } else if ((m = ARABIZI_ENDING.exec(lower)) && !isLatinPartWord(m[1] ?? "")) {
    out.push(wordToken(run, true)); // "saba7", "mutla3", "shyou5": a letter, not a number
  } else if ((m = ARABIZI_INSIDE.exec(lower)) && !isLatinPartWord(m[1] ?? "")) {
    out.push(wordToken(run, true)); // "sa3d", "ga9r", "sha3b": not "sa" and a house "3D"
  } else if ((m = /^([a-z])(\d+)$/.exec(lower)) && !ABBREVIATION_LETTERS.has(m[1] ?? "")) {
    out.push(alnumToken(run));
  } else if ((m = /^([a-z]+)(\d+)([a-z]?)$/.exec(lower))) {
    // "bl8", "st14", "apt3b": an abbreviation glued to its number.
    const letters = m[1] ?? "";
    out.push(wordToken(run.slice(0, letters.length)));
    out.push(numberToken(run.slice(letters.length), m[2] ?? "", m[3] ?? ""));
  } else if (
    /[2-9][a-z]/.test(lower) &&
    (lower.match(/[a-z]/g)?.length ?? 0) >= 2 &&
    !(lower.match(/[a-z]+/g) ?? []).every(isLatinPartWord)
  ) {
    out.push(wordToken(run, true)); // Arabizi: "7wly", "5ai6an", "3daan"
  } else {
    for (const piece of run.match(DIGIT_RUNS) ?? []) {
      if (HAS_DIGIT.test(piece)) out.push(numberToken(piece, piece));
      else out.push(wordToken(piece));
    }
  }
}

function pushArabicWithDigits(run: string, out: Token[]): void {
  const pieces = run.match(DIGIT_RUNS) ?? [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] ?? "";
    if (!HAS_DIGIT.test(piece)) {
      out.push(wordToken(piece));
      continue;
    }
    const next = pieces[i + 1];
    const suffix = next === undefined ? undefined : ARABIC_SUFFIX[next];
    if (suffix !== undefined && i + 2 === pieces.length) {
      out.push(numberToken(piece + next, piece, suffix));
      i++;
    } else {
      out.push(numberToken(piece, piece));
    }
  }
}

function pushRun(run: string, out: Token[]): void {
  if (!HAS_DIGIT.test(run)) {
    if (!hasArabic(run) || !/[a-z]/i.test(run)) {
      out.push(wordToken(run));
      return;
    }
    for (const piece of run.match(ARABIC_RUNS) ?? []) out.push(wordToken(piece));
    return;
  }
  if (!/[a-z]/i.test(run)) {
    pushArabicWithDigits(run, out); // keeps «٩ب» (house 9B) together
    return;
  }
  for (const piece of run.match(ARABIC_RUNS) ?? []) {
    if (hasArabic(piece)) pushArabicWithDigits(piece, out);
    else pushLatinWithDigits(piece, out);
  }
}

export function tokenize(field: string): Token[] {
  let text = field.length > MAX_FIELD_LENGTH ? field.slice(0, MAX_FIELD_LENGTH) : field;
  text = normalizeDigits(text).replace(INVISIBLE, "");
  // «عبد الله» and «عبدالله» are one name; make them one word before splitting.
  if (text.includes("عبد")) text = text.replace(/عبد\s+(?=ال)/g, "عبد");
  if (text.includes("-")) text = text.replace(HYPHEN_SUFFIX, "$1$2").replace(HYPHEN_PREFIX, "$1$2");
  const out: Token[] = [];
  for (const piece of text.match(PIECES) ?? []) {
    if (out.length >= MAX_TOKENS) break;
    if (piece === "/") out.push(ALT);
    else if (piece.length === 1 && ",،;؛|\n\r\u2060".includes(piece)) out.push(BREAK);
    else pushRun(piece.replace(/^['`´‘’ʻʼʾʿ]+|['`´‘’ʻʼʾʿ]+$/g, ""), out);
  }
  return out.filter((token) => token.raw !== "" || token.kind !== "word");
}
