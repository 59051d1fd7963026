import type { ShopifyStandInStore } from "./store";
import type { StandInOrder } from "./records";

/**
 * Fills a store for the offline demo: two locations and seven orders whose addresses are the kind
 * Kuwaiti shoppers type (English, Arabic, transliterations with typos, the area in the wrong
 * field, coordinates, a landmark instead of a block), paid and cash on delivery.
 */
export function seedDemoStore(store: ShopifyStandInStore): StandInOrder[] {
  const warehouse = store.addLocation({ name: "Shuwaikh Warehouse" });
  const shop = store.addLocation({
    name: "Salmiya Shop",
    address: {
      address1: "Salem Al Mubarak Street, Block 10",
      city: "Salmiya",
      zip: "22000",
      provinceCode: "KW-HA",
      phone: "+96522211111",
      latitude: 29.3339,
      longitude: 48.0761,
    },
  });

  return [
    store.addOrder({
      email: "fatima@example.com",
      shippingAddress: {
        firstName: "Fatima",
        lastName: "Al-Mutairi",
        address1: "Block 4, Street 12, House 9",
        city: "Salmiya",
        provinceCode: "KW-HA",
      },
    }),
    store.addOrder({
      payment: "cod",
      email: "abdullah@example.com",
      // Shopped in Arabic: the tracking page opens in Arabic.
      customerLocale: "ar",
      shippingAddress: {
        firstName: "عبدالله",
        lastName: "الكندري",
        address1: "قطعة 5 شارع 20 منزل 14",
        address2: "جادة 2",
        city: "الجابرية",
        provinceCode: "KW-HA",
        phone: "+96566012345",
      },
      lineItems: [{ title: "Bukhoor Gift Set", sku: "BKH-SET", price: "18.750", grams: 900 }],
    }),
    store.addOrder({
      payment: "cod",
      email: "noura@example.com",
      shippingAddress: {
        firstName: "Noura",
        lastName: "Alajmi",
        address1: "blk 2 st 5 jadda 3 house 21",
        city: "Farwaniya",
        provinceCode: "KW-FA",
        phone: "+96555123456",
      },
      lineItems: [
        { quantity: 2 },
        { title: "Saffron Tea", sku: "TEA-SAF", price: "3.500", grams: 250, locationId: shop.id },
      ],
    }),
    store.addOrder({
      email: "yousef@example.com",
      note: "Please call before delivery",
      shippingAddress: {
        firstName: "Yousef",
        lastName: "Al-Shammari",
        address1: "House 8, Street 3",
        address2: "Mishref, Block 1",
        city: "Kuwait City",
        provinceCode: "KW-HA",
        phone: "+96599887766",
      },
      locationId: shop.id,
    }),
    store.addOrder({
      payment: "cod",
      email: "hamad@example.com",
      shippingAddress: {
        firstName: "Hamad",
        lastName: "Al-Enezi",
        address1: "Block 3, Street 7, House 40",
        city: "Jahra",
        provinceCode: "KW-JA",
        phone: "+96550505050",
      },
      lineItems: [
        {
          title: "Dates Crate",
          sku: "DATES-5KG",
          price: "9.000",
          quantity: 2,
          weight: { value: 5, unit: "KILOGRAMS" },
        },
      ],
      locationId: warehouse.id,
    }),
    store.addOrder({
      email: "maryam@example.com",
      shippingAddress: {
        firstName: "Maryam",
        lastName: "Al-Rashidi",
        address1: "Fahaheel, Block 7, Street 50, Building 12",
        address2: "Floor 3, Apartment 6",
        city: "Fahaheel",
        provinceCode: "KW-AH",
        phone: "+96560606060",
        latitude: 29.0825,
        longitude: 48.1302,
      },
    }),
    store.addOrder({
      payment: "cod",
      email: "khalid@example.com",
      shippingAddress: {
        firstName: "Khalid",
        lastName: "Al-Fadhli",
        address1: "near the co-op, behind the mosque",
        city: "Sabah Al Salem",
        provinceCode: "KW-MU",
        phone: "+96569696969",
      },
    }),
  ];
}
