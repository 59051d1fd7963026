import type { AddressInput, StandInLocationAddress, Weight } from "./records";

// Kuwait as the stand-in's shops know it: its provinces, and the defaults of the store's builders.

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
