const ARABIC_INDIC_ZERO = 0x0660;
const PERSIAN_ZERO = 0x06f0;
const FULLWIDTH_ZERO = 0xff10;
const DIGITS = /[\u0660-\u0669\u06f0-\u06f9\uff10-\uff19]/g;

/** Replaces Arabic-Indic (٠-٩), Persian (۰-۹) and full-width digits with ASCII digits. */
export function normalizeDigits(text: string): string {
  return text.replace(DIGITS, (digit) => {
    const code = digit.charCodeAt(0);
    const base =
      code >= FULLWIDTH_ZERO
        ? FULLWIDTH_ZERO
        : code >= PERSIAN_ZERO
          ? PERSIAN_ZERO
          : ARABIC_INDIC_ZERO;
    return String.fromCharCode(48 + code - base);
  });
}

// One entry per UTF-16 code unit that folding changes: "" deletes it.
const FOLD = new Map<number, string>();
function foldRange(from: number, to: number, into: string): void {
  for (let code = from; code <= to; code++) FOLD.set(code, into);
}
foldRange(0x0300, 0x036f, ""); // Latin combining marks left by NFKD (Dasmān → dasman)
foldRange(0x064b, 0x065f, ""); // harakat, shadda, sukun, hamza above/below left by NFKD
foldRange(0x06d6, 0x06ed, ""); // Quranic annotation marks
FOLD.set(0x0670, "");
FOLD.set(0x0640, "");
FOLD.set(0x0621, ""); // bare hamza: «الجهراء» and «الجهرا» are one name
for (const code of [0x0622, 0x0623, 0x0625, 0x0671, 0x0672, 0x0673]) FOLD.set(code, "ا");
FOLD.set(0x0624, "و");
FOLD.set(0x0626, "ي");
FOLD.set(0x0629, "ه"); // taa marbuta is typed as haa as often as not («قطعه»)
FOLD.set(0x06c0, "ه");
FOLD.set(0x06d5, "ه");
FOLD.set(0x0649, "ي");
FOLD.set(0x06cc, "ي");
FOLD.set(0x06d2, "ي");
FOLD.set(0x06a9, "ك");
FOLD.set(0x06af, "ق"); // gaf: Gulf speakers write the hard g of «ق» with it
FOLD.set(0x06a4, "ف");
FOLD.set(0x067e, "ب");
FOLD.set(0x0686, "ج");
for (const code of [0x27, 0x60, 0xb4, 0x2018, 0x2019, 0x02bb, 0x02bc, 0x02be, 0x02bf]) {
  FOLD.set(code, ""); // apostrophes and ayn marks inside transliterations (Da'iya, Daʿiya)
}
for (let d = 0; d <= 9; d++) {
  FOLD.set(0x0660 + d, String(d));
  FOLD.set(0x06f0 + d, String(d));
  FOLD.set(0xff10 + d, String(d));
}
FOLD.set(0x0131, "i");

const ASCII_ONLY = /^[\x20-\x7e]*$/;

// NFKD splits أ into ا + hamza, Latin letters from their accents and presentation forms into
// letters; the table then drops the marks.
export function foldText(text: string): string {
  const lower = text.toLowerCase();
  if (ASCII_ONLY.test(lower) && !lower.includes("'") && !lower.includes("`")) return lower;
  const decomposed = lower.normalize("NFKD");
  let out = "";
  for (let i = 0; i < decomposed.length; i++) {
    const code = decomposed.charCodeAt(i);
    const mapped = FOLD.get(code);
    out += mapped === undefined ? decomposed[i] : mapped;
  }
  return out;
}

const ARABIC_LETTER = /[\u0621-\u064a]/;
export function hasArabic(text: string): boolean {
  return ARABIC_LETTER.test(text);
}

// Glued prepositions and the article: «بالسالمية», «والجابرية», «للفروانية», «السالمية».
const ARABIC_PREFIXES = ["وبال", "بال", "وال", "فال", "كال", "لل", "ال"] as const;

export function stripArabicArticle(word: string): string {
  for (const prefix of ARABIC_PREFIXES) {
    // The remainder must still look like a name: «الري» keeps «ري», «الله» keeps «له».
    if (word.startsWith(prefix) && word.length - prefix.length >= 2) {
      return word.slice(prefix.length);
    }
  }
  return word;
}

// ض and ظ are one sound in Kuwaiti speech (الضهر / الظهر).
export function arabicSkeleton(key: string): string {
  return key.includes("ض") ? key.replaceAll("ض", "ظ") : key;
}

// Arabizi: digits standing for Arabic letters that Latin lacks (Riders documents 2 3 5 6 7 9).
const ARABIZI: Record<string, string> = {
  "4": "th",
  "5": "kh",
  "6": "t",
  "7": "h",
  "8": "gh",
  "9": "s",
};
const VOWELS = new Set(["a", "e", "i", "o", "u"]);

// 3 (ع) and 2 (ء) are consonants with no Latin letter: shoppers write the vowel next to them or
// nothing. "3omariya" and "e3gaila" drop them, "3daan" and "n3eem" read them as "a".
function glottal(word: string, i: number): string {
  const before = word[i - 1];
  const after = word[i + 1];
  const vowelBefore = before !== undefined && VOWELS.has(before);
  const vowelAfter = after !== undefined && VOWELS.has(after);
  if (before === undefined) return vowelAfter ? "" : "a";
  if (after === undefined) return vowelBefore ? "" : "a";
  return vowelBefore && !vowelAfter ? "" : "a";
}

/** Reads the Arabizi digits of a word as letters: "9aba7" → "sabah", "mi6la3" → "mitla". */
export function deArabizi(word: string): string {
  let out = "";
  for (let i = 0; i < word.length; i++) {
    const ch = word[i] ?? "";
    out += ch === "3" || ch === "2" ? glottal(word, i) : (ARABIZI[ch] ?? ch);
  }
  return out;
}

// Standalone articles: "Al Salmiya", "Ar Rumaythiyah", "Az-Zahra".
export const LATIN_ARTICLES: ReadonlySet<string> = new Set([
  "al",
  "el",
  "il",
  "ul",
  "as",
  "ar",
  "az",
  "ad",
  "adh",
  "ash",
  "at",
  "ath",
  "an",
  "the",
]);

// The article glued to the name: "Alsalmy", "Elnaseem", "ilnaseem" (but not "Ali": the
// remainder must be a plausible name), or assimilated to a sun letter: "Assurra", "Ashshaab",
// "Arrumaithiya", "Azzahra".
const GLUED_ARTICLE = /^[aeiu]l(?=[a-z]{3})/;
const SUN_ARTICLE = /^[aeiu](sh|th|dh|[tdrzsn])(?=\1[a-z]{3})/;

export function latinWordKey(word: string): string {
  const article = GLUED_ARTICLE.exec(word) ?? SUN_ARTICLE.exec(word);
  return article === null ? word : word.slice(article[0].length);
}

const SKELETON_STEPS: readonly [RegExp, string][] = [
  [/ph/g, "f"],
  [/gh/g, "g"],
  [/kh/g, "k"],
  [/dh/g, "d"],
  [/th/g, "t"],
  [/ck/g, "k"],
  [/([iy])eh$/, "$1a"], // Levantine spelling: Salmiyeh / Salmiya, Jabriyeh / Jabriya
  [/[qgc]/g, "k"], // Kuwaiti «ق» is a hard g: Mangaf / Manqaf, Sharq / Sharg / Shark
  [/e/g, "i"],
  [/o/g, "u"],
  [/y/g, "i"],
  [/w/g, "u"],
  [/aua/g, "ua"], // Qairawan / Kairouan: «وا» written "wa" or "ou"
  [/([aiu])h$/, "$1"], // Salmiyah / Salmiya, Abdullah / Abdulla
  [/(.)\1+/g, "$1"], // doubled letters and the long vowels made above (ee, oo, ou)
];

export function latinSkeleton(key: string): string {
  let out = key;
  for (const [pattern, replacement] of SKELETON_STEPS) out = out.replace(pattern, replacement);
  return out;
}

const WORDS = /[\p{L}\p{M}\p{N}'`´‘’ʻʼʾʿ]+/gu;

/**
 * Normalizes Arabic text so that spelling variants of one name compare equal: hamza and alef
 * forms (أ إ آ ٱ → ا), taa marbuta (ة → ه), alef maqsura (ى → ي), ؤ/ئ, bare hamza, tatweel,
 * diacritics, Persian letters and digits; drops the article ال (and a glued و/ب/ل/ف/ك) at the start
 * of each word and writes «عبد الله» as «عبدالله». Words are joined by single spaces.
 */
export function normalizeArabic(text: string): string {
  const folded = foldText(normalizeDigits(text)).replace(/عبد\s+ال/g, "عبدال");
  const words = folded.match(WORDS) ?? [];
  return words.map((word) => (hasArabic(word) ? stripArabicArticle(word) : word)).join(" ");
}

/**
 * Normalizes Latin-script text (English names, transliterations, Arabizi) to a matching
 * skeleton: lowercase, accents and apostrophes removed, Arabizi digits read as letters,
 * articles (al-, el-, as-, ar-…) dropped, and transliteration variants folded (q/g/k, ou/u,
 * ee/i, kh/k, dh/d, doubled letters, a final h). Words are joined by single spaces.
 */
export function normalizeLatin(text: string): string {
  const words = foldText(normalizeDigits(text)).match(WORDS) ?? [];
  const out: string[] = [];
  for (const word of words) {
    const letters = /[a-z]/.test(word) && /\d[a-z]/.test(word) ? deArabizi(word) : word;
    if (LATIN_ARTICLES.has(letters)) continue;
    out.push(/[a-z]/.test(letters) ? latinSkeleton(latinWordKey(letters)) : letters);
  }
  return out.join(" ");
}
