import type { CreateOrderInput } from "../../app/courier";
import type { CourierSandbox } from "../../sandbox/courier";

export const TEST_KEY = "ck_live_7f3a9c2e5b8d4f1a6c0e9b7d";

/** Governance and area ids of the sandbox, by English name: tests never hard-code ids. */
export function place(sandbox: CourierSandbox, areaNameEn: string) {
  for (const governance of sandbox.governances) {
    const area = governance.areas.find((a) => a.nameEn === areaNameEn);
    if (area) return { governanceId: governance.governanceId, areaId: area.areaId };
  }
  throw new Error(`The sandbox has no area ${areaNameEn}`);
}

/** A valid order from the Salmiya store to a customer in Jabriya (both Hawalli). */
export function orderInput(
  sandbox: CourierSandbox,
  overrides: Partial<CreateOrderInput> = {},
): CreateOrderInput {
  return {
    pickupAddress: {
      ...place(sandbox, "Salmiya"),
      block: "10",
      street: "Salem Al Mubarak St",
      building: "Al Fanar Tower",
      floor: "2",
      contactName: "Store front desk",
      contactPhone: "+965 2222 3333",
    },
    pickupDate: new Date(),
    paymentMethod: "cod",
    deliveryAddress: {
      ...place(sandbox, "Jabriya"),
      block: "1A",
      street: "5",
      avenue: "2",
      house: "14",
      contactName: "نورة",
      contactPhone: "٩٩٨٨ ٧٧٦٦",
      latitude: 29.3201234567,
      longitude: 48.0209876543,
      notes: "Ring twice",
    },
    packageDetails: { weight: 1.2, description: "Perfume", value: "24.500" },
    notes: "shopify:#1001 ref:KCS-0001",
    ...overrides,
  };
}
