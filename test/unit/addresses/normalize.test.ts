import { describe, expect, it } from "vitest";
import { normalizeArabic, normalizeDigits, normalizeLatin } from "../../../app/addresses";

describe("digit normalization", () => {
  it("turns Arabic-Indic, Persian and full-width digits into ASCII digits", () => {
    expect(normalizeDigits("ق١٠ ش٥ م١٢")).toBe("ق10 ش5 م12");
    expect(normalizeDigits("۱۲۳۴۵۶۷۸۹۰")).toBe("1234567890");
    expect(normalizeDigits("１２")).toBe("12");
  });

  it("leaves everything else alone", () => {
    expect(normalizeDigits("Block 4, السالمية")).toBe("Block 4, السالمية");
  });
});

describe("Arabic normalization", () => {
  it("folds hamza and alef forms, taa marbuta and alef maqsura", () => {
    expect(normalizeArabic("إشبيلية")).toBe(normalizeArabic("اشبيليه"));
    expect(normalizeArabic("أبو حليفة")).toBe(normalizeArabic("ابو حليفه"));
    expect(normalizeArabic("سلوى")).toBe(normalizeArabic("سلوي"));
    expect(normalizeArabic("آمنة")).toBe("امنه");
  });

  it("drops the article and glued prepositions at the start of words", () => {
    expect(normalizeArabic("السالمية")).toBe("سالميه");
    expect(normalizeArabic("بالسالمية")).toBe("سالميه");
    expect(normalizeArabic("والجابرية")).toBe("جابريه");
    expect(normalizeArabic("للفروانية")).toBe("فروانيه");
  });

  it("removes diacritics, tatweel and the bare hamza", () => {
    expect(normalizeArabic("الجَهْرَاء")).toBe(normalizeArabic("الجهرا"));
    expect(normalizeArabic("الفحيـــحيل")).toBe(normalizeArabic("الفحيحيل"));
    expect(normalizeArabic("الفيحاء")).toBe(normalizeArabic("الفيحا"));
  });

  it("writes «عبد الله» and «عبدالله» the same way", () => {
    expect(normalizeArabic("ضاحية عبد الله السالم")).toBe(normalizeArabic("ضاحية عبدالله السالم"));
  });

  it("folds Persian letters and presentation forms to the Arabic letters shoppers mean", () => {
    expect(normalizeArabic("کیفان")).toBe(normalizeArabic("كيفان"));
    expect(normalizeArabic("ﺍﻟﺴﺎﻟﻤﻴﺔ")).toBe(normalizeArabic("السالمية"));
  });

  it("normalizes digits inside Arabic text", () => {
    expect(normalizeArabic("قطعة ١٠")).toBe("قطعه 10");
  });
});

describe("Latin normalization", () => {
  it("ignores case, accents, apostrophes and the al-/el- article", () => {
    expect(normalizeLatin("Al-Salmiya")).toBe(normalizeLatin("salmiya"));
    expect(normalizeLatin("El Salmiya")).toBe(normalizeLatin("SALMIYA"));
    expect(normalizeLatin("Dasmān")).toBe(normalizeLatin("Dasman"));
    expect(normalizeLatin("Da'iya")).toBe(normalizeLatin("Daiya"));
    expect(normalizeLatin("Alnaseem")).toBe(normalizeLatin("Naseem"));
    expect(normalizeLatin("Ar Rumaythiyah")).toBe(normalizeLatin("Rumaythiya"));
  });

  it("folds the transliteration variants of one Arabic sound", () => {
    expect(normalizeLatin("Manqaf")).toBe(normalizeLatin("Mangaf"));
    expect(normalizeLatin("Sharq")).toBe(normalizeLatin("Shark"));
    expect(normalizeLatin("Qusoor")).toBe(normalizeLatin("Qusour"));
    expect(normalizeLatin("Jabriyya")).toBe(normalizeLatin("Jabriya"));
    expect(normalizeLatin("Salmiyah")).toBe(normalizeLatin("Salmiya"));
    expect(normalizeLatin("Fahaheel")).toBe(normalizeLatin("Fahahil"));
    expect(normalizeLatin("Ardhiya")).toBe(normalizeLatin("Ardiya"));
  });

  it("reads Arabizi digits as the letters they stand for", () => {
    expect(normalizeLatin("5ai6an")).toBe(normalizeLatin("Khaitan"));
    expect(normalizeLatin("3daan")).toBe(normalizeLatin("Adaan"));
    expect(normalizeLatin("6aima")).toBe(normalizeLatin("Taima"));
  });

  it("keeps plain numbers as they are", () => {
    expect(normalizeLatin("Block 12")).toBe("bluk 12");
  });

  it("keeps names that differ only in a vowel apart when the vowel matters", () => {
    expect(normalizeLatin("Salmi")).not.toBe(normalizeLatin("Salmiya"));
    expect(normalizeLatin("Qasr")).not.toBe(normalizeLatin("Qusour"));
  });
});
