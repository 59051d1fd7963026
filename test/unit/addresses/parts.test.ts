import { describe, expect, it } from "vitest";
import { type AddressInput, type AddressParts, matchAddress } from "../../../app/addresses";

function parts(input: AddressInput | string): Partial<AddressParts> {
  const found = matchAddress(typeof input === "string" ? { address1: input } : input).parts;
  return Object.fromEntries(Object.entries(found).filter(([, value]) => value !== null));
}

describe("part extraction from English notations", () => {
  it("reads the ordered, comma-separated form", () => {
    expect(parts("Salmiya, block 10, street 5, house 12")).toEqual({
      block: "10",
      street: "5",
      house: "12",
    });
  });

  it("reads abbreviations with and without spaces or dots", () => {
    expect(parts("Jabriya blk 1 st 1 ave 3 h 15")).toEqual({
      block: "1",
      street: "1",
      avenue: "3",
      house: "15",
    });
    expect(parts("Bl8 st14 h21")).toEqual({ block: "8", street: "14", house: "21" });
    expect(parts("B.1, St.5, H.20")).toEqual({ block: "1", street: "5", house: "20" });
    expect(parts("Blk: 1 - St: 12 - House No: 5")).toEqual({
      block: "1",
      street: "12",
      house: "5",
    });
    expect(parts("Block#5 Street#3 Ave#2 House#25")).toEqual({
      block: "5",
      street: "3",
      avenue: "2",
      house: "25",
    });
  });

  it("splits keywords and numbers typed without spaces", () => {
    expect(parts("Block3Street5House12")).toEqual({ block: "3", street: "5", house: "12" });
    expect(parts("blk4st2h9")).toEqual({ block: "4", street: "2", house: "9" });
  });

  it("accepts the words shoppers use for a block, an avenue and a house", () => {
    expect(parts("black 2 street 6 house 14")).toEqual({ block: "2", street: "6", house: "14" });
    expect(parts("piece 7 road 70 villa 9")).toEqual({ block: "7", street: "70", house: "9" });
    expect(parts("blok 5 gada 3 home 11")).toEqual({ block: "5", avenue: "3", house: "11" });
    expect(parts("Block 3 Lane 1 House 8")).toEqual({ block: "3", avenue: "1", house: "8" });
  });

  it("reads buildings, floors and flats, including ordinal and ground floors", () => {
    expect(parts("Block 1, Street 10, Building 19, Floor 6, Apartment 23")).toEqual({
      block: "1",
      street: "10",
      building: "19",
      floor: "6",
      apartment: "23",
    });
    expect(parts("bldg 21 2nd floor apt 8")).toEqual({
      building: "21",
      floor: "2",
      apartment: "8",
    });
    expect(parts("bldg 5 third floor flat 9")).toEqual({
      building: "5",
      floor: "3",
      apartment: "9",
    });
    expect(parts("building 27 ground floor flat 2")).toEqual({
      building: "27",
      floor: "G",
      apartment: "2",
    });
    expect(parts("Bldg 3, Floor 2, Flat A3")).toEqual({
      building: "3",
      floor: "2",
      apartment: "A3",
    });
    expect(parts("Building 14, Apt 2B")).toEqual({ building: "14", apartment: "2B" });
  });

  it("reads street names written before or after the keyword", () => {
    expect(parts("Block 1 Street Ibn Khaldoun Building 6")).toEqual({
      block: "1",
      street: "Ibn Khaldoun",
      building: "6",
    });
    expect(parts("Tunis Street, Block 2, Building 11")).toEqual({
      block: "2",
      street: "Tunis",
      building: "11",
    });
    expect(parts("Block 12, Salem Al Mubarak St, Building 40")).toEqual({
      block: "12",
      street: "Salem Al Mubarak",
      building: "40",
    });
  });

  it("does not swallow the area into a street name written before the keyword", () => {
    const match = matchAddress({ address1: "Salmiya Tunis Street, Block 2" });
    expect(match.parts.street).toBe("Tunis");
    expect(match.area?.nameEn).toBe("Salmiya");
  });
});

describe("part extraction from Arabic notations", () => {
  it("reads one-letter abbreviations glued to Arabic-Indic digits", () => {
    expect(parts("السالمية ق١٠ ش٥ م١٢")).toEqual({ block: "10", street: "5", house: "12" });
    expect(parts("صباح السالم ق٦ ش٣ جاده ٥ م٢٢")).toEqual({
      block: "6",
      street: "3",
      avenue: "5",
      house: "22",
    });
  });

  it("reads full words, the article and glued prepositions", () => {
    expect(parts("قطعه 11 الشارع 3 مقابل جاده 2 منزل 40")).toEqual({
      block: "11",
      street: "3",
      avenue: "2",
      house: "40",
    });
    expect(parts("الفروانية قطعة 2 شارع 75 بالعمارة رقم 14")).toEqual({
      block: "2",
      street: "75",
      building: "14",
    });
    expect(parts("بالسالمية قطعة (7) ش (9) جادة (4)")).toEqual({
      block: "7",
      street: "9",
      avenue: "4",
    });
  });

  it("reads floors written as ordinal words and house numbers with a letter", () => {
    expect(parts("عمارة ٣١٠ الدور الثاني شقة ١٤")).toEqual({
      building: "310",
      floor: "2",
      apartment: "14",
    });
    expect(parts("عمارة 33 الدور الأرضي")).toEqual({ building: "33", floor: "G" });
    expect(parts("القطعة الرابعة شارع ٤٢ منزل ١٣")).toEqual({
      block: "4",
      street: "42",
      house: "13",
    });
    expect(parts("منزل ٩ب دور١")).toEqual({ house: "9B", floor: "1" });
  });

  it("reads named Arabic streets", () => {
    expect(parts("قطعة 1 شارع المثنى عمارة 12")).toEqual({
      block: "1",
      street: "المثنى",
      building: "12",
    });
    expect(parts("شارع الخليج العربي برج ٣")).toEqual({ street: "الخليج العربي", building: "3" });
  });
});

describe("PACI numbers", () => {
  it("takes an 8-digit number only after a PACI label", () => {
    expect(parts("House 12, PACI 12345678").paci).toBe("12345678");
    expect(parts("Paci#45678901").paci).toBe("45678901");
    expect(parts("PACI no: 23456789").paci).toBe("23456789");
    expect(parts("automated address number 30102938").paci).toBe("30102938");
    expect(parts("الرقم الآلي للعنوان: ١٨٢٧٣٦٤٥").paci).toBe("18273645");
  });

  it("leaves unlabelled 8-digit numbers alone, since they are usually phone numbers", () => {
    const match = matchAddress({ address1: "Block 3 House 20, call 99887766" });
    expect(match.parts.paci).toBeNull();
    expect(match.reasons.join(" ")).toContain("99887766");
  });

  it("rejects a PACI label followed by the wrong number of digits", () => {
    expect(parts("PACI 1234567").paci).toBeUndefined();
    expect(parts("PACI 1234 567").paci).toBeUndefined();
  });

  it("reads a PACI number written in two groups of four", () => {
    expect(parts("Block 2, PACI 1234 5678")).toEqual({ block: "2", paci: "12345678" });
    expect(parts("الرقم الآلي ١٢٣٤ ٥٦٧٨").paci).toBe("12345678");
    // Without a label two groups of four are a phone number.
    expect(parts("Block 3 House 12 call 9988 7766").paci).toBeUndefined();
  });

  it("reads a PACI number after the KuwaitFinder label", () => {
    expect(parts("KuwaitFinder 45678901").paci).toBe("45678901");
    expect(parts("Kuwait Finder: 4567 8901").paci).toBe("45678901");
  });
});

describe("numbers with a letter after a hyphen", () => {
  it("keeps the letter, on either side of the hyphen", () => {
    expect(parts("Building 14, Floor 3, Flat 1-A")).toEqual({
      building: "14",
      floor: "3",
      apartment: "1A",
    });
    expect(parts("Block 3, Street 17, House 9-B")).toEqual({
      block: "3",
      street: "17",
      house: "9B",
    });
    expect(parts("Building 4, Flat A-1")).toEqual({ building: "4", apartment: "A1" });
    expect(parts("b-3 s-12 h-7")).toEqual({ block: "3", street: "12", house: "7" });
  });
});

describe("parts spread over fields", () => {
  it("reads Shopify's U+2060-joined extended fields", () => {
    expect(parts({ address1: "Street 5\u2060Block 3", address2: "Salmiya" })).toEqual({
      block: "3",
      street: "5",
    });
  });

  it("reads parts from the city and zip fields too", () => {
    expect(parts({ city: "صباح الناصر ق2", address1: "شارع 22 منزل 5" })).toEqual({
      block: "2",
      street: "22",
      house: "5",
    });
    expect(parts({ zip: "Block 4", address1: "Street 1" })).toEqual({ block: "4", street: "1" });
  });

  it("keeps the first value and says so when fields disagree", () => {
    const match = matchAddress({ address1: "Block 4 Street 2", address2: "Block 5" });
    expect(match.parts.block).toBe("4");
    expect(match.reasons.join(" ")).toContain("more than one block");
  });
});
