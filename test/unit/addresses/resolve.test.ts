import { describe, expect, it } from "vitest";
import {
  AREAS,
  type CourierMasterData,
  buildCourierIndex,
  findArea,
  gazetteerAreaFor,
  proposePickupLocation,
  resolveCourierIds,
} from "../../../app/addresses";
import {
  COURIER_SPELLINGS,
  MISSING_AREAS,
  loadMasterData,
} from "../../../sandbox/courier/master-data";

// A small courier list written the way courier APIs write it: «محافظة …», ه for ة, no hamza,
// sometimes without the article, a twin governorate/area, and areas the gazetteer folds or lacks.
const masterData: CourierMasterData = {
  governances: [
    { governanceId: 1, governanceName: "محافظة العاصمه" },
    { governanceId: 2, governanceName: "محافظة حولي" },
    { governanceId: 3, governanceName: "الاحمدي" },
    { governanceId: 4, governanceName: "محافظة الفروانيه" },
    { governanceId: 5, governanceName: "الجهراء" },
  ],
  areas: [
    { areaId: 101, governanceId: 2, areaName: "السالميه" },
    { areaId: 102, governanceId: 2, areaName: "حولى" },
    { areaId: 103, governanceId: 1, areaName: "عبد الله السالم" },
    { areaId: 104, governanceId: 3, areaName: "المنقف" },
    { areaId: 105, governanceId: 4, areaName: "اشبيليه" },
    { areaId: 106, governanceId: 1, areaName: "جابر الاحمد" },
    { areaId: 107, governanceId: 4, areaName: "العباسية" },
    { areaId: 108, governanceId: 1, areaName: "القيروان" },
    { areaId: 109, governanceId: 4, areaName: "الرقعي" },
    { areaId: 110, governanceId: 3, areaName: "الرقة" },
    { areaId: 111, governanceId: 1, areaName: "الشويخ" },
    { areaId: 112, governanceId: 2, areaName: "الشويخ" },
  ],
};

function area(name: string) {
  const found = findArea(name);
  if (found === undefined) throw new Error(`no gazetteer area ${name}`);
  return found;
}

describe("resolution to the courier's IDs", () => {
  const index = buildCourierIndex(masterData);

  it("matches the Arabic name across orthographic variants", () => {
    expect(resolveCourierIds(area("Salmiya"), index)).toMatchObject({
      status: "resolved",
      governanceId: 2,
      areaId: 101,
    });
    expect(resolveCourierIds(area("Ishbiliya"), index)).toMatchObject({
      status: "resolved",
      areaId: 105,
    });
    expect(resolveCourierIds(area("Mangaf"), index)).toMatchObject({
      status: "resolved",
      governanceId: 3,
      areaId: 104,
    });
  });

  it("ignores words like «ضاحية» and «مدينة» that one list adds and the other drops", () => {
    expect(resolveCourierIds(area("Abdullah Al-Salem"), index)).toMatchObject({
      status: "resolved",
      areaId: 103,
    });
    expect(resolveCourierIds(area("Jaber Al-Ahmad"), index)).toMatchObject({
      status: "resolved",
      areaId: 106,
    });
  });

  it("resolves a twin area to the courier's area row, not the governance", () => {
    expect(resolveCourierIds(area("Hawalli"), index)).toMatchObject({
      status: "resolved",
      governanceId: 2,
      areaId: 102,
    });
  });

  it("keeps confusable areas apart", () => {
    expect(resolveCourierIds(area("Riggae"), index)).toMatchObject({ areaId: 109 });
    expect(resolveCourierIds(area("Riqqa"), index)).toMatchObject({ areaId: 110 });
  });

  it("reports an area the courier lacks instead of guessing", () => {
    const result = resolveCourierIds(area("Salwa"), index);
    expect(result.status).toBe("missing");
    expect(result.reasons[0]).toContain("Salwa");
  });

  it("does not send a whole area to a courier row for one part of it", () => {
    // The gazetteer folds Abbasiya into Jleeb Al-Shuyoukh; the courier lists only Abbasiya.
    expect(resolveCourierIds(area("Jleeb Al-Shuyoukh"), index).status).toBe("missing");
  });

  it("follows the courier's governance when it files an area elsewhere than the gazetteer", () => {
    const result = resolveCourierIds(area("Qairawan"), index);
    expect(result).toMatchObject({ status: "resolved", governanceId: 1, areaId: 108 });
    expect(result.reasons.join(" ")).toContain("using the courier's governance");
  });

  it("reports several fitting courier rows that the governorate cannot separate", () => {
    const result = resolveCourierIds(area("Shuwaikh Residential"), index);
    expect(result.status).toBe("resolved");
    expect(result).toMatchObject({ areaId: 111 });
    const twoInCapital = buildCourierIndex({
      governances: masterData.governances,
      areas: [
        { areaId: 1, governanceId: 1, areaName: "الشويخ" },
        { areaId: 2, governanceId: 1, areaName: "شويخ" },
      ],
    });
    expect(resolveCourierIds(area("Shuwaikh Residential"), twoInCapital).status).toBe("ambiguous");
  });

  describe("names that cover several courier sub-areas (notes, section 5)", () => {
    // Split the way Riders splits them: residential and chalets, farms, numbered suburbs, a
    // southern extension, storage zones, medical and industrial parts.
    const split = buildCourierIndex({
      governances: masterData.governances,
      areas: [
        { areaId: 201, governanceId: 3, areaName: "الخيران السكنية" },
        { areaId: 202, governanceId: 3, areaName: "شاليهات الخيران" },
        { areaId: 203, governanceId: 3, areaName: "الوفرة السكنية" },
        { areaId: 204, governanceId: 3, areaName: "مزارع الوفرة" },
        { areaId: 205, governanceId: 3, areaName: "مدينة صباح الأحمد" },
        { areaId: 206, governanceId: 3, areaName: "صباح الاحمد 3" },
        { areaId: 207, governanceId: 5, areaName: "سعد العبدالله" },
        { areaId: 208, governanceId: 5, areaName: "جنوب سعد العبدالله" },
        { areaId: 209, governanceId: 4, areaName: "العارضية" },
        { areaId: 210, governanceId: 4, areaName: "العارضية المخازن" },
        { areaId: 211, governanceId: 4, areaName: "العارضية الحرفية" },
        { areaId: 212, governanceId: 1, areaName: "الشويخ السكنية" },
        { areaId: 213, governanceId: 1, areaName: "الشويخ الصناعية" },
        { areaId: 214, governanceId: 1, areaName: "الشويخ الطبية" },
        { areaId: 215, governanceId: 3, areaName: "الفحيحيل" },
        { areaId: 216, governanceId: 2, areaName: "جنوب السرة" },
        { areaId: 217, governanceId: 1, areaName: "السرة" },
      ],
    });

    it("asks which one instead of picking a sub-area", () => {
      const cases: [string, number[]][] = [
        ["Khairan", [201, 202]],
        ["Wafra", [203, 204]],
        ["Sabah Al-Ahmad City", [205, 206]],
        ["Saad Al-Abdullah", [207, 208]],
      ];
      for (const [name, ids] of cases) {
        const result = resolveCourierIds(area(name), split);
        expect(result.status, name).toBe("ambiguous");
        if (result.status !== "ambiguous") continue;
        expect(result.candidates.map((row) => row.areaId).sort(), name).toEqual(ids);
        expect(result.reasons.join(" "), name).toContain("which one");
      }
    });

    it("gives a sub-area the gazetteer lists apart its own row, and the area it is part of its row", () => {
      const rows: [string, number][] = [
        ["Ardiya", 209],
        ["Ardiya Stores", 210],
        ["Shuwaikh Residential", 212],
        ["Shuwaikh Medical", 214],
      ];
      for (const [name, areaId] of rows) {
        expect(resolveCourierIds(area(name), split), name).toMatchObject({
          status: "resolved",
          areaId,
        });
      }
    });

    it("does not count rows that are other gazetteer areas, or in another governance", () => {
      expect(resolveCourierIds(area("Ardiya Industrial"), split)).toMatchObject({
        status: "resolved",
        areaId: 211,
      });
      expect(resolveCourierIds(area("Shuwaikh Industrial"), split)).toMatchObject({
        status: "resolved",
        areaId: 213,
      });
      expect(resolveCourierIds(area("Surra"), split)).toMatchObject({
        status: "resolved",
        areaId: 217,
      });
      expect(resolveCourierIds(area("Fahaheel"), split)).toMatchObject({
        status: "resolved",
        areaId: 215,
      });
    });
  });

  it("resolves every area of a courier that lists each area once, in its own spelling", () => {
    const sandbox = loadMasterData();
    const index = buildCourierIndex({
      governances: sandbox.map((g) => ({ governanceId: g.governanceId, governanceName: g.nameAr })),
      areas: sandbox.flatMap((g) =>
        g.areas.map((a) => ({
          areaId: a.areaId,
          governanceId: a.governanceId,
          areaName: a.nameAr,
        })),
      ),
    });
    for (const gazetteerArea of AREAS) {
      const own = sandbox.flatMap((g) => g.areas).find((a) => a.nameEn === gazetteerArea.nameEn);
      const result = resolveCourierIds(gazetteerArea, index);
      if (MISSING_AREAS.includes(gazetteerArea.nameEn)) {
        expect(result.status, gazetteerArea.nameEn).toBe("missing");
      } else {
        expect(result, gazetteerArea.nameEn).toMatchObject({
          status: "resolved",
          areaId: own?.areaId,
        });
      }
    }
  });

  describe("from a courier row back to the gazetteer area (for remembering a merchant's answer)", () => {
    const sandbox = loadMasterData();
    const index = buildCourierIndex({
      governances: sandbox.map((g) => ({ governanceId: g.governanceId, governanceName: g.nameAr })),
      areas: sandbox.flatMap((g) =>
        g.areas.map((a) => ({
          areaId: a.areaId,
          governanceId: a.governanceId,
          areaName: a.nameAr,
        })),
      ),
    });

    it("finds areas the courier spells its own way, which a lookup by name misses", () => {
      for (const [nameEn, courierName] of Object.entries(COURIER_SPELLINGS)) {
        const row = sandbox.flatMap((g) => g.areas).find((a) => a.nameEn === nameEn);
        expect(row?.nameAr).toBe(courierName);
        const place = gazetteerAreaFor(row?.areaId ?? -1, index);
        expect(place, nameEn).toMatchObject({ status: "found", area: { nameEn } });
      }
      expect(findArea("جابريه")).toBeUndefined();
    });

    it("says why a row cannot be remembered as a gazetteer area", () => {
      const split = buildCourierIndex({
        governances: masterData.governances,
        areas: [
          { areaId: 1, governanceId: 3, areaName: "الخيران السكنية" },
          { areaId: 2, governanceId: 3, areaName: "شاليهات الخيران" },
          { areaId: 3, governanceId: 3, areaName: "مخيمات الأحمدي" },
        ],
      });
      const chalets = gazetteerAreaFor(2, split);
      expect(chalets.status).toBe("none");
      if (chalets.status === "none") expect(chalets.reason).toContain("Khairan");
      expect(gazetteerAreaFor(3, split).status).toBe("none");
      expect(gazetteerAreaFor(99, split).status).toBe("none");
    });
  });

  it("builds the index once per master-data object", () => {
    expect(buildCourierIndex(masterData)).toBe(index);
    expect(buildCourierIndex({ ...masterData })).not.toBe(index);
  });

  it("matches English courier lists by English names", () => {
    const english = buildCourierIndex({
      governances: [{ governanceId: 9, governanceName: "Hawalli Governorate" }],
      areas: [
        { areaId: 1, governanceId: 9, areaName: "Al-Salmiya" },
        { areaId: 2, governanceId: 9, areaName: "Naayem" },
      ],
    });
    expect(resolveCourierIds(area("Salmiya"), english)).toMatchObject({
      status: "resolved",
      areaId: 1,
    });
    expect(resolveCourierIds(area("Naeem"), english).status).toBe("missing");
  });

  it("gives pickup location proposals the courier's IDs", () => {
    const proposal = proposePickupLocation(
      {
        address1: "Block 4, Street 12, Building 30",
        city: "Mangaf",
        provinceCode: "KW-AH",
        countryCode: "KW",
      },
      { courierIndex: index },
    );
    expect(proposal.courier).toMatchObject({ status: "resolved", governanceId: 3, areaId: 104 });
  });

  it("accepts a stored copy of an area and reports an unknown one", () => {
    const copy = JSON.parse(JSON.stringify(area("Mangaf"))) as ReturnType<typeof area>;
    expect(resolveCourierIds(copy, index)).toMatchObject({ status: "resolved", areaId: 104 });
    const unknown = { ...copy, nameEn: "Atlantis" };
    expect(resolveCourierIds(unknown, index).status).toBe("missing");
  });

  it("tolerates malformed master data", () => {
    const broken = buildCourierIndex({
      governances: [{ governanceId: Number.NaN, governanceName: "x" }],
      areas: [{ areaId: 1, governanceId: 1, areaName: null as unknown as string }],
    });
    expect(resolveCourierIds(area("Salmiya"), broken).status).toBe("missing");
  });
});
