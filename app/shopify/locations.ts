import { z } from "zod";
import { runAdminOperation, type AdminGraphql } from "./graphql";

const LOCATIONS = `#graphql
  query PickupLocations {
    locations(first: 100, includeInactive: false) {
      nodes {
        id
        name
        isActive
        fulfillsOnlineOrders
        address {
          address1
          address2
          city
          zip
          provinceCode
          countryCode
          phone
          latitude
          longitude
        }
      }
    }
  }`;

const locationsReply = z.object({
  locations: z.object({
    nodes: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        isActive: z.boolean(),
        fulfillsOnlineOrders: z.boolean(),
        address: z.object({
          address1: z.string().nullable(),
          address2: z.string().nullable(),
          city: z.string().nullable(),
          zip: z.string().nullable(),
          provinceCode: z.string().nullable(),
          countryCode: z.string().nullable(),
          phone: z.string().nullable(),
          // Where Shopify put the location's pin (from its address); absent in older replies.
          latitude: z.number().nullish(),
          longitude: z.number().nullish(),
        }),
      }),
    ),
  }),
});

export type ShopifyLocation = z.infer<typeof locationsReply>["locations"]["nodes"][number];

/** The shop's active locations that ship online orders: the candidates for courier pickups. */
export async function fetchPickupCandidates(admin: AdminGraphql): Promise<ShopifyLocation[]> {
  const data = await runAdminOperation(admin, "PickupLocations", LOCATIONS, locationsReply);
  return data.locations.nodes.filter((l) => l.isActive && l.fulfillsOnlineOrders);
}
