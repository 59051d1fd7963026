import {
  fail,
  type AddressInput,
  type MailingAddressInput,
  type Outcome,
  type StandInAddress,
  type StandInLocationAddress,
  type Weight,
} from "./records";

// Kuwait as the stand-in's shops know it (its provinces, the defaults of the store's builders),
// and a shipping address changed the way orderUpdate changes it.

/** Kuwait's provinces as Shopify names them (its `KW` zones). */
export const KUWAIT_PROVINCES: Record<string, string> = {
  "KW-AH": "Al Ahmadi",
  "KW-FA": "Al Farwaniyah",
  "KW-HA": "Hawalli",
  "KW-JA": "Al Jahra",
  "KW-KU": "Al Asimah",
  "KW-MU": "Mubarak Al-Kabeer",
};

export const DEFAULT_SHIPPING_ADDRESS: AddressInput = {
  firstName: "Fatima",
  lastName: "Al-Mutairi",
  company: null,
  address1: "Block 4, Street 12, House 9",
  address2: null,
  city: "Salmiya",
  province: "Hawalli",
  provinceCode: "KW-HA",
  zip: null,
  country: "Kuwait",
  countryCode: "KW",
  phone: "+96550001234",
  latitude: null,
  longitude: null,
};

export const DEFAULT_LOCATION_ADDRESS: StandInLocationAddress = {
  address1: "Block 2, Street 24, Building 15",
  address2: null,
  city: "Shuwaikh Industrial",
  zip: "70050",
  province: "Al Asimah",
  provinceCode: "KW-KU",
  country: "Kuwait",
  countryCode: "KW",
  phone: "+96522200000",
  latitude: 29.3375,
  longitude: 47.9314,
};

export const DEFAULT_LINE_ITEM = {
  title: "Oud Perfume",
  variantTitle: "50 ml",
  sku: "OUD-50",
  vendor: "Demo Store",
  quantity: 1,
  price: "12.500",
  weight: { value: 350, unit: "GRAMS" } as Weight,
};

/** A shipping address from the builder's input, over the Kuwaiti default. */
export function buildAddress(id: number, input: Partial<AddressInput>): StandInAddress {
  const address = { ...DEFAULT_SHIPPING_ADDRESS, ...input };
  if (input.provinceCode && input.province === undefined) {
    address.province = KUWAIT_PROVINCES[input.provinceCode] ?? null;
  }
  return { id, ...address };
}

/** Countries whose provinces the stand-in knows (Shopify's zones); others take any province. */
const ZONES: Record<string, Record<string, string>> = { KW: KUWAIT_PROVINCES };

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/** A country's English name, as Shopify names it in addresses; undefined for no country. */
export function countryName(code: string): string | undefined {
  if (!/^[A-Z]{2}$/.test(code) || code === "ZZ") return undefined;
  const name = regionNames.of(code);
  return name && name !== code ? name : undefined;
}

function countryCodeOf(name: string): string | undefined {
  const wanted = name.trim().toLowerCase();
  for (let a = 65; a <= 90; a += 1) {
    for (let b = 65; b <= 90; b += 1) {
      const code = String.fromCharCode(a, b);
      if (countryName(code)?.toLowerCase() === wanted) return code;
    }
  }
  return undefined;
}

const LOCATED_BY = ["address1", "address2", "city", "province", "zip", "countryCode"] as const;

/**
 * The shipping address after orderUpdate's `shippingAddress`: the fields given replace the old
 * ones (null clears one), the others stay. A country or province Shopify would not accept is a
 * user error; the coordinates are dropped once the place changes, since MailingAddressInput
 * cannot carry them and the stand-in does not geocode.
 */
export function updatedAddress(
  current: StandInAddress | null,
  input: MailingAddressInput,
  newId: () => number,
): Outcome<StandInAddress> {
  const field = (name: string) => ["shippingAddress", name];
  const base: StandInAddress = current ?? {
    id: newId(),
    firstName: null,
    lastName: null,
    company: null,
    address1: null,
    address2: null,
    city: null,
    province: null,
    provinceCode: null,
    zip: null,
    country: "",
    countryCode: "",
    phone: null,
    latitude: null,
    longitude: null,
  };
  const next: StandInAddress = { ...base };
  for (const key of [
    "firstName",
    "lastName",
    "company",
    "address1",
    "address2",
    "city",
    "zip",
    "phone",
  ] as const) {
    if (input[key] !== undefined) next[key] = input[key] ?? null;
  }

  let countryCode = input.countryCode ?? undefined;
  if (countryCode === undefined && input.country) {
    countryCode = countryCodeOf(input.country);
    if (!countryCode) return fail(field("country"), `Country ${input.country} is not valid.`);
  }
  if (countryCode !== undefined) {
    const name = countryName(countryCode);
    if (!name) return fail(field("countryCode"), `Country code ${countryCode} is not valid.`);
    if (countryCode !== base.countryCode) {
      next.province = null;
      next.provinceCode = null;
    }
    next.countryCode = countryCode;
    next.country = name;
  }
  if (!next.countryCode) return fail(field("countryCode"), "Country code can't be blank.");

  const zones = ZONES[next.countryCode];
  if (input.provinceCode !== undefined || input.province !== undefined) {
    const code = input.provinceCode ?? null;
    const name = input.provinceCode === undefined ? (input.province ?? null) : null;
    if (!zones) {
      next.provinceCode = code;
      next.province = name ?? code;
    } else if (code !== null) {
      if (!zones[code]) {
        return fail(
          field("provinceCode"),
          `Province code ${code} is not a province of ${next.country}.`,
        );
      }
      next.provinceCode = code;
      next.province = zones[code];
    } else if (name !== null) {
      const found = Object.entries(zones).find(([, n]) => n.toLowerCase() === name.toLowerCase());
      if (!found)
        return fail(field("province"), `Province ${name} is not a province of ${next.country}.`);
      [next.provinceCode, next.province] = found;
    } else {
      next.provinceCode = null;
      next.province = null;
    }
  }

  if (LOCATED_BY.some((key) => next[key] !== base[key])) {
    next.latitude = null;
    next.longitude = null;
  }
  return { ok: true, value: next };
}
