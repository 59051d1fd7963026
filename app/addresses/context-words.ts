import { tokenize } from "./tokens";

/*
 * Words around a name that say how to read it: landmark words and titles ("near", "Sheikh"),
 * kinds of place ("hospital", «مسجد»), words that mark an area or say nothing about it, and words
 * the typo search must leave alone. Each list holds tokenized keys or skeletons.
 */

// prettier-ignore
export const LANDMARK_WORDS = new Set(
  [
    "near", "nearby", "opposite", "opp", "behind", "beside", "besides", "next", "close", "front", "facing",
    "قرب", "بالقرب", "جنب", "بجنب", "بجانب", "جانب", "مقابل", "خلف", "وراء", "ورا", "امام", "عند", "بجوار", "جوار",
  ].map((word) => tokenize(word)[0]?.key ?? word),
);
export const LANDMARK_GLUE = new Set(["to", "of", "the", "from", "by", "من", "الي", "ل"]);
// Titles before a person's name: "Sheikh Jaber Al Ahmad" is a man (his mosque, his school), not
// the area named after him.
// prettier-ignore
export const HONORIFICS = new Set(
  ["sheikh", "shaikh", "shaykh", "sheik", "shiekh", "imam", "prince", "amir", "emir", "الشيخ", "شيخ", "الامام", "الامير"].map(
    (word) => tokenize(word)[0]?.key ?? word,
  ),
);
// Kinds of place written after their name: "Adan hospital", "Qurain co-op". Such a name names
// that place, which may be in another area.
// prettier-ignore
export const PLACE_NOUNS = new Set(
  [
    "mosque", "masjid", "hospital", "clinic", "school", "co", "coop", "cooperative", "society", "club",
    "center", "centre", "mall", "market", "park", "station", "police", "bank", "hotel", "university",
    "college", "office", "church", "garden",
  ].map((word) => tokenize(word)[0]?.key ?? word),
);
// Kinds of place written before their name, as Arabic does: «مسجد جابر الأحمد», "masjid …".
// prettier-ignore
export const PLACE_NOUNS_BEFORE = new Set(
  [
    "masjid", "jamiya", "jamia", "madrasa", "mustashfa", "markaz",
    "مسجد", "جامع", "مستشفى", "مستوصف", "مدرسة", "جمعية", "مركز", "نادي", "مجمع", "مخفر", "جامعة",
    "كلية", "حديقة", "بنك", "فندق", "قاعدة", "بوابة", "طريق",
  ].map((word) => tokenize(word)[0]?.key ?? word),
);
// Places named after an area that serve a whole region, so are often in another area: "Adan
// hospital" is in Hadiya, "Ali Al Salem air base" in the desert, "Fahaheel expressway" crosses
// half the country. A name followed by one of these (within two words: "… Cardiac Centre") names
// the place only; a co-op or a police station named after an area is in it (PLACE_NOUNS).
// prettier-ignore
export const REGIONAL_PLACE_NOUNS = new Set(
  [
    "hospital", "hosp", "cardiac", "medical", "base", "airbase", "gate", "expressway", "highway",
    "motorway", "freeway",
  ].map((word) => tokenize(word)[0]?.key ?? word),
);
// Words before a name that make it a person's: "this is Rawda", "Customer name: Hadiya", «معك
// سلوى», «باسم سلوى». Such a name is not read as an area, whatever follows it.
// prettier-ignore
export const PERSON_WORDS = new Set(
  [
    "mr", "mrs", "ms", "miss", "dr", "name", "named", "customer", "recipient", "receiver", "attn", "im",
    "its", "it's",
    "اسمي", "الاسم", "باسم", "معك", "معاك", "انا", "السيد", "السيدة", "المستلم", "العميل", "الزبون", "الزبونة",
  ].map((word) => tokenize(word)[0]?.key ?? word),
);
// "this is Rawda", "I am Salwa", "it's Hadiya": the verb, and the word before it.
export const PERSON_VERBS = new Set(["is", "am"]);
export const PERSON_VERB_SUBJECTS = new Set(["this", "i", "it", "its", "thats"]);
// "Rawda here": a name introducing its writer.
export const PERSON_AFTER = new Set(["here", "speaking"]);

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

// Greetings typed into an address («السلام عليكم»): noise, never a place.
export const GREETINGS: readonly (readonly [string, readonly string[]])[] = [
  ["سلام", ["عليكم", "عليكم،"]],
  ["salam", ["alaikum", "alaykum", "aleikum", "alikum", "alaikom", "3alaykum"]],
  ["salaam", ["alaikum", "alaykum", "aleikum"]],
  ["assalamu", ["alaikum", "alaykum", "aleikum"]],
  ["asalam", ["alaikum", "alaykum", "aleikum"]],
].map(([first, seconds]) => [
  tokenize(first as string)[0]?.key ?? "",
  (seconds as string[]).map((word) => tokenize(word)[0]?.key ?? word),
]);
