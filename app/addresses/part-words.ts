import { foldText, stripArabicArticle } from "./normalize";

/**
 * The words that name an address's parts, as shoppers type them, folded as the tokens are: both
 * the tokenizer (a glued "Block3Street5" is not an Arabizi word) and the parts' extraction read
 * them, so they live apart from both.
 */

/** The parts of a Kuwaiti address below the area, as the courier's order form asks for them. */
export interface AddressParts {
  block: string | null;
  street: string | null;
  /** Jaddah («جادة»), the lane inside a block. */
  avenue: string | null;
  house: string | null;
  building: string | null;
  floor: string | null;
  apartment: string | null;
  /** PACI automated address number («الرقم الآلي للعنوان»), 8 digits. */
  paci: string | null;
}

export type PartName = keyof AddressParts;

export const PART_NAMES: readonly PartName[] = [
  "block",
  "street",
  "avenue",
  "house",
  "building",
  "floor",
  "apartment",
  "paci",
];

export function emptyParts(): AddressParts {
  return {
    block: null,
    street: null,
    avenue: null,
    house: null,
    building: null,
    floor: null,
    apartment: null,
    paci: null,
  };
}

export type Keyword = Exclude<PartName, "paci">;

// Written as shoppers type them; folded below with the same rules as the tokens.
// prettier-ignore
const KEYWORDS: Record<Keyword, readonly string[]> = {
  block: [
    "block", "blk", "blok", "blck", "blc", "bl", "bloc", "black", "piece", "qitaa", "qitta", "qita",
    "qeta", "qetaa", "qit3a", "qet3a", "قطعة", "قطعه", "القطعة",
  ],
  street: [
    "street", "st", "str", "strt", "stret", "streat", "road", "rd", "sharia", "shareh", "share3",
    "shar3", "shari3", "sh", "شارع", "الشارع",
  ],
  avenue: ["avenue", "ave", "av", "avn", "jadda", "jaddah", "jada", "jadah", "gada", "gadda", "lane", "جادة", "جاده"],
  house: [
    "house", "hse", "hs", "hno", "home", "villa", "plot", "qasima", "manzel", "manzil", "bait", "bayt",
    "منزل", "بيت", "قسيمة", "فيلا", "فيلة", "فله",
  ],
  building: [
    "building", "bldg", "bld", "bldng", "bdg", "bulding", "buliding", "buildng", "build", "tower",
    "emara", "imara", "omara", "عمارة", "بناية", "مبنى", "برج",
  ],
  floor: ["floor", "flr", "fl", "floo", "dor", "دور", "طابق"],
  apartment: [
    "apartment", "apt", "appt", "aprt", "apprt", "flat", "unit", "shiqqa", "shaqqa", "sha2a", "شقة",
  ],
};

// One-letter abbreviations count only when a number follows directly: "b4", "ق٤", "م١٢".
export const LETTER_KEYWORDS: Record<string, Keyword> = {
  b: "block",
  q: "block",
  ق: "block",
  s: "street",
  ش: "street",
  j: "avenue",
  ج: "avenue",
  h: "house",
  m: "house",
  م: "house",
};

export const CONNECTORS = new Set(["no", "nr", "num", "number", "numb", "n", "رقم"].map(foldText));

const ORDINALS: Record<string, string> = {
  ground: "G",
  g: "G",
  gf: "G",
  first: "1",
  second: "2",
  third: "3",
  fourth: "4",
  fifth: "5",
  sixth: "6",
  seventh: "7",
  eighth: "8",
  ninth: "9",
  tenth: "10",
};
const ARABIC_ORDINALS: Record<string, string> = {
  ارضي: "G",
  اول: "1",
  اولي: "1",
  ثاني: "2",
  ثانيه: "2",
  ثالث: "3",
  ثالثه: "3",
  رابع: "4",
  رابعه: "4",
  خامس: "5",
  خامسه: "5",
  سادس: "6",
  سادسه: "6",
  سابع: "7",
  سابعه: "7",
  ثامن: "8",
  ثامنه: "8",
  تاسع: "9",
  تاسعه: "9",
  عاشر: "10",
  عاشره: "10",
};

export function fold(word: string): string {
  const folded = foldText(word);
  return /[\u0600-\u06ff]/.test(folded) ? stripArabicArticle(folded) : folded;
}

export const KEYWORD_OF = new Map<string, Keyword>();
for (const [part, words] of Object.entries(KEYWORDS) as [Keyword, readonly string[]][]) {
  for (const word of words) KEYWORD_OF.set(fold(word), part);
}
// Numbers written as words after a keyword: «قطعه ثلاثه», «شارع عشرة», "block four". Folded
// forms (ة as ه, أ as ا), one to twenty: part numbers beyond are written in digits.
// prettier-ignore
const CARDINALS: Record<string, string> = {
  one: "1", two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8", nine: "9",
  ten: "10", eleven: "11", twelve: "12",
  واحد: "1", واحده: "1", اثنين: "2", اثنان: "2", ثنين: "2", ثلاث: "3", ثلاثه: "3", اربع: "4",
  اربعه: "4", خمس: "5", خمسه: "5", ست: "6", سته: "6", سبع: "7", سبعه: "7", ثمان: "8", ثمانيه: "8",
  ثماني: "8", تسع: "9", تسعه: "9", عشر: "10", عشره: "10", احدعشر: "11", اثنعشر: "12", اثناعشر: "12",
};
export const CARDINAL_OF = new Map<string, string>(
  Object.entries(CARDINALS).map(([word, value]) => [fold(word), value] as [string, string]),
);

export const ORDINAL_OF = new Map<string, string>([
  ...Object.entries(ORDINALS),
  ...Object.entries(ARABIC_ORDINALS).map(
    ([word, value]) => [fold(word), value] as [string, string],
  ),
]);

// "Block3Street5House12": glued keywords and numbers, not an Arabizi word.
export function isLatinPartWord(word: string): boolean {
  return (
    KEYWORD_OF.has(word) ||
    word in LETTER_KEYWORDS ||
    word === "paci" ||
    word === "kuwaitfinder" ||
    CONNECTORS.has(word)
  );
}
