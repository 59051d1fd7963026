import { labelDataFromDelivery, type LabelData } from "../../app/labels";
import { createdDelivery, LONG_ARABIC_ADDRESS } from "./fixtures";

/** Labels of deliveries whose shopper typed a long Arabic address, numbered 1…count. */
export function longArabicLabels(count: number): LabelData[] {
  return Array.from({ length: count }, (_, i) =>
    labelDataFromDelivery(
      createdDelivery({
        id: `cllongaddress${String(i).padStart(10, "0")}`,
        courierOrderNumber: `KW${String(88_000_000 + i)}`,
        cashToCollect: i % 3 === 0 ? null : "1234.005",
        addressMatch: {
          input: LONG_ARABIC_ADDRESS,
          area: "Sabah Al Salem",
          governorate: "Mubarak Al-Kabeer",
          parts: {
            block: "12",
            street: "عبدالله المبارك الصباح",
            avenue: "7",
            house: "43",
            building: null,
            floor: "3",
            apartment: "12",
            paci: "20345678",
          },
        },
      }),
      { name: `#${1042 + i}` },
      { name: "دار العباية · Dar Al Abaya" },
    ),
  );
}
