import fs from "node:fs";
import path from "node:path";

/**
 * The sandbox courier's master data, built from the app's gazetteer but deliberately not equal to
 * it: the courier has its own ids (never array positions), spells a few Arabic names its own way,
 * and lacks a few areas altogether. The app's area matching has to cope with all three.
 */

export const DEFAULT_GAZETTEER = path.resolve(
  import.meta.dirname,
  "../../app/addresses/data/kuwait-areas.json",
);

export interface SandboxArea {
  areaId: number;
  governanceId: number;
  nameAr: string;
  nameEn: string;
  /** Outlying areas cost more to reach (see the price formula). */
  remote: boolean;
}

export interface SandboxGovernance {
  governanceId: number;
  code: string;
  nameAr: string;
  nameEn: string;
  areas: SandboxArea[];
}

/** Areas the courier does not serve: the app must notice a gazetteer area has no courier id. */
export const MISSING_AREAS = ["Failaka Island", "Shuwaikh Port", "Sabah Al-Ahmad Sea City"];

/**
 * Arabic names as this courier writes them, differing from the gazetteer the way real lists do:
 * taa marbuta as haa, hamza dropped from alef, the article missing or added, a prefix dropped.
 */
export const COURIER_SPELLINGS: Record<string, string> = {
  Qibla: "القبله", // ة → ه
  Salmiya: "السالميه", // ة → ه
  Ahmadi: "الاحمدي", // أ → ا
  "Abu Halifa": "ابو حليفة", // أ → ا
  Andalus: "الاندلس", // أ → ا
  Sharq: "الشرق", // article added
  Rumaithiya: "رميثية", // article missing
  Jabriya: "جابريه", // article missing and ة → ه
  "Hessa Al-Mubarak": "حصة المبارك", // "ضاحية" dropped
  "Abdullah Al-Salem": "عبدالله السالم", // "ضاحية" dropped
};

export const REMOTE_AREAS = new Set([
  "Wafra",
  "Khairan",
  "Zour",
  "Nuwaiseeb",
  "Bneider",
  "Julaia",
  "Dubaiya",
  "Abdali",
  "Subiya",
  "Salmi",
  "Mutlaa",
  "Kabd",
  "Rawdatain",
  "Umm Al-Aish",
  "Bhaith",
]);

interface GazetteerGovernorate {
  code: string;
  nameEn: string;
  nameAr: string;
  areas: { nameEn: string; nameAr: string }[];
}

// FNV-1a: a stable hash, so ids are the same on every run and every machine.
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, "utf8")) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

// An id in [min, max] derived from `key`, moved on past ids already taken.
function stableId(key: string, min: number, max: number, taken: Set<number>): number {
  const span = max - min + 1;
  let id = min + (fnv1a(key) % span);
  while (taken.has(id)) id = id === max ? min : id + 1;
  taken.add(id);
  return id;
}

export function loadMasterData(gazetteerPath = DEFAULT_GAZETTEER): SandboxGovernance[] {
  const gazetteer = JSON.parse(fs.readFileSync(gazetteerPath, "utf8")) as GazetteerGovernorate[];
  const governanceIds = new Set<number>();
  const areaIds = new Set<number>();
  return gazetteer.map((gov) => {
    const governanceId = stableId(`governance:${gov.code}`, 11, 99, governanceIds);
    const areas = gov.areas
      .filter((area) => !MISSING_AREAS.includes(area.nameEn))
      .map((area) => ({
        areaId: stableId(`area:${gov.code}:${area.nameEn}`, 1000, 9999, areaIds),
        governanceId,
        nameAr: COURIER_SPELLINGS[area.nameEn] ?? area.nameAr,
        nameEn: area.nameEn,
        remote: REMOTE_AREAS.has(area.nameEn),
      }));
    return { governanceId, code: gov.code, nameAr: gov.nameAr, nameEn: gov.nameEn, areas };
  });
}

export type StatusCode =
  | "pending"
  | "accepted"
  | "assigned"
  | "picked_up"
  | "in_transit"
  | "out_for_delivery"
  | "delivered"
  | "delivery_failed"
  | "returned"
  | "cancelled";

export interface StatusInfo {
  statusId: number;
  statusCode: StatusCode;
  nameAr: string;
  nameEn: string;
  terminal: boolean;
}

/** The order statuses served by `/api/master/order-status/{lang}`; `pending` is the document's. */
export const ORDER_STATUSES: readonly StatusInfo[] = [
  {
    statusId: 1,
    statusCode: "pending",
    nameAr: "قيد الانتظار",
    nameEn: "Pending",
    terminal: false,
  },
  {
    statusId: 2,
    statusCode: "accepted",
    nameAr: "تم قبول الطلب",
    nameEn: "Accepted",
    terminal: false,
  },
  {
    statusId: 3,
    statusCode: "assigned",
    nameAr: "تم تعيين السائق",
    nameEn: "Driver assigned",
    terminal: false,
  },
  {
    statusId: 4,
    statusCode: "picked_up",
    nameAr: "تم الاستلام من المرسل",
    nameEn: "Picked up",
    terminal: false,
  },
  {
    statusId: 5,
    statusCode: "in_transit",
    nameAr: "في الطريق",
    nameEn: "In transit",
    terminal: false,
  },
  {
    statusId: 6,
    statusCode: "out_for_delivery",
    nameAr: "خرج للتوصيل",
    nameEn: "Out for delivery",
    terminal: false,
  },
  {
    statusId: 7,
    statusCode: "delivered",
    nameAr: "تم التوصيل",
    nameEn: "Delivered",
    terminal: true,
  },
  {
    statusId: 8,
    statusCode: "delivery_failed",
    nameAr: "تعذر التوصيل",
    nameEn: "Delivery attempt failed",
    terminal: false,
  },
  {
    statusId: 9,
    statusCode: "returned",
    nameAr: "أعيد إلى المرسل",
    nameEn: "Returned to sender",
    terminal: true,
  },
  { statusId: 10, statusCode: "cancelled", nameAr: "ملغي", nameEn: "Cancelled", terminal: true },
];

export const STATUS_BY_CODE = new Map(ORDER_STATUSES.map((s) => [s.statusCode, s]));

export interface VehicleTypeInfo {
  vehicleTypeId: number;
  nameAr: string;
  nameEn: string;
  maxWeightKg: number;
  priceFactor: number;
}

export const VEHICLE_TYPES: readonly VehicleTypeInfo[] = [
  {
    vehicleTypeId: 1,
    nameAr: "دراجة نارية",
    nameEn: "Motorcycle",
    maxWeightKg: 10,
    priceFactor: 1,
  },
  { vehicleTypeId: 2, nameAr: "سيارة", nameEn: "Car", maxWeightKg: 30, priceFactor: 1.2 },
  { vehicleTypeId: 3, nameAr: "فان", nameEn: "Van", maxWeightKg: 300, priceFactor: 2 },
  { vehicleTypeId: 4, nameAr: "شاحنة", nameEn: "Truck", maxWeightKg: 2000, priceFactor: 4 },
];

/** Payment method codes this sandbox accepts (the document lists none). */
export const PAYMENT_METHODS = ["cod", "prepaid"] as const;
