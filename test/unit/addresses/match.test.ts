import { describe, expect, it } from "vitest";
import {
  CONFIDENT_AT,
  type AddressInput,
  type AreaOverride,
  matchAddress,
  overrideKey,
  overrideKeyFor,
  proposePickupLocation,
} from "../../../app/addresses";

function areaOf(input: AddressInput): string | null {
  return matchAddress(input).area?.nameEn ?? null;
}

describe("area detection", () => {
  it("finds the area in the city field and checks it against the province", () => {
    const match = matchAddress({
      provinceCode: "KW-HA",
      city: "Salmiya",
      address1: "Block 10, Street 5, House 12",
    });
    expect(match.area?.nameEn).toBe("Salmiya");
    expect(match.governorate?.code).toBe("KW-HA");
    expect(match.confident).toBe(true);
    expect(match.confidence).toBe(1);
    expect(match.reasons).toContain("province KW-HA agrees");
  });

  it("finds the area in any field, in Arabic or English", () => {
    expect(areaOf({ address1: "السالمية ق١٠ ش٥ م١٢" })).toBe("Salmiya");
    expect(areaOf({ address2: "Mishref\u2060Block 6", address1: "St 4 H 11" })).toBe("Mishref");
    expect(areaOf({ city: "Kuwait", address1: "Street 10 House 5", zip: "Yarmouk" })).toBe(
      "Yarmouk",
    );
    expect(areaOf({ city: "قطعة 4", address2: "خيطان" })).toBe("Khaitan");
  });

  it("tolerates spelling variants, typos and Arabizi", () => {
    expect(areaOf({ city: "Salmyah" })).toBe("Salmiya");
    expect(areaOf({ city: "Fintaas" })).toBe("Fintas");
    expect(areaOf({ city: "Farwnia" })).toBe("Farwaniya");
    expect(areaOf({ city: "5ai6an" })).toBe("Khaitan");
    expect(areaOf({ city: "Jeleeb" })).toBe("Jleeb Al-Shuyoukh");
    expect(areaOf({ city: "القصوور" })).toBe("Qusour");
  });

  it("reads a typo in the second word of a longer name as that longer name", () => {
    expect(areaOf({ city: "Shuwaikh Indutrial", address1: "Block 2" })).toBe("Shuwaikh Industrial");
    expect(areaOf({ city: "Wost Abu Fatira", address1: "Block 1" })).toBe("West Abu Fatira");
    expect(areaOf({ address1: "غب مشرف قطعة 2" })).toBe("Mubarak Al-Abdullah");
    expect(areaOf({ city: "Abroq Khaitan" })).toBe("Abraq Khaitan");
  });

  it("trusts a clear area name over a wrong province, with lower confidence", () => {
    const match = matchAddress({ provinceCode: "KW-KU", city: "Mangaf", address1: "Block 4" });
    expect(match.area?.nameEn).toBe("Mangaf");
    expect(match.governorate?.code).toBe("KW-AH");
    expect(match.confidence).toBeLessThan(1);
    expect(match.confident).toBe(true);
  });

  it("does not send a typo that the province contradicts", () => {
    const match = matchAddress({ provinceCode: "KW-KU", city: "Fintus" });
    expect(match.area?.nameEn).toBe("Fintas");
    expect(match.confident).toBe(false);
  });

  it("treats Kuwait and Kuwait City in the city field as saying nothing about the area", () => {
    const match = matchAddress({
      provinceCode: "KW-KU",
      city: "Kuwait City",
      address1: "Block 2, Street 3",
    });
    expect(match.area).toBeNull();
    expect(match.confident).toBe(false);
    expect(match.governorate?.code).toBe("KW-KU");
    expect(areaOf({ city: "Kuwait City", address1: "Sharq, Block 2" })).toBe("Sharq");
  });

  it("does not read the greeting «السلام عليكم» as the Salam area", () => {
    expect(areaOf({ address1: "السلام عليكم قطعة ٣ شارع ٥ منزل ٦" })).toBeNull();
    expect(areaOf({ address1: "السلام عليكم، الجابرية قطعة 1" })).toBe("Jabriya");
  });

  it("does not read everyday words in delivery notes as areas", () => {
    const match = matchAddress({
      provinceCode: "KW-KU",
      city: "السرة",
      address1: "قطعة 2 منزل 14 التوصيل بعد الظهر",
    });
    expect(match.area?.nameEn).toBe("Surra");
    expect(match.confident).toBe(true);
  });

  it("does not turn given names or common words into areas by typo", () => {
    for (const word of ["Noura", "Nada", "side", "Fatma", "Asma"]) {
      const match = matchAddress({
        provinceCode: "KW-HA",
        city: "Kuwait",
        address1: `${word}, Street 3, House 5`,
      });
      expect(match.confident, word).toBe(false);
    }
  });
});

describe("direction words before an area name", () => {
  it("reads south before Surra as the South Surra district group, not Surra", () => {
    for (const city of [
      "Jnoob Alsurra",
      "Jenoub Surra",
      "S. Surra",
      "Sourth Surra",
      "Janub Surra",
    ]) {
      const match = matchAddress({ city, address1: "Block 3, Street 5, House 8" });
      expect(match.area?.nameEn ?? null, city).toBeNull();
      expect(match.governorate?.code, city).toBe("KW-HA");
      expect(match.confident, city).toBe(false);
    }
    const arabic = matchAddress({ address1: "جنوب السره قطعة 3 شارع 5" });
    expect(arabic.area).toBeNull();
    expect(arabic.governorate?.code).toBe("KW-HA");
  });

  it("reads west, north west and south in any spelling as the area they name", () => {
    expect(areaOf({ city: "Gharb Abdullah Al Mubarak" })).toBe("West Abdullah Al-Mubarak");
    expect(areaOf({ city: "W. Abdullah Al Mubarak", address1: "Block 2" })).toBe(
      "West Abdullah Al-Mubarak",
    );
    expect(areaOf({ city: "Janoob Abdullah Al Mubarak" })).toBe("South Abdullah Al-Mubarak");
    expect(areaOf({ city: "Gharb Mishref" })).toBe("Mubarak Al-Abdullah");
    expect(areaOf({ city: "Shamal Gharb Sulaibikhat" })).toBe("North West Sulaibikhat");
    expect(areaOf({ city: "Jnoob Al Sabahiya", address1: "Block 2" })).toBe("South Sabahiya");
    expect(areaOf({ address1: "غرب عبد الله المبارك قطعة 1" })).toBe("West Abdullah Al-Mubarak");
    expect(areaOf({ address1: "شمال غرب الصليبخات قطعة 2" })).toBe("North West Sulaibikhat");
    expect(areaOf({ address1: "جنوب عبدالله المبارك قطعة 4" })).toBe("South Abdullah Al-Mubarak");
  });

  it("reads a direction word after the name the same way", () => {
    expect(areaOf({ city: "Mshrf Gharb", address1: "Block 3" })).toBe("Mubarak Al-Abdullah");
    expect(areaOf({ city: "Mishref West", address1: "Block 3" })).toBe("Mubarak Al-Abdullah");
    expect(areaOf({ city: "Surra South", address1: "Block 3" })).toBeNull();
    expect(areaOf({ city: "الصباحية الجنوبية", address1: "قطعة 2" })).toBe("South Sabahiya");
    const unknownPart = matchAddress({ provinceCode: "KW-HA", city: "Salmiya East" });
    expect(unknownPart.area?.nameEn).toBe("Salmiya");
    expect(unknownPart.confident).toBe(false);
  });

  it("does not send another area on the strength of a one-letter abbreviation", () => {
    const match = matchAddress({ provinceCode: "KW-KU", city: "S Doha", address1: "Block 2" });
    expect(match.confident).toBe(false);
  });

  it("sends an area whose direction word belongs to one of its own names", () => {
    const match = matchAddress({
      provinceCode: "KW-AH",
      city: "Janoob Al Ahmadi",
      address1: "Block 1 Street 2",
    });
    expect(match.area?.nameEn).toBe("Ahmadi");
    expect(match.confident).toBe(true);
  });

  it("does not send an area preceded by a direction word it has no part for", () => {
    for (const input of [
      { provinceCode: "KW-HA", city: "North Salmiya", address1: "Block 4" },
      { provinceCode: "KW-HA", city: "Gharb Salmiya", address1: "Block 4" },
      { provinceCode: "KW-HA", city: "غرب السالمية", address1: "قطعة 4" },
      { provinceCode: "KW-HA", city: "جنوب الجابرية", address1: "قطعة 4" },
      { provinceCode: "KW-HA", address1: "شمال الجابرية قطعة 4" },
      { provinceCode: "KW-KU", city: "South Yarmouk" },
    ]) {
      const match = matchAddress(input);
      expect(match.confident, JSON.stringify(input)).toBe(false);
      expect(match.confidence, JSON.stringify(input)).toBeLessThan(CONFIDENT_AT);
      expect(match.reasons.join(" "), JSON.stringify(input)).toMatch(/direction/);
    }
  });

  it("still reads Sharq alone, and a direction word that is not next to the name, as before", () => {
    expect(
      matchAddress({ provinceCode: "KW-KU", city: "Sharq", address1: "Block 2" }).area?.nameEn,
    ).toBe("Sharq");
    const separate = matchAddress({
      provinceCode: "KW-HA",
      city: "Salmiya",
      address1: "Block 2, west side",
    });
    expect(separate.area?.nameEn).toBe("Salmiya");
    expect(separate.confident).toBe(true);
  });
});

describe("ambiguity lowers confidence", () => {
  it("holds back an address that names two different areas", () => {
    const match = matchAddress({
      provinceCode: "KW-HA",
      city: "Salmiya",
      address1: "Jabriya block 4 street 3",
    });
    expect(match.confident).toBe(false);
    expect(match.confidence).toBeLessThan(0.5);
    expect(match.reasons.join(" ")).toContain("Jabriya");
  });

  it("holds back alternatives written with or and a slash", () => {
    expect(matchAddress({ address1: "Qurain or Adan block 1" }).confident).toBe(false);
    expect(matchAddress({ address1: "Salwa / Rumaithiya, Block 1" }).confident).toBe(false);
    expect(matchAddress({ address1: "Block 1", address2: "Salmiya or Hawalli" }).confident).toBe(
      false,
    );
  });

  it("treats a twin name alone as the governorate as much as the area", () => {
    const match = matchAddress({
      provinceCode: "KW-HA",
      city: "Hawalli",
      address1: "Block 3, Street 5, House 10",
    });
    expect(match.area?.nameEn).toBe("Hawalli");
    expect(match.governorate?.code).toBe("KW-HA");
    expect(match.confident).toBe(false);
  });

  it("reads a twin name followed by a block as the town", () => {
    expect(
      matchAddress({ provinceCode: "KW-HA", address1: "Hawalli, Block 4, Street 112" }).confident,
    ).toBe(true);
    expect(
      matchAddress({ provinceCode: "KW-JA", address1: "الجهراء قطعة 3 شارع 10" }).confident,
    ).toBe(true);
  });

  it("prefers the twin mention followed by a block over a bare one in the city field", () => {
    for (const provinceCode of ["KW-AH", ""]) {
      const match = matchAddress({
        provinceCode,
        city: "Ahmadi",
        address1: "Ahmadi block 5 street 3 house 12",
      });
      expect(match.area?.nameEn).toBe("Ahmadi");
      expect(match.confident).toBe(true);
      expect(match.reasons.join(" ")).toContain("followed by a block number");
    }
  });

  it("reads a twin name next to an area of the same governorate as the governorate", () => {
    const match = matchAddress({
      provinceCode: "KW-FA",
      city: "Al Farwaniyah",
      address1: "Khaitan, block 6",
    });
    expect(match.area?.nameEn).toBe("Khaitan");
    expect(match.confident).toBe(true);
  });

  it("holds back a twin name that points at another governorate than the area", () => {
    expect(
      matchAddress({ provinceCode: "KW-FA", city: "Jahra", address2: "Firdous" }).confident,
    ).toBe(false);
  });

  it("leaves the South Surra umbrella unresolved unless the district is named", () => {
    const match = matchAddress({
      provinceCode: "KW-HA",
      city: "South Surra",
      address1: "Block 3 Street 5",
    });
    expect(match.area).toBeNull();
    expect(match.governorate?.code).toBe("KW-HA");
    expect(areaOf({ address1: "South Surra, Zahra, block 6, street 612" })).toBe("Zahra");
  });

  it("leaves spellings that fit two areas unresolved", () => {
    expect(areaOf({ provinceCode: "KW-AH", city: "Rigga", address1: "Block 2" })).toBeNull();
    expect(areaOf({ provinceCode: "KW-JA", city: "Sulaibi", address1: "Block 4" })).toBeNull();
  });

  it("holds back a confusable name when the province fits its partner", () => {
    const salmi = matchAddress({
      provinceCode: "KW-HA",
      city: "Salmi",
      address1: "Block 10 Street 5",
    });
    // Salmiya typed short is the better guess when the province is Hawalli; still asked.
    expect(salmi.area?.nameEn).toBe("Salmiya");
    expect(salmi.confident).toBe(false);
    expect(
      matchAddress({ provinceCode: "KW-JA", city: "Salmi", address1: "House 12" }).confident,
    ).toBe(true);
  });

  it("does not send a name that could be its confusable partner with letters left out, unless the province agrees", () => {
    for (const input of [
      { city: "Salmi", address1: "Block 4, Street 2" },
      { provinceCode: "KW-AH", city: "Salmi", address1: "Block 4" },
      { city: "القصر", address1: "قطعة 2 شارع 3" },
      { city: "Sabah Al Salem", address1: "Block 3" },
    ]) {
      const match = matchAddress(input);
      expect(match.confident, JSON.stringify(input)).toBe(false);
      expect(match.reasons.join(" "), JSON.stringify(input)).toMatch(/left out/);
    }
    expect(matchAddress({ city: "Salmi", address2: "Jahra Governorate" }).confident).toBe(true);
    expect(matchAddress({ provinceCode: "KW-JA", city: "القصر" }).confident).toBe(true);
    expect(matchAddress({ provinceCode: "KW-MU", city: "Sabah Al Salem" }).confident).toBe(true);
  });

  it("sends the longer of two confusable names without a province", () => {
    expect(matchAddress({ city: "Salmiya", address1: "Block 4" }).confident).toBe(true);
    expect(matchAddress({ city: "القصور", address1: "قطعة 1" }).confident).toBe(true);
  });

  it("does not count a place named as a landmark or in a street name against the area", () => {
    expect(
      matchAddress({
        provinceCode: "KW-HA",
        city: "Jabriya",
        address1: "Block 4, near Salmiya co-op",
      }).confident,
    ).toBe(true);
    expect(
      matchAddress({
        provinceCode: "KW-KU",
        city: "Kaifan",
        address1: "Street Abdullah Al Salem, Block 3",
      }).confident,
    ).toBe(true);
    expect(
      matchAddress({
        provinceCode: "KW-KU",
        address1: "Mubarak Al Kabeer Street, Sharq, Building 20",
      }).area?.nameEn,
    ).toBe("Sharq");
  });

  it("guesses, but does not send, when the only name is a landmark or a street", () => {
    const match = matchAddress({
      provinceCode: "KW-KU",
      address1: "Fahad Al Ahmad Street building 7",
    });
    expect(match.confident).toBe(false);
  });

  it("says what it could not find", () => {
    const match = matchAddress({ city: "Kuwait", address1: "Block 4 Street 10 House 5" });
    expect(match.area).toBeNull();
    expect(match.confidence).toBe(0);
    expect(match.reasons).toContain("no area name found");
  });
});

describe("addresses outside Kuwait", () => {
  it("resolves nothing for another country", () => {
    const match = matchAddress({ countryCode: "QA", city: "Doha", address1: "Street 5" });
    expect(match.area).toBeNull();
    expect(match.reasons[0]).toContain("not Kuwait");
  });
});

describe("merchant overrides", () => {
  const address: AddressInput = {
    provinceCode: "KW-HA",
    city: "Slmya block 4",
    address1: "st 3 h 9",
  };

  it("computes the same key for the same spelling whatever the numbers", () => {
    const key = overrideKey(address);
    expect(key).toBeTruthy();
    expect(
      overrideKey({
        provinceCode: "KW-HA",
        city: "Slmya",
        address1: "Block 7, Street 1, House 22",
      }),
    ).toBe(key);
    expect(matchAddress(address).overrideKey).toBe(key);
  });

  it("keeps word order and spelling apart", () => {
    const key = (city: string, provinceCode = "KW-FA") => overrideKey({ provinceCode, city });
    expect(key("Abdullah Al-Mubarak")).not.toBe(key("Mubarak Al-Abdullah"));
    expect(key("Naeem", "KW-JA")).not.toBe(key("Naayem", "KW-JA"));
    expect(key("Salmiya", "KW-HA")).not.toBe(key("Slmya", "KW-HA"));
  });

  it("includes the province code, so a fix for one province is not applied to another", () => {
    const elsewhere = { ...address, provinceCode: "KW-AH" };
    expect(overrideKey(elsewhere)).not.toBe(overrideKey(address));
    const overrides: AreaOverride[] = [
      { key: overrideKey(address) ?? "", governorate: "KW-HA", area: "Salmiya" },
    ];
    expect(matchAddress(elsewhere, { overrides }).reasons.join(" ")).not.toContain(
      "remembered by the merchant",
    );
  });

  it("refuses to remember an address that names only a governorate, a twin name or generic words, and says why", () => {
    for (const input of [
      { provinceCode: "KW-HA", city: "Hawalli", address1: "Block 3, Street 5" },
      { provinceCode: "KW-HA", address1: "Hawalli, Block 4, Street 112" },
      { provinceCode: "KW-AH", city: "Al Ahmadi", address1: "Block 3 Street 301 House 15" },
      { provinceCode: "KW-FA", city: "محافظة الفروانية", address1: "قطعة 2 شارع 3 منزل 4" },
      { provinceCode: "KW-KU", city: "Kuwait", address1: "near the big mosque blk 3 st 5 house 9" },
      { provinceCode: "KW-KU", city: "Kuwait City", address1: "Building 10, Floor 3, Flat 5" },
      { provinceCode: "", city: "", address1: "" },
    ]) {
      expect(overrideKey(input), JSON.stringify(input)).toBeNull();
      const { key, refusal } = overrideKeyFor(input);
      expect(key).toBeNull();
      expect(refusal, JSON.stringify(input)).toMatch(/governorate|no place/);
      expect(matchAddress(input).overrideKey).toBeNull();
    }
  });

  it("keeps only place words in the key, no customer details", () => {
    const key = overrideKey({
      provinceCode: "KW-HA",
      city: "Slmya",
      address1: "Block 4 Street 3 House 9, Fatima Al Ali, call 99887766 before coming",
      address2: "near the big mosque",
    });
    expect(key).toBeTruthy();
    expect(key).not.toMatch(/\d{2}|fatima|mosque|call/i);
  });

  it("applies a remembered answer first, with the reason", () => {
    const overrides: AreaOverride[] = [
      { key: overrideKey(address) ?? "", governorate: "KW-HA", area: "Salmiya" },
    ];
    const match = matchAddress(address, { overrides });
    expect(match.area?.nameEn).toBe("Salmiya");
    expect(match.confidence).toBe(1);
    expect(match.confident).toBe(true);
    expect(match.reasons[0]).toContain("remembered by the merchant");
    expect(match.parts.block).toBe("4");
  });

  it("overrides even a confident answer, because the merchant knows the customer", () => {
    const input = { provinceCode: "KW-HA", city: "Hitteen", address1: "Block 2" };
    const overrides = [{ key: overrideKey(input) ?? "", governorate: "Hawalli", area: "حطين" }];
    expect(matchAddress(input, { overrides }).reasons[0]).toContain("remembered by the merchant");
  });

  it("ignores a remembered answer that names no known area", () => {
    const overrides = [{ key: overrideKey(address) ?? "", governorate: "KW-HA", area: "Atlantis" }];
    const match = matchAddress(address, { overrides });
    expect(match.reasons.join(" ")).toContain("unknown area");
    expect(match.reasons.join(" ")).not.toContain("remembered by the merchant:");
  });

  it("does not apply overrides whose key differs", () => {
    const overrides = [{ key: "something else", governorate: "KW-AH", area: "Mangaf" }];
    expect(matchAddress(address, { overrides }).area?.nameEn).not.toBe("Mangaf");
  });
});

describe("pickup location proposals", () => {
  it("proposes governorate, area and parts for a Shopify Location", () => {
    const proposal = proposePickupLocation({
      address1: "Block 1, Street 20, Building 33",
      address2: "",
      city: "Rai",
      zip: "",
      provinceCode: "KW-FA",
      countryCode: "KW",
    });
    expect(proposal.area?.nameEn).toBe("Rai");
    expect(proposal.governorate?.code).toBe("KW-FA");
    expect(proposal.parts).toMatchObject({ block: "1", street: "20", building: "33" });
    expect(proposal.courier).toBeNull();
  });

  it("proposes nothing for a location outside Kuwait", () => {
    const proposal = proposePickupLocation({
      address1: "1 Main St",
      city: "Dubai",
      countryCode: "AE",
    });
    expect(proposal.area).toBeNull();
    expect(proposal.confident).toBe(false);
  });
});

describe("the confidence threshold", () => {
  it("is what decides confident", () => {
    for (const city of ["Salmiya", "Hawalli", "Slmiya", "Kuwait", "Fintaas"]) {
      const match = matchAddress({ provinceCode: "KW-HA", city });
      expect(match.confident).toBe(match.area !== null && match.confidence >= CONFIDENT_AT);
    }
  });
});
