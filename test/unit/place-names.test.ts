import { describe, expect, it } from "vitest";
import { areaName, governorateName } from "../../app/i18n/place-names";
import { COURIER_SPELLINGS, loadMasterData } from "../../sandbox/courier/master-data";

// The sandbox courier's master data: Arabic names in the courier's own spellings.
const GOVERNANCES = loadMasterData();
const AREAS = GOVERNANCES.flatMap((g) => g.areas);

describe("the courier's place names in the page's language", () => {
  it("names every sandbox governorate in English and Arabic", () => {
    for (const g of GOVERNANCES) {
      expect(governorateName(g.nameAr, "en")).toBe(g.nameEn);
      expect(governorateName(g.nameAr, "ar")).toBe(g.nameAr);
    }
  });

  it("names nearly every sandbox area in English", () => {
    const named = AREAS.filter((a) => areaName(a.nameAr, "en") === a.nameEn);
    expect(named.length / AREAS.length).toBeGreaterThan(0.9);
    expect(areaName("السالمية", "en")).toBe("Salmiya");
  });

  it("names every area the courier spells its own way: never Arabic on the English page", () => {
    for (const [english, spelled] of Object.entries(COURIER_SPELLINGS)) {
      expect(areaName(spelled, "en"), spelled).toBe(english);
    }
    expect(AREAS.filter((a) => areaName(a.nameAr, "en") !== a.nameEn).map((a) => a.nameAr)).toEqual(
      [],
    );
  });

  it("keeps a name the gazetteer does not know as the courier wrote it", () => {
    expect(areaName("مكان غير معروف", "en")).toBe("مكان غير معروف");
  });
});
