import { describe, expect, it } from "vitest";
import { type AddressInput, matchAddress } from "../../../app/addresses";

// The kinds of issue 30: what shoppers paste as a message. Examples are written for this file,
// not taken from test/fixtures/addresses/messages.jsonl (the set the bench reports).

function sent(input: AddressInput): string | null {
  const match = matchAddress(input);
  return match.confident ? (match.area?.nameEn ?? null) : null;
}

describe("confidence that means it", () => {
  it("does not send to an area named only inside a hospital's, a base's, a gate's or a road's name", () => {
    for (const address1 of [
      "Jahra Hospital, nurses housing, building 2",
      "Jaber Al Ahmad Air Base",
      "Sabah Al Salem Medical Centre, floor 1",
      "Jahra Gate tower 3",
      "Mangaf highway, exit 12",
      "مستشفى الفروانية، مبنى الطوارئ",
    ]) {
      const match = matchAddress({ address1 });
      expect(match.confident, address1).toBe(false);
      expect(match.doubt?.kind, address1).toBe("only_landmark");
    }
  });

  it("still sends to the area a co-op or a police station is named after, and to the area beside a hospital", () => {
    expect(
      sent({ provinceCode: "KW-MU", address1: "Qurain co-op, block 2 street 4 house 9" }),
    ).toBe("Qurain");
    expect(
      sent({
        provinceCode: "KW-JA",
        city: "Oyoun",
        address1: "Block 1 St 3 House 8 near Jahra hospital",
      }),
    ).toBe("Oyoun");
  });

  it("reads «مدينة الكويت» like Kuwait City: the country's capital as a whole, not an area", () => {
    for (const city of ["مدينة الكويت", "مدينه الكويت", "Kuwait City"]) {
      const match = matchAddress({ provinceCode: "KW-KU", city });
      expect(match.area, city).toBeNull();
      expect(match.doubt).toEqual({ kind: "only_generic", typed: city });
    }
    // With a district of the capital in the address, that district.
    expect(sent({ provinceCode: "KW-KU", city: "مدينة الكويت", address1: "المرقاب، شارع 3" })).toBe(
      "Mirqab",
    );
  });

  it("reads a person's name in a message as a person, not the area", () => {
    for (const address1 of [
      "Hi this is Shaab, block 5 street 3 house 2",
      "I'm Bayan block 2 street 7 house 30",
      "مرحبا معك الزهراء قطعة 4 شارع 6 منزل 1",
      "اسمي سلوى قطعة 1 شارع 2 منزل 3",
      "Customer name: Hadiya block 6 street 2 house 7",
      "Shuhada here, block 1 street 1 house 1",
      "Hello, it's Zahra. Block 2 street 3 house 4",
    ]) {
      const match = matchAddress({ address1 });
      expect(match.confident, address1).toBe(false);
      expect(match.doubt?.kind, address1).toBe("person_name");
    }
    expect(
      sent({
        provinceCode: "KW-HA",
        city: "Mishref",
        address1: "this is Salwa, block 1 street 2 house 3",
      }),
    ).toBe("Mishref");
  });

  it("says which two areas an address names when nothing says which is meant", () => {
    const match = matchAddress({
      city: "Qortuba or Yarmouk",
      address1: "Block 1 street 2 house 3",
    });
    expect(match.confident).toBe(false);
    expect(match.doubt).toEqual({ kind: "two_areas", areas: ["Qortuba", "Yarmouk"] });
  });

  it("takes a short name as its partner when the governorate chosen fits the partner, without sending", () => {
    const match = matchAddress({ provinceCode: "KW-HA", city: "Salmi", address1: "Block 9" });
    expect(match.area?.nameEn).toBe("Salmiya");
    expect(match.confident).toBe(false);
    expect(match.doubt).toEqual({ kind: "could_be", typed: "Salmi", areas: ["Salmiya", "Salmi"] });
  });

  it("has no doubt when it is sure", () => {
    expect(
      matchAddress({ provinceCode: "KW-HA", city: "Salmiya", address1: "Block 1" }).doubt,
    ).toBeNull();
  });

  it("reads uncommon spellings of real areas", () => {
    expect(sent({ provinceCode: "KW-JA", city: "Qairouan", address1: "Block 2" })).toBe("Qairawan");
    expect(sent({ provinceCode: "KW-HA", city: "Jabriyeh", address1: "Block 2" })).toBe("Jabriya");
    expect(sent({ provinceCode: "KW-KU", city: "Qadsiyeh", address1: "Block 2" })).toBe("Qadsiya");
  });
});

describe("parts from free text", () => {
  const parts = (input: AddressInput) => matchAddress(input).parts;

  it("reads 4/12/30 and 4-12-30 as block, street and house", () => {
    for (const address1 of ["Surra 4/12/30", "Surra 4-12-30", "سلوى ٤/١٢/٣٠"]) {
      expect(parts({ address1 }), address1).toMatchObject({
        block: "4",
        street: "12",
        house: "30",
      });
    }
  });

  it("leaves two numbers, a fourth, or numbers after a keyword as they are", () => {
    expect(parts({ address1: "Surra 4/12" })).toMatchObject({ block: null, street: null });
    expect(parts({ address1: "Surra 4/12/30/2" })).toMatchObject({ block: null, house: null });
    expect(parts({ address1: "Block 4, street 12, 30/2/5" })).toMatchObject({
      block: "4",
      street: "12",
      house: null,
    });
  });

  it("reads numbers written as words after a keyword", () => {
    expect(parts({ address1: "قطعة خمسة شارع ثمانية منزل اثنين" })).toMatchObject({
      block: "5",
      street: "8",
      house: "2",
    });
    expect(parts({ address1: "block three street 10 house four" })).toMatchObject({
      block: "3",
      street: "10",
      house: "4",
    });
  });

  it("does not take a phone number for a part", () => {
    expect(parts({ address1: "Mariam 66123456 Qurain block 3 street 9 house 14" })).toMatchObject({
      block: "3",
      street: "9",
      house: "14",
      building: null,
      paci: null,
    });
  });
});
