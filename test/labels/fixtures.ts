import { addressMatchColumn } from "../../app/domain/address-match";
import { requestColumn } from "../../app/domain/stored-request";
import type { LabelDelivery } from "../../app/labels";

/** The JSON columns of {@link createdDelivery} as the database holds them. */
export const CREATED_DELIVERY_COLUMNS = {
  request: JSON.stringify({
    pickupAddress: {
      governanceId: 2,
      areaId: 31,
      block: "1",
      street: "Tunis St",
      office: "",
      floor: "",
      house: "",
      avenue: "",
      building: "8",
      contactCountryCode: "+965",
      contactName: "Dar Al Abaya",
      contactPhone: "22223333",
      notes: "",
    },
    pickupDate: "2026-11-24T14:30:00",
    paymentMethod: "COD",
    deliveryAddress: {
      governanceId: 2,
      areaId: 31,
      block: "4",
      street: "12",
      avenue: "3",
      house: "17",
      building: "",
      floor: "2",
      office: "",
      contactCountryCode: "+965",
      contactName: "فاطمة العلي",
      contactPhone: "55512345",
      notes: "Apartment 5 · PACI 12345678",
    },
    packageDetails: { weight: 1.25, description: "2 × Abaya, 1 × Scarf", value: 12.5 },
    notes: "SHPFY-label-shop-5550001 · Shopify order #1042",
  }),
  addressMatch: JSON.stringify({
    input: {
      city: "حولي",
      address1: "قطعة ٤ شارع ١٢ جادة ٣ منزل ١٧",
      address2: "الدور الثاني شقة ٥",
      provinceCode: "KW-HA",
      zip: null,
    },
    area: "Hawalli",
    governorate: "Hawalli",
    parts: {
      block: "4",
      street: "12",
      avenue: "3",
      house: "17",
      building: null,
      floor: "2",
      apartment: "5",
      paci: "12345678",
    },
  }),
};

/** A created delivery as the worker leaves it: request as sent, the matcher's record, money. */
export function createdDelivery(overrides: Partial<LabelDelivery> = {}): LabelDelivery {
  return {
    id: "cldelivery0000000000001",
    orderName: "#1042",
    reference: "SHPFY-label-shop-5550001",
    courierOrderId: "88123",
    courierOrderNumber: "KW0088123",
    trackingUrl: "https://app.example.com/tracking/0123456789abcdef0123456789abcdef",
    cashToCollect: "12.500",
    request: requestColumn.decode(CREATED_DELIVERY_COLUMNS.request),
    addressMatch: addressMatchColumn.decode(CREATED_DELIVERY_COLUMNS.addressMatch),
    ...overrides,
  };
}

/** The long Arabic address a driver must still be able to read. */
export const LONG_ARABIC_ADDRESS = {
  address1:
    "منطقة صباح السالم قطعة ١٢ شارع عبدالله المبارك الصباح جادة ٧ منزل رقم ٤٣ بجانب جمعية صباح السالم التعاونية الفرع الرئيسي مقابل مسجد الرحمن",
  address2:
    "الدور الثالث شقة ١٢ المدخل الخلفي من جهة الحديقة العامة، الرجاء الاتصال قبل الوصول بنصف ساعة وعدم ترك الطرد عند الباب",
  city: "صباح السالم",
};
